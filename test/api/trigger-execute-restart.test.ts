/**
 * A server killed (SIGKILL) between sending a transaction and recording its confirmation, then
 * restarted, completes the execution record. The service runs in a child process over the test's
 * localnet (external RPC) and a PGlite data dir. The first child polls for confirmation only after
 * 60 s, a legitimate setting (`pollIntervalMs`) that opens a wide window between the send and the
 * confirmation; the test kills it in that window, once the localnet has received the send.
 */
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import bs58 from "bs58";
import { Keypair, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import { issueTransactions } from "../../src/api/trigger/issue-transactions.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { compileTransaction } from "../../src/core/solana/transaction-message.js";
import { DEMO, DEMO_WALLET, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { openStore } from "../../src/store/index.js";
import { transactionMessageHash } from "../../src/core/trigger/message-hash.js";
import { startTriggerHarness } from "./trigger-harness.js";
import pino from "pino";
import { Code } from "@connectrpc/connect";
import { createTriggerOrderEntry } from "../../src/api/trigger/order-entry.js";
import { ExecutionInterruptedError } from "../../src/landing/index.js";
import { toConnectError } from "../../src/server/error-mapping.js";
import type { TriggerHarness } from "./trigger-harness.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const childScript = fileURLToPath(new URL("./fixtures/trigger-service-child.ts", import.meta.url));

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly lines: Record<string, unknown>[];
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", childScript], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout }).on("line", (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return;
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = (pred: (l: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child: timed out; stderr:\n${stderr}`)), timeoutMs);
      const check = () => {
        const found = lines.find(pred);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else waiters.push(check);
      };
      check();
    });
  return waitFor((l) => typeof l["listening"] === "string", 30_000).then((l) => ({
    process: child,
    url: l["listening"] as string,
    lines,
    exited,
    waitForLog: (msg, timeoutMs = 20_000) => waitFor((x) => x["msg"] === msg, timeoutMs),
  }));
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

let localnet: Localnet;
const dataDir = mkdtempSync(join(tmpdir(), "swapd-execute-restart-"));
const children: Child[] = [];

beforeAll(async () => {
  localnet = await startLocalnet();
  await seedDemo(localnet);
});
afterAll(async () => {
  for (const c of children) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill("SIGKILL");
  await localnet?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("Execute survives a restart", () => {
  it("SIGKILL after the send, before the confirmation is recorded; the restarted server completes the record", async () => {
    // A harmless transaction, recorded as issued through the service's issuance path (the Limit
    // Order program is not on the localnet, so nothing the service builds could succeed here).
    const chain = new RpcSolanaChain({ url: localnet.url });
    const to = Keypair.generate().publicKey;
    const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
    const compiled = compileTransaction([SystemProgram.transfer({ fromPubkey: DEMO.wallet, toPubkey: to, lamports: 5_000_000 })], DEMO.wallet, blockhash);
    const seedStore = await openStore({ dataDir });
    const requestId = await issueTransactions(seedStore, {
      kind: "create_order",
      maker: DEMO.wallet,
      transactions: [{ compiled, orderKeys: [] }],
      lastValidBlockHeight,
    });
    await seedStore.close();
    const tx = VersionedTransaction.deserialize(compiled.transaction);
    tx.sign([DEMO_WALLET]);
    const signature = bs58.encode(tx.signatures[0]);
    const signedTransaction = Buffer.from(tx.serialize()).toString("base64");

    const env = { SOLANA_RPC_URL: localnet.url, DATA_DIR: dataDir };
    const first = await startChild({ ...env, CONFIRM_POLL_MS: "60000" });
    children.push(first);
    const execute = (url: string) =>
      fetch(`${url}/trigger/v1/execute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ requestId, signedTransaction }),
      });
    const pendingCall = execute(first.url).then(
      () => "answered",
      () => "connection lost",
    );
    // The localnet received the send (the record was written before it) and the transaction landed.
    await until(() => (localnet.stats().calls["sendTransaction"] ?? 0) === 1, 15_000);
    expect(localnet.chain.getRecord(signature)?.err).toBeNull();
    first.process.kill("SIGKILL");
    expect(await pendingCall).toBe("connection lost");
    await first.exited;

    // What the killed process left: a Pending record holding the signed transaction.
    const afterKill = await openStore({ dataDir });
    expect(await afterKill.executions.findBySignature(signature)).toMatchObject({ status: "Pending", requestId });
    await afterKill.close();

    const second = await startChild({ ...env, CONFIRM_POLL_MS: "50" });
    children.push(second);
    const resumed = await second.waitForLog("resumed executions settled");
    expect(resumed).toMatchObject({ pending: 1, statuses: [[signature, "Success"]] });
    // The resumer saw the signature on chain, so it did not send again.
    expect(localnet.stats().calls["sendTransaction"]).toBe(1);
    const again = await execute(second.url);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ signature, status: "Success", code: 0 });
    expect(localnet.stats().calls["sendTransaction"]).toBe(1);
    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);

    const finalStore = await openStore({ dataDir });
    expect(await finalStore.executions.findBySignature(signature)).toMatchObject({ status: "Success", code: 0, error: null });
    await finalStore.close();
  }, 90_000);
});

