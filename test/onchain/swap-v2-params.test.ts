// Swap API v2's parameters on the real Jupiter v6 and Raydium CP programs (SWAPD_CHAIN_DIR): the
// chain is the judge — balances read from the accounts after the transaction landed, the pool moved
// by writing its vault as a trade would leave it. `/execute`'s success answer is validated against
// Jupiter's published v2 document here (the other answers in test/api/swap-v2-openapi.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import client from "prom-client";
import { DEMO_RAYDIUM_CP_SOL_USDC } from "../../src/localnet/demo-pools.js";
import { referralTokenAccount } from "../../src/core/jupiter/referral.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { responseValidator } from "../fixtures/openapi-responses.js";
import { referencePath } from "../fixtures/reference.js";
import { toTransactionInstruction } from "../api/swap-stack.js";
import { SOL, USDC, startSwapV2Stack } from "../api/swap-v2-stack.js";
import type { SwapV2Stack } from "../api/swap-v2-stack.js";
import { TOKEN_PROGRAM, tokenBalance } from "./onchain-stack.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";

const jupiter = responseValidator(referencePath("openapi/jup-ag-docs.swap-v2.yaml"));
const usdcMint = new PublicKey(USDC);

function signBase64(transaction: string, signer: Keypair): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(transaction, "base64"));
  tx.sign([signer]);
  return Buffer.from(tx.serialize()).toString("base64");
}

async function histogramCount(name: string, path: string): Promise<number> {
  const m = await client.register.getSingleMetric(name)?.get();
  return (m?.values ?? [])
    .filter((v) => (v as { metricName?: string }).metricName === `${name}_count` && v.labels["path"] === path)
    .reduce((s, v) => s + v.value, 0);
}

