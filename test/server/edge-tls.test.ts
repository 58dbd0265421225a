/**
 * TLS on the one port, with a CA made in the test (openssl): grpc-js with the root certificate,
 * Connect JSON and REST over HTTPS (undici, HTTP/1.1 and HTTP/2), gRPC-web over HTTPS, API keys
 * over TLS; cleartext refused; the certificate reloaded when its files change; mutual TLS with the
 * client's subject in the log line.
 */
import fs from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeHealth } from "../../src/server/health-probe.js";
import type { RunningServer } from "../../src/server/server.js";
import { hasOpenssl, makeTestCa, type IssuedCert, type TestCa } from "../fixtures/test-ca.js";
import { connectJson, grpcPkg, grpcSleep, grpcUnary, metadataOf, rest } from "./edge-clients.js";
import { slowClient, startTestServer, type LogCapture } from "./helpers.js";

const KEY = "tls-test-key-0001";
const OPENSSL = hasOpenssl();
const okRoute = { method: "GET" as const, path: "/test/whoami", handler: () => ({ status: 200, body: { ok: true } }) };

/** The container's health check (src/healthcheck.ts runs exactly this) with `env`; resolves its exit code. */
const healthcheck = (env: Record<string, string>) => probeHealth(env);

function httpsFetch(agent: Agent) {
  return (url: string, init?: any) => undiciFetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>;
}

