/**
 * The landing room (`landOnce`) on durable-nonce transactions, on the embedded chain (no program
 * binaries needed: a System transfer behind `AdvanceNonceAccount`). Such a transaction has no last
 * valid block height: it is re-broadcast while the chain does not know it and its nonce holds (a
 * real proxy drops its first send), and it can no longer land — "did not land", decided by the
 * expiry — only once its nonce account holds another value (the signer advanced it).
 */
import bs58 from "bs58";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Keypair, NonceAccount, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { createNonceAccountInstructions, nonceAccountAddress, nonceAccountSeed } from "../../src/core/solana/durable-nonce.js";
import { transactionMessageHash } from "../../src/core/trigger/message-hash.js";
import { ExecutionConfirmations, landOnce, parseSignedTransaction } from "../../src/landing/index.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { openStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/index.js";
import { startDroppingRpcProxy } from "../fixtures/dropping-rpc-proxy.js";
import type { DroppingRpcProxy } from "../fixtures/dropping-rpc-proxy.js";

let localnet: Localnet;
let proxy: DroppingRpcProxy;
let store: Store;
let chain: RpcSolanaChain;
let confirmations: ExecutionConfirmations;
const payer = Keypair.generate();
const nonceAccount = nonceAccountAddress(payer.publicKey, nonceAccountSeed(0));

function signed(instructions: TransactionInstruction[], blockhash: string): Uint8Array {
  const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
  tx.sign([payer]);
  return tx.serialize();
}

const nonceNow = () => NonceAccount.fromAccountData(Buffer.from(localnet.chain.getAccount(nonceAccount)!.data)).nonce;
const advance = () => SystemProgram.nonceAdvance({ noncePubkey: nonceAccount, authorizedPubkey: payer.publicKey });
const lamportsOf = (key: PublicKey) => localnet.chain.getAccount(key)?.lamports ?? 0n;

/** A transfer of `lamports` to `to` on the nonce as it is now (its first instruction advances it). */
function onNonce(to: PublicKey, lamports: number): Uint8Array {
  return signed([advance(), SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })], nonceNow());
}

function land(wire: Uint8Array) {
  const tx = parseSignedTransaction("signedTransaction", wire);
  const signature = bs58.encode(tx.signatures[0]);
  return landOnce(
    { store, chain, confirmations },
    { tx, signature, requestId: `nonce-${signature}`, messageHash: transactionMessageHash(tx.message), lastValidBlockHeight: null },
    "sign a new one",
  );
}

describe("landing a durable-nonce transaction", () => {
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    localnet.airdrop(payer.publicKey, 10_000_000_000n);
    localnet.chain.sendTransaction(
      signed(createNonceAccountInstructions(payer.publicKey, nonceAccountSeed(0), payer.publicKey), localnet.chain.latestBlockhash().blockhash),
      { skipPreflight: false },
    );
    localnet.airdrop(Keypair.generate().publicKey, 1_000_000_000n); // a new blockhash: the nonce can advance
    proxy = await startDroppingRpcProxy(localnet.url, 1);
    chain = new RpcSolanaChain({ url: proxy.url });
    store = await openStore({ inMemory: true });
    // A wait longer than the test's bound: a decision never comes from the wait ending.
    confirmations = new ExecutionConfirmations(
      { chain, store, logger: pino({ level: "silent" }) },
      { pollIntervalMs: 20, rebroadcastIntervalMs: 100, maxWaitMs: 60_000 },
    );
  }, 60_000);
  afterAll(async () => {
    confirmations?.close();
    chain?.close();
    await store?.close();
    await proxy?.close();
    await localnet?.close();
  });

  test("its first send lost: re-broadcast while the nonce holds, it lands once and moves the nonce", async () => {
    const to = Keypair.generate().publicKey;
    const before = nonceNow();
    const record = await land(onNonce(to, 1_000_000));
    expect(record).toMatchObject({ status: "Success", decidedBy: "chain", lastValidBlockHeight: null });
    expect(proxy.sendsDropped).toBe(1);
    expect(proxy.sendsReceived).toBeGreaterThanOrEqual(2);
    expect(lamportsOf(to)).toBe(1_000_000n);
    expect(localnet.chain.getRecord(record.signature)?.err).toBeNull();
    expect(nonceNow()).not.toBe(before);
  });

  test("its nonce advanced by its signer before it was seen: Failed, decided by the expiry, naming the nonce; nothing moved", async () => {
    const to = Keypair.generate().publicKey;
    const wire = onNonce(to, 2_000_000);
    const carried = VersionedTransaction.deserialize(wire).message.recentBlockhash;
    // The signer's own advance (a cancel), straight to the chain: the transfer can never land now.
    localnet.airdrop(Keypair.generate().publicKey, 1_000_000_000n); // a new blockhash to advance to
    localnet.chain.sendTransaction(signed([advance()], localnet.chain.latestBlockhash().blockhash), { skipPreflight: false });
    expect(nonceNow()).not.toBe(carried);
    const record = await land(wire);
    expect(record).toMatchObject({ status: "Failed", decidedBy: "expiry", slot: null });
    expect(record.error).toContain(
      `unable to confirm transaction: its durable nonce advanced without it (nonce account ${nonceAccount.toBase58()} holds ${nonceNow()}, the transaction carries ${carried})`,
    );
    expect(localnet.chain.getRecord(record.signature)).toBeUndefined();
    expect(lamportsOf(to)).toBe(0n);
  });
});