describe.skipIf(!hasChainDir())("Swap API v2 parameters on the real programs", () => {
  let stack: SwapV2Stack;
  let usdcVault: PublicKey;
  beforeAll(async () => {
    stack = await startSwapV2Stack({ programs: true });
    const pool = DEMO_RAYDIUM_CP_SOL_USDC;
    usdcVault = [pool.vaultA.address, pool.vaultB.address].find((v) => new PublicKey(stack.localnet.getAccount(v)!.data.subarray(0, 32)).equals(usdcMint))!;
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  const newTaker = () => {
    const taker = Keypair.generate();
    stack.localnet.airdrop(taker.publicKey, 20_000_000_000n);
    return taker;
  };
  /** Moves the pool's SOL price down by `bps` (its USDC reserve shrinks, as after a USDC-out trade) in a new slot. */
  const movePool = (bps: number) => {
    stack.localnet.airdrop(Keypair.generate().publicKey, 1_000_000_000n); // one landed transaction: a new slot
    const account = stack.localnet.getAccount(usdcVault)!;
    const data = Buffer.from(account.data);
    const amount = data.readBigUInt64LE(64);
    data.writeBigUInt64LE(amount - (amount * BigInt(bps)) / 10_000n, 64);
    stack.localnet.setAccount(usdcVault, { lamports: account.lamports, data, owner: account.owner });
  };
  const order = async (query: string) => {
    const answer = await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const execute = async (body: any, taker: Keypair) => {
    const answer = await stack.post("/swap/v2/execute", { signedTransaction: signBase64(body.transaction, taker), requestId: body.requestId });
    expect(jupiter.errors("POST", "/execute", answer.status, answer.body)).toEqual([]);
    return answer.body;
  };

  test("automatic slippage (first: the pool has no other recent moves): chosen from the pool's recent move; a move below it lands, a move above it fails with 6001 reported as slippage", async () => {
    const countedBefore = await histogramCount("swapd_auto_slippage_bps", "order");
    await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=100000000`); // the pool's rate now
    movePool(40);
    const taker = newTaker();
    const first = await order(`amount=100000000&taker=${taker.publicKey.toBase58()}`);
    expect(first.autoSlippage.poolMoveBps).toBeGreaterThanOrEqual(38);
    expect(first.autoSlippage.poolMoveBps).toBeLessThanOrEqual(42);
    expect(first.slippageBps).toBe(first.autoSlippage.slippageBps);
    expect(first.slippageBps).toBeGreaterThanOrEqual(2 * first.autoSlippage.poolMoveBps);
    expect(await histogramCount("swapd_auto_slippage_bps", "order")).toBe(countedBefore + 1);
    movePool(Math.floor(first.slippageBps / 2)); // less than chosen
    const landed = await execute(first, taker);
    expect(landed.status, landed.error).toBe("Success");

    const second = await order(`amount=100000000&taker=${taker.publicKey.toBase58()}`);
    expect(second.slippageBps).toBeGreaterThan(first.slippageBps); // the larger move is in the window now
    movePool(second.slippageBps + 100); // more than chosen
    const failed = await execute(second, taker);
    expect(failed.status).toBe("Failed");
    expect(failed.code).toBe(6001);
    expect(failed.error).toContain("SlippageToleranceExceeded");
  });

  test("receiver: the output arrives in the receiver's new USDC account, the taker receives none; /execute's Success answer is valid", async () => {
    const taker = newTaker();
    const receiver = Keypair.generate().publicKey;
    const body = await order(`amount=1000000000&taker=${taker.publicKey.toBase58()}&receiver=${receiver.toBase58()}&slippageBps=50`);
    const result = await execute(body, taker);
    expect(result.status, result.error).toBe("Success");
    const received = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(usdcMint, receiver));
    expect(received).toBeGreaterThanOrEqual(BigInt(body.otherAmountThreshold));
    expect(received).toBe(BigInt(body.outAmount));
    expect(stack.localnet.getAccount(getAssociatedTokenAddressSync(usdcMint, taker.publicKey))).toBeNull();
  });

  // On the real Jupiter v6 binary a receiver of SOL output fails (NotEnoughAccountKeys in the program):
  // swapd refuses it by name rather than hand out a transaction that would only cost the taker its fee.
  test("receiver with SOL output (USDC → SOL): 400 naming receiver, nothing built", async () => {
    const taker = newTaker();
    const receiver = Keypair.generate().publicKey;
    const answer = await stack.get(
      `/swap/v2/order?inputMint=${USDC}&outputMint=${SOL}&amount=100000000&taker=${taker.publicKey.toBase58()}&receiver=${receiver.toBase58()}&slippageBps=50`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("receiver");
    expect(answer.body.transaction ?? null).toBeNull();
  });

  test("referral: the fee arrives in the referral token account (the referral program's PDA), as the order said", async () => {
    const taker = newTaker();
    const referral = Keypair.generate().publicKey;
    const feeAccount = referralTokenAccount(referral, usdcMint);
    const missing = await stack.get(
      `/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&taker=${taker.publicKey.toBase58()}&referralAccount=${referral.toBase58()}&referralFee=100`,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("referralAccount");
    // What the referral program's initializeReferralTokenAccount leaves: a token account of the mint at the PDA.
    const rent = stack.localnet.chain.minimumBalanceForRentExemption(165);
    stack.localnet.setAccount(feeAccount, { lamports: rent, data: encodeTokenAccount(usdcMint, feeAccount, 0n, null), owner: TOKEN_PROGRAM });
    const body = await order(`amount=1000000000&taker=${taker.publicKey.toBase58()}&referralAccount=${referral.toBase58()}&referralFee=100&slippageBps=50`);
    expect(body.feeBps).toBe(100);
    expect(body.platformFee.feeBps).toBe(100);
    const result = await execute(body, taker);
    expect(result.status, result.error).toBe("Success");
    const fee = tokenBalance(stack.localnet, feeAccount);
    expect(fee).toBeGreaterThan(0n);
    expect(fee.toString()).toBe(body.platformFee.amount);
  });

  test("tipAmount: /build's tipInstruction, assembled by the client, lands a transfer of exactly that to a relay tip account", async () => {
    const taker = newTaker();
    const built = (await stack.get(`/swap/v2/build?inputMint=${SOL}&outputMint=${USDC}&amount=500000000&taker=${taker.publicKey.toBase58()}&tipAmount=123457`))
      .body;
    const tipAccount = new PublicKey(built.tipInstruction.accounts[1].pubkey);
    expect(DEFAULT_RELAY_TIP_ACCOUNTS).toContain(tipAccount.toBase58());
    stack.localnet.airdrop(tipAccount, 1_000_000_000n); // tip accounts exist on mainnet (a new one would need rent)
    const before = stack.localnet.getAccount(tipAccount)?.lamports ?? 0n;
    const ixs = [
      ...built.computeBudgetInstructions,
      ...built.setupInstructions,
      built.swapInstruction,
      ...(built.cleanupInstruction ? [built.cleanupInstruction] : []),
      ...built.otherInstructions,
      built.tipInstruction,
    ];
    const message = new TransactionMessage({
      payerKey: taker.publicKey,
      recentBlockhash: new PublicKey(Uint8Array.from(built.blockhashWithMetadata.blockhash)).toBase58(),
      instructions: ixs.map(toTransactionInstruction),
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([taker]);
    const { signature } = stack.localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: true });
    const record = stack.localnet.chain.getRecord(signature)!;
    expect(record.err, record.logs.join("\n")).toBeNull();
    expect((stack.localnet.getAccount(tipAccount)?.lamports ?? 0n) - before).toBe(123_457n);
  });
});
