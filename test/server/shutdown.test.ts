/**
 * SIGTERM while calls are in flight: they complete, new connections are refused, the process
 * exits 0. Runs the real wiring (buildApp + installSignalHandlers) in a child process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as S } from "../../src/gen/grpc/health/v1/health_pb.js";
import { SleepRequest, SleepResponse, slowClient, startTestServer } from "./helpers.js";

/** A child process starts the whole service (embedded chain, fresh PGlite): slow on a busy machine. */
const CHILD_TEST_TIMEOUT_MS = 90_000;

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
});

interface Child {
  url: string;
  port: number;
  exit: Promise<number | null>;
  stderr: () => string;
  /** Resolves once `n` Sleep calls have reached their handler. */
  sleeping: (n: number) => Promise<void>;
}

function startChild(env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, ["--import", "tsx", "test/server/fixtures/serve-slow.ts"], {
    // debug: each call's log line (read below) is at debug.
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "debug", DATA_DIR: mkdtempSync(join(tmpdir(), "swapd-shutdown-")), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let err = "";
  proc.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  let out = "";
  const waiters: { n: number; resolve: () => void }[] = [];
  const sleeping = (n: number) =>
    new Promise<void>((resolve) => {
      waiters.push({ n, resolve });
      proc.stdout.emit("check");
    });
  proc.stdout.on("check", () => {
    const count = out.split("\n").filter((l) => l === "SLEEPING").length;
    for (const w of waiters.filter((w) => count >= w.n)) w.resolve();
  });
  return new Promise((resolve, reject) => {
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      proc.stdout.emit("check");
      const m = /READY (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve({ url: m[1], port: Number(new URL(m[1]).port), exit, stderr: () => err, sleeping });
    });
    proc.on("exit", (code) => reject(new Error(`fixture exited ${code}: ${err}`)));
  });
}

function grpcSleep(port: number, ms: number): Promise<{ sleptMs: number }> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      "/swapdtest.v1.SlowService/Sleep",
      (m: unknown) => Buffer.from(toBinary(SleepRequest, m as never)),
      (b: Buffer) => fromBinary(SleepResponse, b) as unknown as { sleptMs: number },
      create(SleepRequest, { ms }),
      (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res!);
      },
    );
  });
}

describe("graceful shutdown", () => {
  it(
    "SIGTERM: in-flight calls (gRPC, Connect h1, gRPC over connect-es) complete, then exit 0",
    async () => {
      const { url, port, exit, stderr, sleeping } = await startChild({ SHUTDOWN_TIMEOUT_MS: "10000" });
      const calls = [
        grpcSleep(port, 1500),
        slowClient(createConnectTransport({ baseUrl: url, httpVersion: "1.1" })).sleep({ ms: 1500 }),
        slowClient(createGrpcTransport({ baseUrl: url })).sleep({ ms: 1500 }),
      ];
      await sleeping(3); // the calls are in the handlers now
      const t0 = Date.now();
      child!.kill("SIGTERM");
      // New connections are refused soon after the signal (polled, bounded: the child may take a while to see it on a loaded machine).
      let refused = false;
      for (const deadline = Date.now() + 8_000; !refused && Date.now() < deadline;) {
        refused = await fetch(`${url}/healthz`).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((r) => setTimeout(r, 25));
      }
      expect(refused).toBe(true);
      const results = await Promise.all(calls);
      expect(results.map((r) => r.sleptMs)).toEqual([1500, 1500, 1500]);
      expect(await exit).toBe(0);
      // Exited because the calls finished, not because SHUTDOWN_TIMEOUT_MS (10 s) ran out.
      expect(Date.now() - t0).toBeLessThan(10_000);
      const logs = stderr()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logs.filter((l) => l.procedure === "/swapdtest.v1.SlowService/Sleep" && l.code === "ok")).toHaveLength(3);
      expect(logs.map((l) => l.msg)).toEqual(expect.arrayContaining(["swapd listening", "shutting down", "server closed", "shutdown complete"]));
    },
    CHILD_TEST_TIMEOUT_MS,
  );

  it(
    "SIGTERM: a call that outlives SHUTDOWN_TIMEOUT_MS is cut, and the process still exits 0",
    async () => {
      const { port, exit, sleeping } = await startChild({ SHUTDOWN_TIMEOUT_MS: "300" });
      const call = grpcSleep(port, 5000).then(
        () => "completed",
        (e: grpc.ServiceError) => e.code,
      );
      await sleeping(1);
      const t0 = Date.now();
      child!.kill("SIGTERM");
      expect(await exit).toBe(0);
      // Cut by the timeout, well before the 5 s call would have finished.
      expect(Date.now() - t0).toBeLessThan(4500);
      expect(await call).toBe(grpc.status.UNAVAILABLE);
    },
    CHILD_TEST_TIMEOUT_MS,
  );

  it("close(): health watchers see NOT_SERVING, their streams end, and the drain does not wait for them", async () => {
    const { server } = await startTestServer();
    const health = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
    const seen: S[] = [];
    const watching = (async () => {
      for await (const m of health.watch({ service: "" })) {
        seen.push(m.status);
        if (seen.length === 1) void server.close();
      }
    })();
    const t0 = Date.now();
    await watching;
    expect(seen).toEqual([S.SERVING, S.NOT_SERVING]);
    await server.close();
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
