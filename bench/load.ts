/**
 * The load generator: N concurrent request loops, for a fixed duration or a fixed request count,
 * whichever comes first. Bounded and self-stopping; loopback only. The HTTP/1.1 client is
 * `node:http` with keep-alive connections (one socket per loop), not fetch, so the generator itself
 * spends as little CPU as possible on the shared cores; bench/grpc-load.ts plugs gRPC into the same loops.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

/** One request, repeated unchanged by every loop. */
export interface LoadRequest {
  /** e.g. `http://127.0.0.1:8080/grpc.health.v1.Health/Check` */
  readonly url: string;
  readonly method: "POST" | "GET";
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The response counts as a success only if this accepts it (status and body). */
  readonly accept: (status: number, body: Buffer) => boolean;
}

export interface LoadOptions {
  readonly concurrency: number;
  readonly durationMs: number;
  /** Hard cap on requests sent (all loops together). */
  readonly maxRequests: number;
  /** Per-request timeout; a timed-out request is an error. */
  readonly timeoutMs?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  /** The first failure seen (status and the start of the body, or the socket error). */
  readonly firstError: string | undefined;
  readonly elapsedMs: number;
  readonly requestsPerSecond: number;
  /** Latencies of successful requests, ms, sorted ascending. */
  readonly latenciesMs: Float64Array;
}

export function loopbackOnly(url: URL): void {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    throw new Error(`the load generator only targets loopback, got ${url.hostname}`);
  }
}

function sendOnce(agent: Agent, url: URL, req: LoadRequest, timeoutMs: number): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const r = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method,
        headers: { ...req.headers, "content-length": String(req.body.length) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    r.on("timeout", () => r.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    r.on("error", reject);
    r.end(req.body);
  });
}

/**
 * One request; resolves when it succeeded, rejects with a short reason otherwise. The loops call it
 * again as soon as it settles.
 */
export type LoadCall = () => Promise<void>;

/** Runs `concurrency` loops of `call` until the duration or the request cap is reached; never throws on request failures. */
export async function runLoops(call: LoadCall, opts: LoadOptions): Promise<LoadResult> {
  const latencies = new Float64Array(opts.maxRequests);
  let successes = 0;
  let sent = 0;
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + opts.durationMs;

  const loop = async (): Promise<void> => {
    while (sent < opts.maxRequests && performance.now() < deadline) {
      sent += 1;
      const t0 = performance.now();
      try {
        await call();
        latencies[successes++] = performance.now() - t0;
      } catch (e) {
        errors += 1;
        firstError ??= (e as Error).message;
      }
    }
  };

  await Promise.all(Array.from({ length: opts.concurrency }, loop));
  const elapsedMs = performance.now() - start;
  return {
    requests: sent,
    errors,
    firstError,
    elapsedMs,
    requestsPerSecond: (successes / elapsedMs) * 1000,
    latenciesMs: latencies.slice(0, successes).sort(),
  };
}

/** HTTP/1.1 load: `req` over keep-alive connections, one per loop. */
export function runLoad(req: LoadRequest, opts: LoadOptions): Promise<LoadResult> {
  return runVaryingLoad(() => req, opts);
}

/**
 * HTTP/1.1 load whose n-th request (from 0, all loops together) is `requestAt(n)`, to one host: e.g.
 * a new amount per request, so that no memo of the service answers it.
 */
export async function runVaryingLoad(requestAt: (n: number) => LoadRequest, opts: LoadOptions): Promise<LoadResult> {
  const first = new URL(requestAt(0).url);
  loopbackOnly(first);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency, maxFreeSockets: opts.concurrency });
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let n = 0;
  const call: LoadCall = async () => {
    const req = requestAt(n++);
    const url = new URL(req.url);
    if (url.host !== first.host) throw new Error(`varying load stays on ${first.host}, got ${url.host}`);
    const res = await sendOnce(agent, url, req, timeoutMs);
    if (!req.accept(res.status, res.body)) throw new Error(`HTTP ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
  };
  try {
    return await runLoops(call, opts);
  } finally {
    agent.destroy();
  }
}