describe.skipIf(!OPENSSL)("TLS on the one port", () => {
  let ca: TestCa;
  let serverCert: IssuedCert;
  let server: RunningServer;
  let logs: LogCapture;
  let h1: Agent;
  let h2: Agent;

  beforeAll(async () => {
    ca = makeTestCa("swapd");
    serverCert = ca.issue("server", { cn: "localhost", server: true });
    ({ server, logs } = await startTestServer({
      env: { TLS_CERT_FILE: serverCert.certFile, TLS_KEY_FILE: serverCert.keyFile, API_KEYS: KEY },
      restRoutes: [okRoute],
    }));
    h1 = new Agent({ connect: { ca: ca.ca } });
    h2 = new Agent({ connect: { ca: ca.ca }, allowH2: true });
  });
  afterAll(async () => {
    await h1?.close();
    await h2?.close();
    await server?.close();
    if (ca) fs.rmSync(ca.dir, { recursive: true, force: true });
  });

  it("the server's URL is https", () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("grpc-js with the root certificate: health open, UNAUTHENTICATED without a key, served with one", async () => {
    const creds = grpc.credentials.createSsl(ca.ca);
    const target = `127.0.0.1:${server.port}`;
    const client = new grpc.Client(target, creds);
    const health = new grpcPkg.grpc.health.v1.Health(target, creds);
    try {
      await expect(grpcUnary(health, "Check", { service: "" })).resolves.toEqual({ status: "SERVING" });
      await expect(grpcSleep(client, 1)).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      await expect(grpcSleep(client, 1, metadataOf({ "x-api-key": "tls-test-key-wrong" }))).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      await expect(grpcSleep(client, 2, metadataOf({ "x-api-key": KEY }))).resolves.toMatchObject({ sleptMs: 2 });
      await expect(grpcSleep(client, 3, metadataOf({ authorization: `Bearer ${KEY}` }))).resolves.toMatchObject({ sleptMs: 3 });
    } finally {
      client.close();
      health.close();
    }
  });

  it("Connect JSON and REST over HTTPS, HTTP/1.1 and HTTP/2 (ALPN), with and without the key", async () => {
    for (const [agent, version] of [
      [h1, "1.1"],
      [h2, "2.0"],
    ] as const) {
      const f = httpsFetch(agent);
      const none = await connectJson(f, server.url, "/swapdtest.v1.SlowService/Sleep", { ms: 1 });
      expect([none.status, none.body.code]).toEqual([401, "unauthenticated"]);
      const id = `tls-${version}`;
      const ok = await connectJson(f, server.url, "/swapdtest.v1.SlowService/Sleep", { ms: 4 }, { "x-api-key": KEY, "x-request-id": id });
      expect([ok.status, ok.body]).toEqual([200, { sleptMs: 4 }]);
      expect((await rest(f, server.url, "GET", "/test/whoami", { authorization: `Bearer ${KEY}` })).body).toEqual({ ok: true });
      expect((await rest(f, server.url, "GET", "/test/whoami")).status).toBe(401);
      expect((await rest(f, server.url, "GET", "/healthz")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
      // The server saw the call on the negotiated HTTP version.
      expect(logs.lines).toContainEqual(expect.objectContaining({ requestId: id, httpVersion: version, code: "ok" }));
    }
  });

  it("gRPC-web and Connect (connect-node transports) over HTTPS", async () => {
    const web = slowClient(createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1", nodeOptions: { ca: ca.ca } }));
    await expect(web.sleep({ ms: 5 }, { headers: { "x-api-key": KEY } })).resolves.toMatchObject({ sleptMs: 5 });
    await expect(web.sleep({ ms: 5 })).rejects.toMatchObject({ code: 16 });
    const connectH2 = slowClient(createConnectTransport({ baseUrl: server.url, httpVersion: "2", nodeOptions: { ca: ca.ca } }));
    await expect(connectH2.sleep({ ms: 6 }, { headers: { authorization: `Bearer ${KEY}` } })).resolves.toMatchObject({ sleptMs: 6 });
  });

  it("cleartext is not served on the TLS port, and a client that does not trust the CA is refused", async () => {
    await expect(fetch(`http://127.0.0.1:${server.port}/healthz`)).rejects.toThrow();
    const insecure = new grpcPkg.grpc.health.v1.Health(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    try {
      await expect(grpcUnary(insecure, "Check", { service: "" }, undefined, 3000)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    } finally {
      insecure.close();
    }
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow(); // Node's own trust store lacks the test CA
  });

  it("the container health check speaks TLS when TLS_CERT_FILE is set (and fails in cleartext)", async () => {
    expect(await healthcheck({ PORT: String(server.port), TLS_CERT_FILE: serverCert.certFile })).toBe(0);
    expect(await healthcheck({ PORT: String(server.port), TLS_CERT_FILE: "" })).toBe(1);
  });
});

describe.skipIf(!OPENSSL)("TLS certificate reload", () => {
  it("new certificate files are picked up without a restart", async () => {
    const first = makeTestCa("first");
    const second = makeTestCa("second", first.dir);
    const cert1 = first.issue("server1", { cn: "localhost", server: true });
    const cert2 = second.issue("server2", { cn: "localhost", server: true });
    const certFile = path.join(first.dir, "live.pem");
    const keyFile = path.join(first.dir, "live.key");
    fs.copyFileSync(cert1.certFile, certFile);
    fs.copyFileSync(cert1.keyFile, keyFile);
    const { server, logs } = await startTestServer({ env: { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile } });
    const trustFirst = new Agent({ connect: { ca: first.ca } });
    const trustSecond = new Agent({ connect: { ca: second.ca } });
    const works = (agent: Agent) =>
      undiciFetch(`${server.url}/healthz`, { dispatcher: agent, headers: { connection: "close" } }).then(
        (r) => r.status === 200,
        () => false,
      );
    try {
      expect([await works(trustFirst), await works(trustSecond)]).toEqual([true, false]);
      // A half-written replacement (a key without its certificate) is refused and the old one stays.
      fs.writeFileSync(certFile, "not a certificate\n");
      for (let i = 0; i < 80 && !logs.lines.some((l) => l.msg === "TLS certificate not reloaded; the previous one stays in use"); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await works(new Agent({ connect: { ca: first.ca } }))).toBe(true);
      // Key first, then certificate (renamed into place, as secret managers do).
      fs.copyFileSync(cert2.keyFile, `${keyFile}.new`);
      fs.renameSync(`${keyFile}.new`, keyFile);
      fs.copyFileSync(cert2.certFile, `${certFile}.new`);
      fs.renameSync(`${certFile}.new`, certFile);
      let switched = false;
      for (let i = 0; i < 80 && !switched; i++) {
        await new Promise((r) => setTimeout(r, 100));
        switched = await works(new Agent({ connect: { ca: second.ca } }));
      }
      expect(switched).toBe(true);
      expect(await works(new Agent({ connect: { ca: first.ca } }))).toBe(false);
    } finally {
      await trustFirst.close();
      await trustSecond.close();
      await server.close();
      fs.rmSync(first.dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!OPENSSL)("mutual TLS (TLS_CLIENT_CA_FILE)", () => {
  it("a client certificate signed by the client CA is required, and its subject is logged", async () => {
    const ca = makeTestCa("mtls");
    const clients = makeTestCa("clients", ca.dir);
    const serverCert = ca.issue("server", { cn: "localhost", server: true });
    const bot = clients.issue("bot", { cn: "trading-bot-1" });
    const stranger = makeTestCa("stranger", ca.dir).issue("stranger", { cn: "stranger" });
    const { server, logs } = await startTestServer({
      env: { TLS_CERT_FILE: serverCert.certFile, TLS_KEY_FILE: serverCert.keyFile, TLS_CLIENT_CA_FILE: clients.caFile },
    });
    const target = `127.0.0.1:${server.port}`;
    const withCert = new grpc.Client(target, grpc.credentials.createSsl(ca.ca, bot.key, bot.cert));
    const withoutCert = new grpc.Client(target, grpc.credentials.createSsl(ca.ca));
    const wrongCert = new grpc.Client(target, grpc.credentials.createSsl(ca.ca, stranger.key, stranger.cert));
    const agentWith = new Agent({ connect: { ca: ca.ca, key: bot.key, cert: bot.cert } });
    const agentWithout = new Agent({ connect: { ca: ca.ca } });
    try {
      await expect(grpcSleep(withCert, 2, metadataOf({ "x-request-id": "mtls-grpc" }))).resolves.toMatchObject({ sleptMs: 2 });
      await expect(grpcSleep(withoutCert, 1)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      await expect(grpcSleep(wrongCert, 1)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      expect((await connectJson(httpsFetch(agentWith), server.url, "/swapdtest.v1.SlowService/Sleep", { ms: 3 })).body).toEqual({ sleptMs: 3 });
      await expect(undiciFetch(`${server.url}/healthz`, { dispatcher: agentWithout })).rejects.toThrow();
      // Refused client certificates are logged for the operator (without one, and signed by another CA).
      await new Promise((r) => setTimeout(r, 50));
      const refused = logs.lines.filter((l) => l.msg === "TLS handshake refused: client certificate");
      expect(refused.length).toBeGreaterThanOrEqual(2);
      expect(refused[0]).toMatchObject({ address: "127.0.0.1", code: expect.any(String) });
      const probe = { PORT: String(server.port), TLS_CERT_FILE: serverCert.certFile };
      expect(await healthcheck({ ...probe, HEALTHCHECK_CLIENT_CERT_FILE: bot.certFile, HEALTHCHECK_CLIENT_KEY_FILE: bot.keyFile })).toBe(0);
      await new Promise((r) => setTimeout(r, 20));
      expect(logs.lines).toContainEqual(
        expect.objectContaining({ requestId: "mtls-grpc", code: "ok", caller: { clientCert: expect.stringContaining("CN=trading-bot-1") } }),
      );
    } finally {
      withCert.close();
      withoutCert.close();
      wrongCert.close();
      await agentWith.close();
      await agentWithout.close();
      await server.close();
      fs.rmSync(ca.dir, { recursive: true, force: true });
    }
  });

  it("unreadable or mismatched certificate files stop the start with a message naming the setting", async () => {
    await expect(startTestServer({ env: { TLS_CERT_FILE: "/nonexistent/cert.pem", TLS_KEY_FILE: "/nonexistent/key.pem" } })).rejects.toThrow(
      /^TLS_CERT_FILE: cannot read \/nonexistent\/cert.pem/,
    );
    const ca = makeTestCa("mismatch");
    const a = ca.issue("a", { cn: "localhost", server: true });
    const b = ca.issue("b", { cn: "localhost", server: true });
    try {
      await expect(startTestServer({ env: { TLS_CERT_FILE: a.certFile, TLS_KEY_FILE: b.keyFile } })).rejects.toThrow(/^TLS_CERT_FILE \/ TLS_KEY_FILE: /);
    } finally {
      fs.rmSync(ca.dir, { recursive: true, force: true });
    }
  });
});
