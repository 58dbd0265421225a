/**
 * Real failures of SwapInstructions, one answer on every protocol: the same request over grpc-js,
 * Connect JSON and Jupiter's REST path gets the status of its code on each and the same message
 * (REST: Jupiter's body; server-side failures read "RPC client error: <message>", Jupiter's text).
 * Codes and statuses are written out from the gRPC and Connect specs and Jupiter's error codes.
 */
import type * as grpc from "@grpc/grpc-js";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoSolToUsdc, startSwapStack, toProtoJson } from "./swap-stack.js";
import type { SwapStack } from "./swap-stack.js";

type Req = Record<string, any>;

interface Answers {
  readonly grpc: { readonly code: number; readonly details: string };
  readonly connect: { readonly status: number; readonly body: any };
  readonly rest: { readonly status: number; readonly body: any };
}

async function askEveryProtocol(stack: SwapStack, request: Req): Promise<Answers> {
  const grpcError = await stack.grpc(toProtoJson(request)).then(
    () => undefined,
    (e: grpc.ServiceError) => e,
  );
  return {
    grpc: { code: grpcError?.code ?? 0, details: grpcError?.details ?? "" },
    connect: await stack.connect(toProtoJson(request)),
    rest: await stack.rest(request),
  };
}

describe("real failures over gRPC, Connect and REST", () => {
  let stack: SwapStack;
  beforeAll(async () => {
    stack = await startSwapStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("bad input: gRPC 3 / Connect invalid_argument 400 / REST 400 INVALID_REQUEST, one message naming the field", async () => {
    const r = demoSolToUsdc();
    r.quoteResponse.slippageBps = 20_000;
    const a = await askEveryProtocol(stack, r);
    const message = a.connect.body.message as string;
    expect(message).toMatch(/^quoteResponse\.slippageBps: /);
    expect(a.grpc).toEqual({ code: 3, details: message });
    expect(a.connect).toEqual({ status: 400, body: { code: "invalid_argument", message } });
    expect(a.rest).toEqual({ status: 400, body: { error: message, errorCode: "INVALID_REQUEST", code: 400 } });
  });

  it("a pool that does not exist: gRPC 9 / Connect failed_precondition 400 / REST 400 FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS", async () => {
    const r = demoSolToUsdc();
    const missing = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    r.quoteResponse.routePlan[0].swapInfo.ammKey = missing;
    const a = await askEveryProtocol(stack, r);
    const message = `routePlan[0] (ammKey ${missing}, label "Raydium CP"): pool account not found`;
    expect(a.grpc).toEqual({ code: 9, details: message });
    expect(a.connect).toEqual({ status: 400, body: { code: "failed_precondition", message } });
    expect(a.rest).toEqual({ status: 400, body: { error: message, errorCode: "FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS", code: 400 } });
  });
});

describe("an RPC that is down, over gRPC, Connect and REST", () => {
  let down: SwapStack;
  beforeAll(async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    down = await startSwapStack({
      chainUrl: `http://127.0.0.1:${port}`,
      chainOptions: { timeoutMs: 1_500, maxRetries: 1, backoff: { baseMs: 20, maxMs: 50 } },
    });
  });
  afterAll(async () => {
    await down?.close();
  });

  it("gRPC 14 / Connect unavailable 503 / REST 503 RPC_CLIENT_ERROR, each saying why (REST: after Jupiter's 'RPC client error: ')", async () => {
    // The three calls go one after another through one chain client, whose circuit breaker opens
    // on the way: the first says how many attempts failed, later ones that every circuit is open.
    const a = await askEveryProtocol(down, demoSolToUsdc());
    const why = /^Solana RPC \w+ unavailable after \d+ attempts?: network error \(ECONNREFUSED\)(; then every endpoint's circuit open)?$/;
    expect(a.grpc.code).toBe(14);
    expect(a.grpc.details).toMatch(why);
    expect(a.connect.status).toBe(503);
    expect(a.connect.body.code).toBe("unavailable");
    expect(a.connect.body.message).toMatch(why);
    expect(a.rest.status).toBe(503);
    expect(a.rest.body).toMatchObject({ errorCode: "RPC_CLIENT_ERROR", code: 503 });
    expect(a.rest.body.error.replace(/^RPC client error: /, "")).toMatch(why);
    expect(a.rest.body.error).toMatch(/^RPC client error: /);
  });
});
