/**
 * Swap Execute survives a restart: the service (a child process over the test's embedded chain
 * with the real programs, and a PGlite data dir) is killed (SIGKILL) after it sent the order's
 * transaction and before it saw the confirmation; the restarted service records the outcome and
 * the amounts, and a repeated Execute answers them without sending again. The first child polls
 * for confirmation only after 60 s (`pollIntervalMs`, a legitimate setting), which opens the window.
 */
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { openStore } from "../../src/store/index.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { SOL, USDC } from "../api/swap-v2-stack.js";
import { tokenBalance } from "./onchain-stack.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const childScript = fileURLToPath(new URL("../api/fixtures/swap-v2-service-child.ts", import.meta.url));

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  readonly url: string;
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  readonly exited: Promise<number | null>;
}

function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", childScript], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout }).on("line", (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return; // not a log line (e.g. a tool's banner)
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = (pred: (l: Record<string, unknown>) => boolean, timeoutMs: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
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
  return waitFor((l) => typeof l["listening"] === "string", 60_000).then((l) => ({
    process: child,
    url: l["listening"] as string,
    exited,
    waitForLog: (msg, timeoutMs = 30_000) => waitFor((x) => x["msg"] === msg, timeoutMs),
  }));
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!hasChainDir())("swap Execute survives a restart", () => {
  let localnet: Localnet;
  const dataDir = mkdtempSync(join(tmpdir(), "swapd-swap-v2-restart-"));
  const children: Child[] = [];
  beforeAll(async () => {
    localnet = await startLocalnet({ programsDir: join(CHAIN_DIR!, "programs"), accountsDir: join(CHAIN_DIR!, "accounts") });
    await seedDemo(localnet);
  }, 60_000);
  afterAll(async () => {
    for (const c of children) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill("SIGKILL");
    await localnet?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("SIGKILL between the send and the confirmation; the restarted service records Success and the amounts, without a second send", async () => {
    const env = { SOLANA_RPC_URL: localnet.url, DATA_DIR: dataDir, INTERMEDIATE_TOKENS: `${SOL},${USDC}` };
    const first = await startChild({ ...env, CONFIRM_POLL_MS: "60000" });
    children.push(first);
    const taker = Keypair.generate();
    localnet.airdrop(taker.publicKey, 10_000_000_000n);
    const usdc = getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey);
    const order = await (
      await fetch(`${first.url}/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&taker=${taker.publicKey.toBase58()}`)
    ).json();
    const tx = VersionedTransaction.deserialize(Buffer.from(order.transaction, "base64"));
    tx.sign([taker]);
    const signedTransaction = Buffer.from(tx.serialize()).toString("base64");
    const execute = (url: string) =>
      fetch(`${url}/swap/v2/execute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ signedTransaction, requestId: order.requestId }),
      });
    const pendingCall = execute(first.url).then(
      () => "answered",
      () => "connection lost",
    );
    await until(() => (localnet.stats().calls["sendTransaction"] ?? 0) === 1, 30_000);
    first.process.kill("SIGKILL");
    expect(await pendingCall).toBe("connection lost");
    await first.exited;
    const received = tokenBalance(localnet, usdc);
    expect(received).toBeGreaterThan(0n);

    const afterKill = await openStore({ dataDir });
    const pending = await afterKill.executions.findByMessageHash((await afterKill.issuedTransactions.findByRequestId(order.requestId))[0].messageHash);
    expect(pending).toMatchObject({ status: "Pending" });
    await afterKill.close();

    const second = await startChild({ ...env, CONFIRM_POLL_MS: "50" });
    children.push(second);
    const resumed = await second.waitForLog("resumed executions settled");
    expect(resumed).toMatchObject({ pending: 1, statuses: [[pending!.signature, "Success"]] });
    const answer = await (await execute(second.url)).json();
    expect(answer).toMatchObject({
      status: "Success",
      code: 0,
      signature: pending!.signature,
      outputAmountResult: received.toString(),
      inputAmountResult: "1000000000",
    });
    expect(localnet.stats().calls["sendTransaction"]).toBe(1);
    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);

    const finalStore = await openStore({ dataDir });
    expect(await finalStore.swapOrders.findResult(pending!.signature)).toMatchObject({ outputAmount: received, inputAmount: 1_000_000_000n });
    await finalStore.close();
  }, 180_000);
});
