// SIGTERM with server streams open (WatchQuote, WatchTriggerOrders) over real gRPC (grpc-js on the
// real port of the real service, `src/main.ts`): each client reads UNAVAILABLE with a message saying
// the service is shutting down — a status to act on (reconnect), not a GOAWAY torn envelope — long
// before the drain timeout (set to 60 s here, so only a stream that ended by itself can answer in the
// 30 s this test waits); the process exits 0 and logs nothing at error level.
import * as grpc from "@grpc/grpc-js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { grpcPkg } from "./edge-clients.js";

const SOL = "So11111111111111111111111111111111111111112";
const dataDir = mkdtempSync(join(tmpdir(), "swapd-stream-shutdown-"));
let swapd: SwapdProcess | undefined;
afterAll(async () => {
  if (swapd?.alive()) await swapd.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** A server stream's messages and its final status (code and details), as grpc-js reports them. */
function follow(call: grpc.ClientReadableStream<unknown>) {
  const messages: unknown[] = [];
  let wakeOnMessage: (() => void) | undefined;
  call.on("data", (m) => {
    messages.push(m);
    wakeOnMessage?.();
  });
  const status = new Promise<{ code: number; details: string }>((resolve) => {
    call.on("error", () => {}); // the status below says it
    call.on("status", (s: grpc.StatusObject) => resolve({ code: s.code, details: s.details }));
  });
  const firstMessage = new Promise<void>((resolve) => (wakeOnMessage = resolve));
  return { messages, status, firstMessage };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms))),
  ]);
}

it("SIGTERM: open WatchQuote and WatchTriggerOrders streams end with UNAVAILABLE and a message; exit 0, no error-level log line", async () => {
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  swapd = await startSwapdProcess({ ...database, SHUTDOWN_TIMEOUT_MS: "60000" }, 150_000);
  const address = `127.0.0.1:${swapd.port}`;
  const swapClient = new grpcPkg.swapd.swap.v1.SwapService(address, grpc.credentials.createInsecure());
  const triggerClient = new grpcPkg.swapd.trigger.v1.TriggerService(address, grpc.credentials.createInsecure());
  try {
    const quotes = follow(swapClient.WatchQuote({ quote: { inputMint: SOL, outputMint: DEMO.usdcMint.toBase58(), amount: "1000000" } }));
    const orders = follow(triggerClient.WatchTriggerOrders({ user: DEMO.wallet.toBase58() }));
    // Both streams are open and serving: the quote, and the orders' snapshot end.
    await within(Promise.all([quotes.firstMessage, orders.firstMessage]), 30_000, "first messages");
    expect(quotes.messages[0]).toMatchObject({ quote: { inputMint: SOL } });

    swapd.child.kill("SIGTERM");
    const [quoteStatus, orderStatus] = await within(Promise.all([quotes.status, orders.status]), 30_000, "stream statuses after SIGTERM");
    for (const status of [quoteStatus, orderStatus]) {
      expect(status.code).toBe(grpc.status.UNAVAILABLE);
      expect(status.details).toMatch(/shutting down.*reconnect/);
    }
    expect(await within(swapd.exited, 30_000, "exit")).toBe(0);
    expect(swapd.lines.some((l) => l["msg"] === "shutdown complete")).toBe(true);
    expect(swapd.lines.filter((l) => Number(l["level"]) >= 50)).toEqual([]);
    expect(swapd.stderr()).not.toMatch(/Premature close|Error/);
  } finally {
    swapClient.close();
    triggerClient.close();
  }
}, 240_000);
