// Landing a quote as a client does: swap-instructions from the service for the quote (plain `route`,
// no SOL wrapping, no priority fee), signed by the user and sent to the embedded chain; the chain's
// record must show no error.
import { PublicKey } from "@solana/web3.js";
import type { Keypair } from "@solana/web3.js";
import { expect } from "vitest";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { fundTokenAccount, swapTransaction, tokenBalance } from "./onchain-stack.js";

export async function landQuotedSwap(localnet: Localnet, serviceUrl: string, user: Keypair, quoteResponse: unknown): Promise<void> {
  const res = await fetch(`${serviceUrl}/swap/v1/swap-instructions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      userPublicKey: user.publicKey.toBase58(),
      quoteResponse,
      wrapAndUnwrapSol: false,
      useSharedAccounts: false,
      prioritizationFeeLamports: 0,
    }),
  });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  const { signature } = localnet.chain.sendTransaction(swapTransaction(localnet, answer, user).serialize(), { skipPreflight: true });
  const record = localnet.chain.getRecord(signature)!;
  expect(record.err, record.logs.join("\n")).toBeNull();
}

/**
 * A quote of two SPL Token mints landed from fresh accounts: the user's input account funded with
 * exactly `inAmount` (and emptied by the swap), the output account made empty; what it received.
 */
export async function executeQuote(
  localnet: Localnet,
  serviceUrl: string,
  user: Keypair,
  quoteResponse: { inputMint: string; outputMint: string; inAmount: string },
): Promise<bigint> {
  const source = fundTokenAccount(localnet, user.publicKey, new PublicKey(quoteResponse.inputMint), BigInt(quoteResponse.inAmount));
  const destination = fundTokenAccount(localnet, user.publicKey, new PublicKey(quoteResponse.outputMint), 0n);
  await landQuotedSwap(localnet, serviceUrl, user, quoteResponse);
  expect(tokenBalance(localnet, source)).toBe(0n);
  return tokenBalance(localnet, destination);
}
