/**
 * `kill -9` between a nonce order's trigger and its confirmation (issue #35's must-show): the real
 * service (`src/main.ts`, a child process on an embedded PGlite data dir) over the test's chain
 * with the real Jupiter v6 and Raydium CP programs (SWAPD_CHAIN_DIR), its RPC through a real proxy
 * that holds chosen `sendTransaction` calls. Three takers arm a stop-loss each; another wallet's
 * swap moves the pool through the stops; the keeper fires all three, and the proxy holds each leg's
 * send: the first forwarded (it lands; the service never hears so), the other two not forwarded.
 * The service is killed (SIGKILL) with the three orders `triggered`; while it is down the third
 * taker cancels (advances their nonce). Restarted on the same data dir:
 *
 * - the leg that landed is reported landed with the amounts the chain moved, never sent again;
 * - the leg that never reached the chain is sent again (the same signed bytes, the same signature)
 *   and lands — allowed only because the chain proved the first send did not land: before that
 *   second send the restarted service read the signature (unknown) and the nonce (still the leg's);
 * - the leg whose nonce moved while it was held is reported not landed (cancelled by the taker),
 *   never sent again, and nothing left the taker but fees.
 *
 * The rule, asserted here: a leg's signed bytes reach the chain again after a restart only when
 * the chain says the signature is unknown and the nonce still holds the leg's value; so across both
 * lives each leg lands at most once, and a leg the chain saw is never sent twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import bs58 from "bs58";
import { Keypair, NonceAccount, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { startServiceProcess } from "../../bench/service-process.js";
import type { ServiceProcess } from "../../bench/service-process.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { openStore } from "../../src/store/index.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { until } from "../fixtures/until.js";
import { startSendHoldingRpcProxy } from "../fixtures/send-holding-rpc-proxy.js";
import type { SendHoldingRpcProxy } from "../fixtures/send-holding-rpc-proxy.js";
import { tokenBalance } from "./onchain-stack.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = DEMO.usdcMint.toBase58();
const ONE_SOL = 1_000_000_000n;

let localnet: Localnet;
let proxy: SendHoldingRpcProxy;
let dataDir: string;
const services: ServiceProcess[] = [];

function sign(wire: string, signer: Keypair): Uint8Array {
  const tx = VersionedTransaction.deserialize(Buffer.from(wire, "base64"));
  tx.sign([signer]);
  return tx.serialize();
}

function send(wire: Uint8Array): string {
  return localnet.chain.sendTransaction(wire, { skipPreflight: false }).signature;
}

function nonceValue(account: string): string {
  return NonceAccount.fromAccountData(Buffer.from(localnet.chain.getAccount(new PublicKey(account))!.data)).nonce;
}

/** The service: `src/main.ts` (through tsx), its chain reached only through the proxy (the websocket goes straight to the chain: it sends nothing). */
async function startService(): Promise<ServiceProcess> {
  const service = await startServiceProcess({
    solanaRpcUrl: proxy.url,
    entry: "src/main.ts",
    logLevel: "info",
    startTimeoutMs: 180_000,
    env: {
      DATA_DIR: dataDir,
      SOLANA_WS_URL: localnet.websocketUrl,
      INTERMEDIATE_TOKENS: `${SOL},${USDC}`,
      CONFIRM_POLL_MS: "100",
      REBROADCAST_MS: "500",
      // A held send is never answered: the wait for it must outlast the test's window, not give up first.
      RPC_TIMEOUT_MS: "300000",
    },
  });
  services.push(service);
  return service;
}

async function call(service: ServiceProcess, path: string, body?: unknown): Promise<any> {
  const res = await fetch(
    `${service.url}${path}`,
    body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${text}\n${service.recentOutput()}`);
  return JSON.parse(text);
}

async function orderOf(service: ServiceProcess, taker: Keypair, orderId: string): Promise<any> {
  return (await call(service, `/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).orders.find((o: any) => o.orderId === orderId);
}

interface Armed {
  readonly taker: Keypair;
  readonly orderId: string;
  readonly nonceAccount: string;
  readonly signature: string;
  readonly wire: Uint8Array;
}

