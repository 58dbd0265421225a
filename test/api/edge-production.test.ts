/**
 * The production configuration end to end: the real SwapService on the localnet with the demo pool,
 * served with API keys, TLS and rate limits, called by Jupiter's own client (@jup-ag/api, its
 * `x-api-key` header, over HTTPS) and by grpc-js over TLS.
 */
import fs from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { Configuration, ResponseError, SwapApi } from "@jup-ag/api";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasOpenssl, makeTestCa, type TestCa } from "../fixtures/test-ca.js";
import { grpcPkg, grpcUnary, metadataOf } from "../server/edge-clients.js";
import { demoSolToUsdc, startSwapStack, toProtoJson, type SwapStack } from "./swap-stack.js";

const KEY = "production-test-key-0001";
const OPENSSL = hasOpenssl();

describe.skipIf(!OPENSSL)("production configuration: keys + TLS + rate limits on the whole service", () => {
  let ca: TestCa;
  let stack: SwapStack;
  let agent: Agent;

  beforeAll(async () => {
    ca = makeTestCa("prod");
    const cert = ca.issue("server", { cn: "localhost", server: true });
    stack = await startSwapStack({
      serverEnv: { API_KEYS: KEY, TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile, RATE_LIMIT_RPS: "50", RATE_LIMIT_BURST: "100" },
    });
    agent = new Agent({ connect: { ca: ca.ca } });
  });
  afterAll(async () => {
    await agent?.close();
    await stack?.close();
    if (ca) fs.rmSync(ca.dir, { recursive: true, force: true });
  });

  const jupiter = (headers: Record<string, string>) =>
    // What createJupiterApiClient({ apiKey }) builds, with our base path and the test CA.
    new SwapApi(
      new Configuration({
        basePath: `${stack.server.url}/swap/v1`,
        headers,
        fetchApi: ((url: string, init: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: agent })) as never,
      }),
    );

  it("@jup-ag/api over HTTPS: swap-instructions with the key; 401 without it", async () => {
    const res = await jupiter({ "x-api-key": KEY }).swapInstructionsPost({ swapRequest: demoSolToUsdc() as never });
    expect(res.swapInstruction.programId).toBe("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");
    const err = await jupiter({})
      .swapInstructionsPost({ swapRequest: demoSolToUsdc() as never })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as ResponseError).response.status).toBe(401);
    expect(await (err as ResponseError).response.json()).toMatchObject({ code: 401 });
  });

  it("grpc-js over TLS: SwapInstructions with the key in metadata; UNAUTHENTICATED without", async () => {
    const swap = new grpcPkg.swapd.swap.v1.SwapService(`127.0.0.1:${stack.server.port}`, grpc.credentials.createSsl(ca.ca));
    try {
      const res = await grpcUnary<any>(swap, "SwapInstructions", toProtoJson(demoSolToUsdc()), metadataOf({ authorization: `Bearer ${KEY}` }), 15_000);
      expect(res.swapInstruction.programId).toBe("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");
      await expect(grpcUnary(swap, "SwapInstructions", toProtoJson(demoSolToUsdc()), metadataOf({}), 15_000)).rejects.toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
      });
    } finally {
      swap.close();
    }
  });

  it("probes stay open over TLS without a key, metrics need one and count the refused calls", async () => {
    const get = (p: string, headers: Record<string, string> = {}) => undiciFetch(`${stack.server.url}${p}`, { dispatcher: agent, headers });
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/readyz")).status).toBe(200);
    expect((await get("/metrics")).status).toBe(401);
    const metrics = await (await get("/metrics", { "x-api-key": KEY })).text();
    expect(metrics).toMatch(/swapd_calls_total\{procedure="POST \/swap\/v1\/swap-instructions",kind="rest",code="401"\} [1-9]/);
  });
});
