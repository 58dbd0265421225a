/** gRPC server reflection (v1 and v1alpha) through `buf curl`, without a schema. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "./helpers.js";

const run = promisify(execFile);
const BUF = "node_modules/.bin/buf";
let server: RunningServer;

beforeAll(async () => {
  ({ server } = await startTestServer());
});
afterAll(async () => {
  await server?.close();
});

async function buf(...args: string[]): Promise<string> {
  const { stdout } = await run(BUF, ["curl", ...args], { timeout: 20_000 });
  return stdout;
}

describe("reflection", () => {
  it("buf curl --list-services (gRPC over h2c, reflection v1) lists the swapd services and Health", async () => {
    const out = (await buf("--http2-prior-knowledge", "--list-services", server.url)).split("\n");
    expect(out).toEqual(expect.arrayContaining(["swapd.swap.v1.SwapService", "swapd.trigger.v1.TriggerService", "grpc.health.v1.Health"]));
  });

  it("reflection v1alpha and reflection over HTTP/1.1 (Connect protocol) work too", async () => {
    const alpha = await buf("--http2-prior-knowledge", "--reflect-protocol", "grpc-v1alpha", "--list-services", server.url);
    expect(alpha).toContain("swapd.trigger.v1.TriggerService");
    const h1 = await buf("--protocol", "connect", "--list-services", server.url);
    expect(h1).toContain("swapd.swap.v1.SwapService");
  });

  it("--list-methods lists every method, e.g. all of TriggerService", async () => {
    const out = (await buf("--http2-prior-knowledge", "--list-methods", server.url)).split("\n");
    expect(out).toEqual(
      expect.arrayContaining([
        "swapd.trigger.v1.TriggerService/CreateOrder",
        "swapd.trigger.v1.TriggerService/CancelOrder",
        "swapd.trigger.v1.TriggerService/CancelOrders",
        "swapd.trigger.v1.TriggerService/Execute",
        "swapd.trigger.v1.TriggerService/GetTriggerOrders",
        "swapd.trigger.v1.TriggerService/WatchTriggerOrders",
      ]),
    );
  });

  it("reflection calls are counted under their procedure in /metrics, not as unknown", async () => {
    await buf("--http2-prior-knowledge", "--list-services", server.url);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/swapd_calls_total\{[^}]*procedure="\/grpc\.reflection\.v1\.ServerReflection\/ServerReflectionInfo"[^}]*\} [1-9]/);
    expect(metrics).not.toMatch(/swapd_calls_total\{[^}]*procedure="unknown"/);
  });

  it("a method's schema comes from reflection: buf curl encodes a request without --schema", async () => {
    // Health Check through reflection only.
    const out = await buf("--http2-prior-knowledge", "-d", '{"service":""}', `${server.url}/grpc.health.v1.Health/Check`);
    expect(JSON.parse(out)).toEqual({ status: "SERVING" });
    // A swapd method with nested messages, oneofs and uint64 fields is encodable from the reflected schema;
    // the server answers UNIMPLEMENTED (buf curl exits non-zero and prints the error).
    const err = await buf(
      "--http2-prior-knowledge",
      "-d",
      JSON.stringify({
        userPublicKey: "u",
        quoteResponse: { inAmount: "100", swapMode: "SWAP_MODE_EXACT_IN", routePlan: [{ swapInfo: { ammKey: "a" }, percent: 100 }] },
        prioritizationFeeLamports: { priorityLevelWithMaxLamports: { priorityLevel: "PRIORITY_LEVEL_VERY_HIGH", maxLamports: "1000" } },
      }),
      `${server.url}/swapd.swap.v1.SwapService/SwapInstructions`,
    ).then(
      () => "",
      (e: { stderr: string }) => e.stderr,
    );
    expect(err).toMatch(/unimplemented/i);
    // An unknown field is rejected by buf curl itself, which proves it has the real schema.
    const bad = await buf("--http2-prior-knowledge", "-d", '{"noSuchField":1}', `${server.url}/swapd.swap.v1.SwapService/SwapInstructions`).then(
      () => "",
      (e: { stderr: string }) => e.stderr,
    );
    expect(bad).toMatch(/noSuchField/);
  });
});
