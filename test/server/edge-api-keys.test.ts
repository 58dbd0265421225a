/**
 * API keys on the one port (cleartext), with real clients: grpc-js, Connect JSON and REST over
 * fetch, gRPC-web (connect-node), buf curl for reflection. No key / wrong key / right key in both
 * header forms; health stays open; /metrics and reflection follow PUBLIC_*; the keys file reloads.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { Code, ConnectError } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { ApiKeys } from "../../src/server/api-keys.js";
import type { RunningServer } from "../../src/server/server.js";
import { answerValidator } from "../fixtures/openapi-answers.js";
import { connectJson, grpcPkg, grpcSleep, grpcUnary, metadataOf, rest } from "./edge-clients.js";
import { slowClient, startTestServer, type LogCapture } from "./helpers.js";

const KEY_A = "swapd-test-key-alpha-0001";
const KEY_B = "swapd-test-key-bravo-0002";
const WRONG = "swapd-test-key-wrong-9999";
const fingerprint = (k: string) => createHash("sha256").update(k).digest("hex").slice(0, 8);
const run = promisify(execFile);

const okRoute = { method: "GET" as const, path: "/test/whoami", handler: () => ({ status: 200, body: { ok: true } }) };

describe("API keys (API_KEYS)", () => {
  let server: RunningServer;
  let logs: LogCapture;
  let grpcClient: grpc.Client;
  let health: any;
  let swap: any;

  beforeAll(async () => {
    ({ server, logs } = await startTestServer({ env: { API_KEYS: `${KEY_A}, ${KEY_B}` }, restRoutes: [okRoute] }));
    const target = `127.0.0.1:${server.port}`;
    grpcClient = new grpc.Client(target, grpc.credentials.createInsecure());
    health = new grpcPkg.grpc.health.v1.Health(target, grpc.credentials.createInsecure());
    swap = new grpcPkg.swapd.swap.v1.SwapService(target, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    grpcClient?.close();
    health?.close();
    swap?.close();
    await server?.close();
  });

  it("grpc-js: no key and a wrong key → UNAUTHENTICATED; the right key in x-api-key or authorization: Bearer → served", async () => {
    await expect(grpcSleep(grpcClient, 1)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: expect.stringContaining("x-api-key") });
    await expect(grpcSleep(grpcClient, 1, metadataOf({ "x-api-key": WRONG }))).rejects.toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
      details: "the API key is not valid",
    });
    await expect(grpcSleep(grpcClient, 1, metadataOf({ authorization: `Bearer ${WRONG}` }))).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(grpcSleep(grpcClient, 3, metadataOf({ "x-api-key": KEY_A }))).resolves.toMatchObject({ sleptMs: 3 });
    await expect(grpcSleep(grpcClient, 4, metadataOf({ authorization: `Bearer ${KEY_B}` }))).resolves.toMatchObject({ sleptMs: 4 });
    // A contract service: with a key the call reaches the (unimplemented) handler, without it does not.
    await expect(grpcUnary(swap, "SwapInstructions", {}, metadataOf({}))).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(grpcUnary(swap, "SwapInstructions", {}, metadataOf({ "x-api-key": KEY_B }))).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("grpc-js: the gRPC health service stays open without a key", async () => {
    await expect(grpcUnary(health, "Check", { service: "" })).resolves.toEqual({ status: "SERVING" });
  });

  it("Connect JSON (fetch): 401 unauthenticated without or with a wrong key, 200 with the right key in either header", async () => {
    const proc = "/swapdtest.v1.SlowService/Sleep";
    const none = await connectJson(fetch, server.url, proc, { ms: 1 });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: "unauthenticated" });
    const wrong = await connectJson(fetch, server.url, proc, { ms: 1 }, { "x-api-key": WRONG });
    expect([wrong.status, wrong.body.code]).toEqual([401, "unauthenticated"]);
    const bearerWrong = await connectJson(fetch, server.url, proc, { ms: 1 }, { authorization: `Bearer ${WRONG}` });
    expect(bearerWrong.status).toBe(401);
    const a = await connectJson(fetch, server.url, proc, { ms: 2 }, { "x-api-key": KEY_A });
    expect([a.status, a.body]).toEqual([200, { sleptMs: 2 }]);
    const b = await connectJson(fetch, server.url, proc, { ms: 5 }, { authorization: `bearer ${KEY_B}` });
    expect([b.status, b.body]).toEqual([200, { sleptMs: 5 }]);
  });

  it("gRPC-web (connect-node transport): UNAUTHENTICATED without a key, served with one", async () => {
    const noKey = slowClient(createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const err = await noKey.sleep({ ms: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unauthenticated);
    const wrong = await noKey.sleep({ ms: 1 }, { headers: { "x-api-key": WRONG } }).catch((e: unknown) => e);
    expect((wrong as ConnectError).code).toBe(Code.Unauthenticated);
    await expect(noKey.sleep({ ms: 6 }, { headers: { "x-api-key": KEY_A } })).resolves.toMatchObject({ sleptMs: 6 });
    await expect(noKey.sleep({ ms: 7 }, { headers: { authorization: `Bearer ${KEY_B}` } })).resolves.toMatchObject({ sleptMs: 7 });
  });

  it("REST: 401 with Jupiter's error body without or with a wrong key; the right key in either header reaches the route", async () => {
    const none = await rest(fetch, server.url, "GET", "/test/whoami");
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: expect.stringContaining("API key is required"), code: 401 });
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": WRONG });
    expect(wrong.body).toEqual({ error: "the API key is not valid", code: 401 });
    const bearerWrong = await rest(fetch, server.url, "GET", "/test/whoami", { authorization: `Bearer ${WRONG}` });
    expect(bearerWrong.status).toBe(401);
    // A key in another scheme is not a bearer token.
    const basic = await rest(fetch, server.url, "GET", "/test/whoami", { authorization: `Basic ${KEY_A}` });
    expect(basic.status).toBe(401);
    expect((await rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": KEY_A })).body).toEqual({ ok: true });
    expect((await rest(fetch, server.url, "GET", "/test/whoami", { authorization: `Bearer ${KEY_B}` })).body).toEqual({ ok: true });
    // A Jupiter REST path: refused before its handler without a key, passes the key check with one (no route is given here: 404).
    const body = { inputMint: "x" };
    expect((await rest(fetch, server.url, "POST", "/trigger/v1/createOrder", {}, body)).status).toBe(401);
    expect((await rest(fetch, server.url, "POST", "/trigger/v1/createOrder", { "x-api-key": KEY_A }, body)).status).toBe(404);

    // The API reference declares the key (either header) and the 401 of every operation; the real 401 fits it.
    const doc = (await rest(fetch, server.url, "GET", "/openapi.json", { "x-api-key": KEY_A })).body as Record<string, any>;
    expect(Object.keys(doc["components"]["securitySchemes"]).sort()).toEqual(["apiKey", "bearer"]);
    expect(doc["components"]["securitySchemes"]["apiKey"]).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(doc["paths"]["/test/whoami"]["get"]["responses"]["401"]).toBeDefined();
    expect(answerValidator(doc, { closed: true }).errors("GET", "/test/whoami", 401, none.body)).toEqual([]);
    expect(answerValidator(doc, { closed: true }).errors("GET", "/test/whoami", 401, { error: 1, code: 401 })).not.toEqual([]);
  });

  it("/healthz and /readyz stay open; /metrics needs a key (PUBLIC_METRICS defaults to false with keys)", async () => {
    expect((await rest(fetch, server.url, "GET", "/healthz")).status).toBe(200);
    expect((await rest(fetch, server.url, "GET", "/readyz")).status).toBe(200);
    expect((await rest(fetch, server.url, "GET", "/metrics")).status).toBe(401);
    const m = await rest(fetch, server.url, "GET", "/metrics", { "x-api-key": KEY_A });
    expect(m.status).toBe(200);
    expect(m.body).toContain("swapd_calls_total");
    // The refused calls were counted with their code.
    expect(m.body).toMatch(/swapd_calls_total\{procedure="\/swapdtest.v1.SlowService\/Sleep",kind="rpc",code="unauthenticated"\} [1-9]/);
  });

  it("reflection needs a key (PUBLIC_REFLECTION defaults to false with keys): buf curl --list-services", async () => {
    const denied = await run("node_modules/.bin/buf", ["curl", "--http2-prior-knowledge", "--list-services", server.url], { timeout: 20_000 }).catch(
      (e: { stderr: string }) => e,
    );
    expect(String(denied.stderr)).toMatch(/not authenticated|unauthenticated/i); // buf words the UNAUTHENTICATED status its own way
    const { stdout } = await run(
      "node_modules/.bin/buf",
      ["curl", "--http2-prior-knowledge", "--reflect-header", `x-api-key: ${KEY_A}`, "--list-services", server.url],
      {
        timeout: 20_000,
      },
    );
    expect(stdout).toContain("swapd.swap.v1.SwapService");
  });

  it("logs name callers by fingerprint and never contain a key", async () => {
    await grpcSleep(grpcClient, 1, metadataOf({ "x-api-key": KEY_B }));
    await rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": WRONG });
    await new Promise((r) => setTimeout(r, 50));
    const text = JSON.stringify(logs.lines);
    for (const k of [KEY_A, KEY_B, WRONG]) expect(text).not.toContain(k);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ procedure: "/swapdtest.v1.SlowService/Sleep", code: "ok", caller: { key: fingerprint(KEY_B) } }),
    );
    expect(logs.lines).toContainEqual(expect.objectContaining({ procedure: "GET /test/whoami", status: 401, caller: { wrongKey: fingerprint(WRONG) } }));
  });
});

describe("API keys: PUBLIC_METRICS / PUBLIC_REFLECTION and no keys", () => {
  it("PUBLIC_METRICS=true opens /metrics with keys; without keys everything is open as before", async () => {
    const { server } = await startTestServer({ env: { API_KEYS: KEY_A, PUBLIC_METRICS: "true", PUBLIC_REFLECTION: "yes" } });
    try {
      expect((await rest(fetch, server.url, "GET", "/metrics")).status).toBe(200);
      const { stdout } = await run("node_modules/.bin/buf", ["curl", "--protocol", "connect", "--list-services", server.url], { timeout: 20_000 });
      expect(stdout).toContain("swapd.trigger.v1.TriggerService");
      expect((await connectJson(fetch, server.url, "/swapdtest.v1.SlowService/Sleep", { ms: 1 })).status).toBe(401);
    } finally {
      await server.close();
    }
    const open = await startTestServer();
    try {
      expect((await rest(fetch, open.server.url, "GET", "/metrics")).status).toBe(200);
      expect((await connectJson(fetch, open.server.url, "/swapdtest.v1.SlowService/Sleep", { ms: 1 })).body).toEqual({ sleptMs: 1 });
    } finally {
      await open.server.close();
    }
  });
});

describe("API keys file (API_KEYS_FILE)", () => {
  it("an unreadable or invalid file stops the start with a message naming the setting (and the line)", async () => {
    await expect(startTestServer({ env: { API_KEYS_FILE: "/nonexistent/swapd-keys" } })).rejects.toThrow(
      /^API_KEYS_FILE: cannot read \/nonexistent\/swapd-keys/,
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-keys-"));
    fs.writeFileSync(path.join(dir, "keys"), `${KEY_A}\nshort\n`);
    try {
      const err = await startTestServer({ env: { API_KEYS_FILE: path.join(dir, "keys") } }).catch((e: Error) => e);
      expect((err as Error).message).toMatch(/^API_KEYS_FILE .*keys: line 2: each key must be 8–256/);
      expect((err as Error).message).not.toContain("short");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a file replaced right after it was read (before any poll) is still seen as changed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-keys-"));
    const file = path.join(dir, "keys");
    fs.writeFileSync(file, `${KEY_A}\n`);
    const keys = new ApiKeys({ keys: [], file, logger: pino({ level: "silent" }), pollMs: 20 });
    try {
      // In the same turn as the read: a watcher whose baseline is its own first look would take this file as the original.
      fs.writeFileSync(`${file}.new`, `${KEY_B}\n`);
      fs.renameSync(`${file}.new`, file);
      expect(keys.check(KEY_B).kind).toBe("wrong");
      for (let i = 0; i < 100 && keys.check(KEY_B).kind !== "valid"; i++) await new Promise((r) => setTimeout(r, 20));
      expect([keys.check(KEY_B).kind, keys.check(KEY_A).kind]).toEqual(["valid", "wrong"]);
    } finally {
      keys.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is read at start and reloaded when it changes; a broken file keeps the previous keys", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-keys-"));
    const file = path.join(dir, "keys");
    fs.writeFileSync(file, `# production keys\n${KEY_A}\n\n`);
    const { server, logs } = await startTestServer({ env: { API_KEYS_FILE: file }, restRoutes: [okRoute] });
    const status = async (key: string) => (await rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": key })).status;
    const until = async (cond: () => Promise<boolean>) => {
      for (const deadline = Date.now() + 8000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) if (await cond()) return;
      throw new Error("condition not reached in 8 s");
    };
    try {
      expect([await status(KEY_A), await status(KEY_B)]).toEqual([200, 401]);
      // Replace the file atomically (as secret managers do): B in, A out.
      fs.writeFileSync(`${file}.new`, `${KEY_B}\n`);
      fs.renameSync(`${file}.new`, file);
      await until(async () => (await status(KEY_B)) === 200);
      expect(await status(KEY_A)).toBe(401);
      // A broken file (a key with a space) is refused with a log line naming the line; B stays valid.
      fs.writeFileSync(file, `${KEY_B}\nnot a key\n`);
      await until(async () => logs.lines.some((l) => typeof l.error === "string" && l.error.includes("line 2")));
      expect(await status(KEY_B)).toBe(200);
      expect(JSON.stringify(logs.lines)).not.toContain(KEY_B);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