/** A taker with a nonce account and a single stop-loss on 1 SOL at `stop` (raw USDC), floor `floor`, armed. */
async function armStopLoss(service: ServiceProcess, stop: bigint, floor: bigint): Promise<Armed> {
  const taker = Keypair.generate();
  localnet.airdrop(taker.publicKey, 5n * ONE_SOL);
  const owner = taker.publicKey.toBase58();
  const stopLoss = { price: (Number(stop) / 1e6).toFixed(6), minOutAmount: floor.toString() };
  const base = { taker: owner, inputMint: SOL, outputMint: USDC, amount: ONE_SOL.toString(), kind: "single", stopLoss };
  const withNonce = await call(service, "/trigger/v2/createOrder", base);
  send(sign(withNonce.nonceAccountTransaction, taker));
  const created = await call(service, "/trigger/v2/createOrder", { ...base, nonceAccount: withNonce.nonceAccount });
  const wire = sign(created.legs[0].transaction, taker);
  const armed = await call(service, "/trigger/v2/arm", { orderId: created.orderId, signedTransactions: [Buffer.from(wire).toString("base64")] });
  expect(armed.order.status).toBe("armed");
  const signature = bs58.encode(VersionedTransaction.deserialize(wire).signatures[0]);
  return { taker, orderId: created.orderId, nonceAccount: withNonce.nonceAccount, signature, wire };
}

