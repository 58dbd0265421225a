/** The extension points later work plugs into: services, REST routes, readiness, logs. */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { describe, expect, it } from "vitest";
import { SwapInstructionsResponseSchema, SwapService } from "../../src/gen/swapd/swap/v1/swap_pb.js";
import { buildApp } from "../../src/app/build-app.js";
import { createLogger } from "../../src/server/logger.js";
import { restError, RestError } from "../../src/server/rest.js";
import { callInfoKey } from "../../src/server/server.js";
import { LogCapture, startTestServer, testConfig } from "./helpers.js";

describe("extension points", () => {
  it("services, REST routes and readiness checks plug in; request ids reach handlers", async () => {
    let seenRequestId: string | undefined;
    const { server, logs } = await startTestServer({
      services: {
        swap: {
          swapInstructions(req, ctx) {
            seenRequestId = ctx.values.get(callInfoKey)?.requestId;
            if (!req.userPublicKey) throw new ConnectError("userPublicKey: required", Code.InvalidArgument);
            return create(SwapInstructionsResponseSchema, { computeUnitLimit: 1_400_000, addressLookupTableAddresses: ["alt"] });
          },
        },
      },
      restRoutes: [
        {
          method: "POST",
          path: "/swap/v1/swap-instructions",
          handler: (req) => {
            const body = req.body as { userPublicKey?: string } | undefined;
            if (!body?.userPublicKey) throw new RestError(400, "userPublicKey: required", { errorCode: "INVALID_REQUEST" });
            return { status: 200, body: { echo: body.userPublicKey, big: 2n ** 64n - 1n } };
          },
        },
        { method: "GET", path: "/trigger/v1/getTriggerOrders", handler: (req) => restError(400, `bad user ${req.query.get("user")}`) },
      ],
      readiness: [
        { name: "chain", check: async () => undefined },
        { name: "store", check: async () => Promise.reject(new Error("database unreachable")) },
      ],
    });
    try {
      const swap = createClient(SwapService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
      const res = await swap.swapInstructions({ userPublicKey: "u" }, { headers: { "x-request-id": "abc-123" } });
      expect(res.computeUnitLimit).toBe(1_400_000);
      expect(seenRequestId).toBe("abc-123");
      await expect(swap.swapInstructions({})).rejects.toMatchObject({ code: Code.InvalidArgument });
      // Connect JSON responses carry every field, like Jupiter's JSON (empty arrays, zero amounts).
      const json = await (
        await fetch(`${server.url}/swapd.swap.v1.SwapService/SwapInstructions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"userPublicKey":"u"}',
        })
      ).json();
      expect(json).toMatchObject({
        computeBudgetInstructions: [],
        setupInstructions: [],
        otherInstructions: [],
        addressLookupTableAddresses: ["alt"],
        prioritizationFeeLamports: "0",
        computeUnitLimit: 1400000,
      });

      const ok = await fetch(`${server.url}/swap/v1/swap-instructions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"userPublicKey":"u"}',
      });
      expect(await ok.json()).toEqual({ echo: "u", big: "18446744073709551615" });
      const bad = await fetch(`${server.url}/swap/v1/swap-instructions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: "userPublicKey: required", errorCode: "INVALID_REQUEST", code: 400 });
      const g = await fetch(`${server.url}/trigger/v1/getTriggerOrders?user=zz`);
      expect(await g.json()).toEqual({ error: "bad user zz", code: 400 });
      // A path no route was given for is unknown.
      expect((await fetch(`${server.url}/trigger/v1/execute`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(
        404,
      );

      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        status: "not ready",
        checks: { chain: { ok: true }, store: { ok: false, error: "database unreachable" } },
      });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

      const line = logs.lines.find((l) => l.requestId === "abc-123");
      expect(line).toMatchObject({ procedure: "/swapd.swap.v1.SwapService/SwapInstructions", code: "ok", kind: "rpc", protocol: "connect" });
      const invalid = logs.lines.find((l) => l.procedure === "/swapd.swap.v1.SwapService/SwapInstructions" && l.code === "invalid_argument");
      expect(invalid).toBeDefined();
    } finally {
      await server.close();
    }
  });

  it("a port taken is refused before anything starts", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const logs = new LogCapture();
    const port = (taken.address() as AddressInfo).port;
    const config = testConfig({ PORT: String(port), SOLANA_RPC_URL: "http://127.0.0.1:9/", DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" });
    try {
      await expect(buildApp(config, { logger: createLogger("info", logs) })).rejects.toThrow(`PORT: 127.0.0.1:${port} is already in use`);
      expect(logs.lines).toEqual([]); // nothing opened, so nothing to stop
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("a start that fails midway (a database that does not exist) stops what it had started", async () => {
    const logs = new LogCapture();
    const config = testConfig({ SOLANA_RPC_URL: "http://127.0.0.1:9/", DATABASE_URL: "postgres://postgres@127.0.0.1:5432/swapd_no_such_database" });
    await expect(buildApp(config, { logger: createLogger("info", logs) })).rejects.toThrow(/swapd_no_such_database|database/i);
    expect(logs.lines.filter((l) => l.msg === "shutting down")).toEqual([expect.objectContaining({ reason: "startup failed" })]);
    expect(logs.lines.some((l) => l.msg === "shutdown complete")).toBe(true);
  });

  it("startup logs one line with address, chain and database; secrets are redacted", async () => {
    const logs = new LogCapture();
    const config = testConfig({
      // trust auth ignores the password; a real database, so the store opens
      SOLANA_RPC_URL: "https://user:pw@rpc.example.com/?api-key=topsecret",
      DATABASE_URL: "postgres://postgres:hunter2@127.0.0.1:5432/test",
    });
    const service = await buildApp(config, { logger: createLogger("info", logs) });
    try {
      const start = logs.lines.filter((l) => l.msg === "swapd listening");
      expect(start).toHaveLength(1);
      expect(start[0]).toMatchObject({ address: service.server.url, chain: expect.stringContaining("rpc.example.com") });
      expect(start[0].database).toMatch(/^postgres /);
      const all = JSON.stringify(logs.lines);
      expect(all).not.toContain("topsecret");
      expect(all).not.toContain("hunter2");
      expect(all).not.toContain(":pw@");
    } finally {
      await service.shutdown.run("test");
    }
  });
});
