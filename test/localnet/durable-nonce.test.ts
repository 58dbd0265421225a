// Durable nonces on the embedded chain, judged by the real System program (LiteSVM) and read back
// with web3.js's own NonceAccount decoder: swapd's nonce instructions create and advance a nonce
// account; two transfers signed on one nonce value — the first lands, the second is refused and
// moves nothing; a transaction on a stale nonce is refused.
import type { TransactionInstruction } from "@solana/web3.js";
import { Connection, Keypair, LAMPORTS_PER_SOL, NonceAccount, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  advanceNonceInstruction,
  createNonceAccountInstructions,
  nonceAccountAddress,
  NONCE_ACCOUNT_RENT_LAMPORTS,
} from "../../src/core/solana/durable-nonce.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

describe("durable nonces on the embedded chain", () => {
  let localnet: Localnet;
  let connection: Connection;
  const taker = Keypair.generate();

  beforeAll(async () => {
    localnet = await startLocalnet();
    connection = new Connection(localnet.url, "confirmed");
    localnet.airdrop(taker.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));
  });
  afterAll(async () => {
    await localnet.close();
  });

  async function sign(instructions: TransactionInstruction[], blockhash: string) {
    const tx = new VersionedTransaction(new TransactionMessage({ payerKey: taker.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
    tx.sign([taker]);
    return tx.serialize();
  }

  it("creates a nonce account with a seed (the taker alone signs); two transactions on one nonce: the first lands, the second is refused", async () => {
    const seed = "swapd-nonce-0";
    const nonce = nonceAccountAddress(taker.publicKey, seed);
    const { blockhash } = await connection.getLatestBlockhash();
    const created = await connection.sendRawTransaction(await sign(createNonceAccountInstructions(taker.publicKey, seed, taker.publicKey), blockhash));
    expect(localnet.chain.getRecord(created)?.err).toBeNull();
    const info = (await connection.getAccountInfo(nonce))!;
    expect(info.owner.equals(SystemProgram.programId)).toBe(true);
    expect(BigInt(info.lamports)).toBe(NONCE_ACCOUNT_RENT_LAMPORTS);
    expect(BigInt(await connection.getMinimumBalanceForRentExemption(80))).toBe(NONCE_ACCOUNT_RENT_LAMPORTS);
    const state = NonceAccount.fromAccountData(info.data);
    expect(state.authorizedPubkey.equals(taker.publicKey)).toBe(true);

    const a = Keypair.generate().publicKey;
    const b = Keypair.generate().publicKey;
    const first = await sign(
      [advanceNonceInstruction(nonce, taker.publicKey), SystemProgram.transfer({ fromPubkey: taker.publicKey, toPubkey: a, lamports: LAMPORTS_PER_SOL })],
      state.nonce,
    );
    const second = await sign(
      [advanceNonceInstruction(nonce, taker.publicKey), SystemProgram.transfer({ fromPubkey: taker.publicKey, toPubkey: b, lamports: LAMPORTS_PER_SOL })],
      state.nonce,
    );
    // A few slots pass (each airdrop lands in its own): the nonce value is no recent blockhash, the nonce alone keeps the legs valid.
    for (let i = 0; i < 3; i++) await connection.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    expect((await connection.isBlockhashValid(state.nonce)).value).toBe(false);
    const landed = await connection.sendRawTransaction(first);
    expect(localnet.chain.getRecord(landed)?.err).toBeNull();
    expect(await connection.getBalance(a)).toBe(LAMPORTS_PER_SOL);
    const advanced = NonceAccount.fromAccountData((await connection.getAccountInfo(nonce))!.data);
    expect(advanced.nonce).not.toBe(state.nonce);

    await expect(connection.sendRawTransaction(second)).rejects.toThrow(/Blockhash not found/);
    await expect(connection.sendRawTransaction(second, { skipPreflight: true })).rejects.toThrow(/Blockhash not found/);
    expect(await connection.getBalance(b)).toBe(0);
  });
});
