import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Keypair } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ChainRpcError, ChainUnavailableError } from "../../src/chain/chain-errors.js";
import { checkChainReadiness } from "../../src/chain/chain-readiness.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";

type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string, n: number) => void;

/** A real HTTP server whose answers the test chooses (the faults a real node cannot be asked to produce). */
describe("chain layer against a misbehaving RPC server", () => {
  let server: Server;
  let url: string;
  let behaviour: Behaviour;
  let requests = 0;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on("unhandledRejection", onUnhandled);
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        requests += 1;
        behaviour(req, res, Buffer.concat(chunks).toString(), requests);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    requests = 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    // Give stray promises a chance to surface before checking.
    await new Promise((r) => setTimeout(r, 50));
    process.off("unhandledRejection", onUnhandled);
    expect(unhandled).toEqual([]);
  });

  const options = { maxRetries: 2, timeoutMs: 3_000, attemptTimeoutMs: 1_000, backoff: { baseMs: 10, maxMs: 40 } };
  const keys = [Keypair.generate().publicKey];

  async function expectUnavailable(run: () => Promise<unknown>, reason: RegExp) {
    const started = Date.now();
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect((error as Error).message).toMatch(reason);
    return { error: error as ChainUnavailableError, elapsed: Date.now() - started };
  }

  it("429: retries twice, then a clear unavailable error; round trips match the server's count", async () => {
    behaviour = (_q, res) => res.writeHead(429).end("rate limited");
    const chain = new RpcSolanaChain({ url, ...options });
    const { error } = await expectUnavailable(() => chain.getMultipleAccounts(keys), /getMultipleAccounts unavailable after 3 attempts: HTTP 429/);
    expect(error.attempts).toBe(3);
    expect(requests).toBe(3);
    expect(chain.stats().roundTrips).toBe(3);
  });

  it("500: same bounded retries, also through web3.js Connection methods", async () => {
    behaviour = (_q, res) => res.writeHead(500).end("boom");
    const chain = new RpcSolanaChain({ url, ...options });
    await expectUnavailable(() => chain.getSlot(), /getSlot unavailable after 3 attempts: HTTP 500/);
    expect(requests).toBe(3);
    expect(chain.stats().roundTrips).toBe(3);
  });

  it("malformed JSON: retried, then unavailable", async () => {
    behaviour = (_q, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0",');
    const chain = new RpcSolanaChain({ url, ...options });
    await expectUnavailable(() => chain.readBatch({ accounts: keys, latestBlockhash: true }), /batch unavailable after 3 attempts: malformed JSON/);
    expect(requests).toBe(3);
    expect(chain.stats()).toMatchObject({ roundTrips: 3, calls: 6 });
  });

  it("never answers: unavailable within the configured timeout", async () => {
    behaviour = () => {}; // hold the request open
    const chain = new RpcSolanaChain({ url, maxRetries: 5, timeoutMs: 600, attemptTimeoutMs: 250, backoff: { baseMs: 10, maxMs: 20 } });
    const { elapsed, error } = await expectUnavailable(() => chain.getLatestBlockhash(), /no answer within \d+ ms/);
    expect(elapsed).toBeLessThan(600 + 250); // the budget, plus scheduling slack
    expect(elapsed).toBeGreaterThanOrEqual(500);
    // 250 + 250 + what is left (< 100 ms): the budget, not maxRetries (5), bounds the attempts.
    expect(error.attempts).toBeGreaterThanOrEqual(2);
    expect(error.attempts).toBeLessThanOrEqual(3);
    expect(chain.stats().roundTrips).toBe(error.attempts);
    expect(requests).toBe(error.attempts);
  });

  it("recovers when the node answers after a 429", async () => {
    behaviour = (_q, res, body, n) => {
      if (n === 1) return void res.writeHead(429).end();
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: 4242 }));
    };
    const chain = new RpcSolanaChain({ url, ...options });
    expect(await chain.getSlot()).toBe(4242);
    expect(chain.stats().roundTrips).toBe(2);
    expect(requests).toBe(2);
  });

  it("429 with Retry-After: 1 waits the second the node asked for before retrying", async () => {
    const arrivals: number[] = [];
    behaviour = (_q, res, body, n) => {
      arrivals.push(Date.now());
      if (n === 1) return void res.writeHead(429, { "retry-after": "1" }).end();
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: 99 }));
    };
    // The backoff alone would retry within 40 ms.
    const chain = new RpcSolanaChain({ url, ...options });
    expect(await chain.getSlot()).toBe(99);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(950);
  });

  it("503 with a Retry-After longer than the request budget fails at once, naming it", async () => {
    behaviour = (_q, res) => res.writeHead(503, { "retry-after": "30" }).end();
    const chain = new RpcSolanaChain({ url, ...options });
    const { error } = await expectUnavailable(
      () => chain.getSlot(),
      /getSlot unavailable after 1 attempt: HTTP 503 \(Retry-After 30 s exceeds the time left\)/,
    );
    expect(error.attempts).toBe(1);
    expect(requests).toBe(1);
  });

  it("keeps the connection alive: sequential calls share one socket", async () => {
    let connections = 0;
    const onConnection = () => {
      connections += 1;
    };
    server.on("connection", onConnection);
    behaviour = (_q, res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: 7 }));
    };
    const chain = new RpcSolanaChain({ url, ...options });
    for (let i = 0; i < 3; i++) expect(await chain.getSlot()).toBe(7);
    server.off("connection", onConnection);
    expect(requests).toBe(3);
    expect(connections).toBe(1);
  });

  it("never retries sendTransaction", async () => {
    behaviour = (_q, res) => res.writeHead(503).end();
    const chain = new RpcSolanaChain({ url, ...options });
    await expectUnavailable(() => chain.sendTransaction(new Uint8Array([1, 2, 3])), /sendTransaction unavailable after 1 attempt: HTTP 503/);
    expect(requests).toBe(1);
  });

  it("a node failing every request (HTTP 500) sees at most a small multiple of the calls: the breaker opens, then one trial call per pause; healed, calls pass again", async () => {
    let healthy = false;
    behaviour = (_q, res, body) => {
      if (!healthy) return void res.writeHead(500).end("boom");
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: 11 }));
    };
    const chain = new RpcSolanaChain({ url, ...options, maxRetries: 3, breakerHalfOpenMs: 200 });
    const errors: string[] = [];
    for (let i = 0; i < 60; i++) {
      errors.push(
        await chain.getSlot().then(
          () => "ok",
          (e: unknown) => (e as Error).message,
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    console.log(`HTTP 500, one endpoint: 60 calls, ${requests} requests`);
    // Without the breaker: 4 requests per call (maxRetries 3), 240 in all.
    expect(requests).toBeLessThanOrEqual(2 * 60);
    expect(errors.filter((e) => e === "ok")).toEqual([]);
    expect(errors.some((e) => /getSlot unavailable after 0 attempts: circuit open for every endpoint \(0:127\.0\.0\.1:\d+: HTTP 500\)/.test(e))).toBe(true);
    expect(chain.endpointHealth()[0]).toMatchObject({ lastFailure: "HTTP 500" });

    healthy = true;
    await new Promise((r) => setTimeout(r, 250));
    expect(await chain.getSlot()).toBe(11);
    expect(chain.endpointHealth()[0]).toMatchObject({ breaker: "closed" });
  });

  it("two endpoints, the first refusing connections: calls pass through the second without waiting", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    behaviour = (_q, res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: 5 }));
    };
    const chain = new RpcSolanaChain({ url: `http://127.0.0.1:${port}`, failoverUrls: [url], ...options });
    for (let i = 0; i < 10; i++) expect(await chain.getSlot()).toBe(5);
    expect(requests).toBe(10);
    // Its breaker opened after 5 failures: the later calls went straight to the second endpoint.
    expect(chain.stats().roundTrips).toBe(15);
    expect(chain.endpointHealth().map((e) => e.breaker)).toEqual(["open", "closed"]);
    chain.close();
  });

  it("passes a node's JSON-RPC error through without retrying", async () => {
    behaviour = (_q, res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200).end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32005, message: "Node is behind by 42 slots" } }));
    };
    const chain = new RpcSolanaChain({ url, ...options });
    const error = await chain.getMultipleAccounts(keys).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainRpcError);
    expect((error as ChainRpcError).rpcCode).toBe(-32005);
    expect(requests).toBe(1);
    expect(await checkChainReadiness(chain, 500)).toMatchObject({ ready: false, detail: expect.stringContaining("Node is behind") });
  });

  it("connection refused: network error, retried, unavailable", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const chain = new RpcSolanaChain({ url: `http://127.0.0.1:${port}`, ...options });
    await expectUnavailable(() => chain.getBlockHeight(), /after 3 attempts: network error \(ECONNREFUSED\)/);
    expect(chain.stats().roundTrips).toBe(3);
    expect(await checkChainReadiness(chain, 300)).toMatchObject({ ready: false });
  });
});