/** The taker's own cancel, signed and sent by them (no swapd involved): AdvanceNonceAccount on their nonce. */
function cancelByTaker(armed: Armed): void {
  const message = new TransactionMessage({
    payerKey: armed.taker.publicKey,
    recentBlockhash: localnet.chain.latestBlockhash().blockhash,
    instructions: [SystemProgram.nonceAdvance({ noncePubkey: new PublicKey(armed.nonceAccount), authorizedPubkey: armed.taker.publicKey })],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([armed.taker]);
  send(tx.serialize());
}

const usdcOf = (taker: Keypair) => tokenBalance(localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));

describe.skipIf(!hasChainDir())("nonce orders: kill -9 between the trigger and the confirmation", () => {
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, programsDir: join(CHAIN_DIR!, "programs"), accountsDir: join(CHAIN_DIR!, "accounts") });
    await seedDemo(localnet);
    proxy = await startSendHoldingRpcProxy(localnet.url);
    dataDir = mkdtempSync(join(tmpdir(), "swapd-nonce-kill-"));
  }, 120_000);
  afterAll(async () => {
    for (const service of services) await service.stop();
    await proxy?.close();
    await localnet?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("after the restart each order is reported with the chain's truth, and no leg the chain saw is sent twice", { timeout: 600_000 }, async () => {
    const first = await startService();
    const p0 = BigInt((await call(first, `/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}`)).outAmount);
    const stop = (p0 * 95n) / 100n;
    const floor = (stop * 80n) / 100n;
    const [landedFirst, resent, cancelled] = [
      await armStopLoss(first, stop, floor),
      await armStopLoss(first, stop, floor),
      await armStopLoss(first, stop, floor),
    ];
    proxy.setRule(landedFirst.signature, "forward-and-hold");
    proxy.setRule(resent.signature, "hold");
    proxy.setRule(cancelled.signature, "hold");

    // Another wallet sells SOL (straight to the chain): the price falls through the three stops.
    const whale = Keypair.generate();
    localnet.airdrop(whale.publicKey, 400n * ONE_SOL);
    const order = await call(
      first,
      `/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=${80n * ONE_SOL}&slippageBps=5000&taker=${whale.publicKey.toBase58()}`,
    );
    expect(localnet.chain.getRecord(send(sign(order.transaction, whale)))?.err).toBeNull();

    // Each leg's send reaches the proxy; the first lands on the chain, the service hears nothing back.
    for (const armed of [landedFirst, resent, cancelled])
      await until(`the send of ${armed.signature}`, () => (proxy.sendsOf(armed.signature).length > 0 ? true : undefined), 60_000);
    await until("the first leg on the chain", () => localnet.chain.getRecord(landedFirst.signature), 60_000);
    expect(localnet.chain.getRecord(landedFirst.signature)!.err).toBeNull();
    // The window: the service still reports every order triggered (it has not seen a confirmation).
    for (const armed of [landedFirst, resent, cancelled]) expect((await orderOf(first, armed.taker, armed.orderId)).status).toBe("triggered");
    const receivedBeforeKill = usdcOf(landedFirst.taker);
    expect(receivedBeforeKill).toBeGreaterThanOrEqual(floor);

    process.kill(first.pid, "SIGKILL");
    await first.stop();
    for (const armed of [resent, cancelled]) expect(localnet.chain.getRecord(armed.signature)).toBeUndefined();
    expect(proxy.sendsOf(landedFirst.signature).map((s) => s.forwarded)).toEqual([true]);
    expect(proxy.sendsOf(resent.signature).every((s) => !s.forwarded)).toBe(true);
    // While the service is down, the third taker cancels: their nonce moves, their leg can never land.
    const cancelledNonce = nonceValue(cancelled.nonceAccount);
    cancelByTaker(cancelled);
    expect(nonceValue(cancelled.nonceAccount)).not.toBe(cancelledNonce);
    const resentNonce = nonceValue(resent.nonceAccount);
    expect(resentNonce).toBe(VersionedTransaction.deserialize(resent.wire).message.recentBlockhash);

    // Second life, same data dir, sends pass through.
    proxy.setLife(1);
    for (const armed of [landedFirst, resent, cancelled]) proxy.setRule(armed.signature, "pass");
    const second = await startService();
    const finished = async (armed: Armed) =>
      until(
        `order ${armed.orderId} finished`,
        async () => {
          const o = await orderOf(second, armed.taker, armed.orderId);
          return o.status === "armed" || o.status === "triggered" ? undefined : o;
        },
        60_000,
      );

    // Landed before the kill: reported landed with what the chain moved; never sent again.
    const one = await finished(landedFirst);
    expect(one.status, JSON.stringify(one)).toBe("landed");
    expect(one.legs[0].status).toBe("landed");
    expect(one.legs[0].signature).toBe(landedFirst.signature);
    expect(BigInt(one.legs[0].outAmount)).toBe(usdcOf(landedFirst.taker));
    expect(usdcOf(landedFirst.taker)).toBe(receivedBeforeKill);
    expect(BigInt(one.legs[0].inAmount)).toBe(ONE_SOL);
    expect(BigInt(one.legs[0].slot)).toBe(BigInt(localnet.chain.getRecord(landedFirst.signature)!.slot));
    expect(proxy.sendsOf(landedFirst.signature)).toHaveLength(1);

    // Never reached the chain: sent again (same bytes), after the chain proved the first send did not land.
    const two = await finished(resent);
    expect(two.status, JSON.stringify(two)).toBe("landed");
    expect(localnet.chain.getRecord(resent.signature)?.err).toBeNull();
    expect(BigInt(two.legs[0].outAmount)).toBe(usdcOf(resent.taker));
    expect(usdcOf(resent.taker)).toBeGreaterThanOrEqual(floor);
    expect(nonceValue(resent.nonceAccount)).not.toBe(resentNonce);
    const secondLife = proxy.log.filter((c) => c.life === 1);
    const firstResend = secondLife.findIndex((c) => c.method === "sendTransaction" && c.signatures[0] === resent.signature);
    expect(firstResend).toBeGreaterThanOrEqual(0);
    const before = secondLife.slice(0, firstResend);
    const statusReads = before.filter((c) => c.method === "getSignatureStatuses" && c.signatures.includes(resent.signature));
    expect(statusReads.length).toBeGreaterThan(0);
    expect(statusReads.every((c) => c.statuses![c.signatures.indexOf(resent.signature)] === null)).toBe(true);
    expect(before.some((c) => c.accounts.includes(resent.nonceAccount))).toBe(true);

    // Its nonce moved while it was held: reported not landed (the taker's cancel); never sent again; nothing moved but fees.
    const three = await finished(cancelled);
    expect(three.status, JSON.stringify(three)).toBe("cancelled");
    expect(three.legs[0].status).toBe("voided");
    expect(three.legs[0].outAmount).toBeNull();
    expect(localnet.chain.getRecord(cancelled.signature)).toBeUndefined();
    expect(proxy.sendsOf(cancelled.signature).filter((s) => s.life === 1)).toEqual([]);
    expect(proxy.sendsOf(cancelled.signature).every((s) => !s.forwarded)).toBe(true);
    expect(usdcOf(cancelled.taker)).toBe(0n);
    expect(localnet.chain.getAccount(cancelled.taker.publicKey)!.lamports).toBeGreaterThan(4n * ONE_SOL);

    await second.stop();
    // The landing's records on disk say the same: decided by the chain, or by the nonce that moved.
    const store = await openStore({ dataDir });
    try {
      expect(await store.executions.findBySignature(landedFirst.signature)).toMatchObject({ status: "Success", decidedBy: "chain" });
      expect(await store.executions.findBySignature(resent.signature)).toMatchObject({ status: "Success", decidedBy: "chain" });
      const voided = await store.executions.findBySignature(cancelled.signature);
      expect(voided).toMatchObject({ status: "Failed", decidedBy: "expiry" });
      expect(voided!.error).toMatch(/durable nonce advanced without it/);
    } finally {
      await store.close();
    }
  });
});