describe("resuming pending executions in process (the resumer's other cases)", () => {
  let h: TriggerHarness;
  beforeAll(async () => {
    h = await startTriggerHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A signed transfer, issued and recorded as Pending, as a process that died before sending leaves it. */
  async function pendingTransfer(blockhash: { blockhash: string; lastValidBlockHeight: number }) {
    const to = Keypair.generate().publicKey;
    const compiled = compileTransaction(
      [SystemProgram.transfer({ fromPubkey: DEMO.wallet, toPubkey: to, lamports: 2_000_000 })],
      DEMO.wallet,
      blockhash.blockhash,
    );
    const requestId = await issueTransactions(h.store, {
      kind: "create_order",
      maker: DEMO.wallet,
      transactions: [{ compiled, orderKeys: [] }],
      lastValidBlockHeight: blockhash.lastValidBlockHeight,
    });
    const tx = VersionedTransaction.deserialize(compiled.transaction);
    tx.sign([DEMO_WALLET]);
    const signature = bs58.encode(tx.signatures[0]);
    await h.store.executions.begin({
      signature,
      requestId,
      messageHash: transactionMessageHash(compiled.message),
      lastValidBlockHeight: BigInt(blockhash.lastValidBlockHeight),
      signedTransaction: tx.serialize(),
    });
    return { signature, to };
  }

  it("died before sending, blockhash still valid: re-sent once, Success; died with an expired blockhash: Failed, unconfirmed", async () => {
    // An old blockhash: 151 blocks later it has expired (the transfer using it was never sent).
    const old = h.localnet.chain.latestBlockhash();
    const target = Keypair.generate().publicKey;
    for (let i = 0; i <= 150; i += 1) h.localnet.airdrop(target, 1_000_000_000n);
    const expired = await pendingTransfer(old);
    const fresh = await pendingTransfer(h.localnet.chain.latestBlockhash());
    const sendsBefore = h.localnet.stats().calls["sendTransaction"] ?? 0;

    const resumed = await h.orderEntry.resumePendingExecutions();
    expect(resumed.pending).toBe(2);
    const records = await resumed.settled;
    const bySignature = new Map(records.map((r) => [r.signature, r]));
    expect(bySignature.get(fresh.signature)).toMatchObject({ status: "Success", code: 0 });
    expect(h.localnet.getAccount(fresh.to)?.lamports).toBe(2_000_000n);
    expect(bySignature.get(expired.signature)).toMatchObject({
      status: "Failed",
      code: 500,
      error: expect.stringMatching(/^unable to confirm transaction: blockhash expired/),
    });
    expect(h.localnet.getAccount(expired.to)).toBeNull();
    expect(h.localnet.stats().calls["sendTransaction"]).toBe(sendsBefore + 1);
    expect(await h.store.executions.listPending()).toEqual([]);
  });
  it("shutdown during the wait: Execute answers 'shutting down' (UNAVAILABLE), the record stays Pending, the next start completes it", async () => {
    const slow = createTriggerOrderEntry({ chain: h.chain, store: h.store, logger: pino({ level: "silent" }), confirmation: { pollIntervalMs: 60_000 } });
    const to = Keypair.generate().publicKey;
    const { blockhash, lastValidBlockHeight } = h.localnet.chain.latestBlockhash();
    const compiled = compileTransaction([SystemProgram.transfer({ fromPubkey: DEMO.wallet, toPubkey: to, lamports: 4_000_000 })], DEMO.wallet, blockhash);
    const requestId = await issueTransactions(h.store, {
      kind: "create_order",
      maker: DEMO.wallet,
      transactions: [{ compiled, orderKeys: [] }],
      lastValidBlockHeight,
    });
    const tx = VersionedTransaction.deserialize(compiled.transaction);
    tx.sign([DEMO_WALLET]);
    const signature = bs58.encode(tx.signatures[0]);
    const sendsBefore = h.localnet.stats().calls["sendTransaction"] ?? 0;
    const executing = slow.execute({ requestId, signedTransaction: tx.serialize() }).then(
      () => null,
      (e: unknown) => e,
    );
    await until(() => (h.localnet.stats().calls["sendTransaction"] ?? 0) === sendsBefore + 1, 10_000);
    slow.close();
    expect(await executing).toBeInstanceOf(ExecutionInterruptedError);
    expect(toConnectError(await executing)).toMatchObject({ code: Code.Unavailable });
    expect(await h.store.executions.findBySignature(signature)).toMatchObject({ status: "Pending" });
    const resumed = await h.orderEntry.resumePendingExecutions();
    expect(await resumed.settled).toMatchObject([{ signature, status: "Success" }]);
    expect(h.localnet.stats().calls["sendTransaction"]).toBe(sendsBefore + 1); // seen on chain: not re-sent
    expect(h.localnet.getAccount(to)?.lamports).toBe(4_000_000n);
  });
});
