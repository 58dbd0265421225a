import * as http from "node:http";
import * as https from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { ChainRpcError, ChainUnavailableError } from "./chain-errors.js";
import { rpcCallsTotal, rpcFailuresTotal, rpcRequestsTotal } from "./rpc-metrics.js";
import { backoffDelayMs } from "./retry-backoff.js";
import { retryAfterMs } from "./retry-after.js";
import type { BackoffPolicy } from "./retry-backoff.js";

export interface JsonRpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** One answer of a batch: the result, or the node's error object. */
export type JsonRpcAnswer =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

export interface RpcTransportOptions {
  readonly url: string;
  /** Budget of one call, retries and backoff included (ms). Default 10 000. */
  readonly timeoutMs?: number;
  /** Budget of one HTTP attempt (ms), capped by what is left of `timeoutMs`. Default 5 000. */
  readonly attemptTimeoutMs?: number;
  /** Retries after the first attempt, for reads only. Default 3. */
  readonly maxRetries?: number;
  readonly backoff?: BackoffPolicy;
  readonly headers?: Readonly<Record<string, string>>;
  /** Jitter source, injectable for tests. */
  readonly random?: () => number;
}

export interface RequestOptions {
  /** Retry on 429 / 5xx / network errors / timeouts / malformed JSON. Never for sends. */
  readonly retry: boolean;
  /** Overrides the call budget (e.g. a short one for readiness probes). */
  readonly timeoutMs?: number;
  /** Overrides the budget of one attempt (e.g. a long one for a getProgramAccounts scan). */
  readonly attemptTimeoutMs?: number;
}

/** Round trips (HTTP requests, retries included) and JSON-RPC calls sent by one transport. */
export interface RpcTransportStats {
  readonly roundTrips: number;
  readonly calls: number;
  /** HTTP requests by label: the JSON-RPC method, or `batch`. */
  readonly roundTripsByMethod: Readonly<Record<string, number>>;
}

/** One HTTP exchange's outcome before it is judged: a status and body, or why there is none. */
type HttpOutcome =
  | { status: number; text: string; retryAfter: string | undefined }
  | { failure: "timeout" }
  | { failure: "network"; detail: string };

type AttemptResult =
  | { ok: true; text: string; json: unknown }
  | { ok: false; retryable: boolean; reason: string; metricReason: string; retryAfterMs?: number };

/**
 * The one HTTP path to the Solana RPC: JSON-RPC over POST (single or batch), per-attempt and
 * per-call timeouts, bounded jittered retries for reads, round-trip counting (in-process and as
 * prom-client metrics). Failures end as `ChainUnavailableError`, node errors as `ChainRpcError`.
 */
export class RpcTransport {
  readonly url: string;
  private readonly timeoutMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoff: BackoffPolicy;
  private readonly headers: Record<string, string>;
  private readonly random: () => number;
  private nextId = 1;
  private roundTrips = 0;
  private calls = 0;
  private readonly byMethod: Record<string, number> = {};
  private readonly target: URL;
  private readonly client: typeof http | typeof https;
  /** Keep-alive: the hot path sends a request per swap; a new connection each time costs more than the request. */
  private readonly agent: http.Agent;

  constructor(options: RpcTransportOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 5_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoff = options.backoff ?? { baseMs: 100, maxMs: 2_000 };
    this.headers = { "content-type": "application/json", ...options.headers };
    this.random = options.random ?? Math.random;
    this.target = new URL(options.url);
    this.client = this.target.protocol === "https:" ? https : http;
    this.agent = new this.client.Agent({ keepAlive: true });
  }

  stats(): RpcTransportStats {
    return { roundTrips: this.roundTrips, calls: this.calls, roundTripsByMethod: { ...this.byMethod } };
  }

  /** Closes the kept-alive connections (shutdown); a later call opens new ones. */
  close(): void {
    this.agent.destroy();
  }

  /** One JSON-RPC call; a node error becomes `ChainRpcError`. */
  async call<T>(method: string, params: readonly unknown[], options: RequestOptions): Promise<T> {
    const [answer] = await this.batchOrSingle([{ method, params }], options, false);
    if ("error" in answer!) throw new ChainRpcError(method, answer.error.code, answer.error.message, answer.error.data);
    return answer!.result as T;
  }

  /** Several calls in ONE HTTP request (a JSON-RPC batch); answers come back in call order. */
  async batch(calls: readonly JsonRpcCall[], options: RequestOptions): Promise<JsonRpcAnswer[]> {
    return this.batchOrSingle(calls, options, true);
  }

  private async batchOrSingle(calls: readonly JsonRpcCall[], options: RequestOptions, asBatch: boolean): Promise<JsonRpcAnswer[]> {
    const requests = calls.map((c) => ({ jsonrpc: "2.0", id: this.nextId++, method: c.method, params: c.params }));
    const label = asBatch ? "batch" : calls[0]!.method;
    const { json } = await this.post(asBatch ? requests : requests[0], label, calls.map((c) => c.method), options);
    const whole = json as { error?: { code: number; message: string; data?: unknown } } | null;
    if (asBatch && whole && !Array.isArray(whole) && whole.error) {
      // Some providers answer a whole batch with one error object (e.g. batches not allowed).
      throw new ChainRpcError(label, whole.error.code, whole.error.message, whole.error.data);
    }
    const list = asBatch ? json : [json];
    if (!Array.isArray(list)) throw new ChainUnavailableError(label, "malformed answer: expected a JSON-RPC batch array", 1);
    const byId = new Map<unknown, JsonRpcAnswer>();
    for (const item of list as { id?: unknown; result?: unknown; error?: JsonRpcAnswer }[]) {
      if (item && typeof item === "object" && "error" in item && item.error) byId.set(item.id, { error: item.error as never });
      else if (item && typeof item === "object" && "result" in item) byId.set(item.id, { result: item.result });
    }
    return requests.map((r) => {
      const answer = byId.get(r.id) ?? (asBatch ? undefined : byId.values().next().value);
      if (!answer) throw new ChainUnavailableError(label, `malformed answer: no response for ${r.method} (id ${r.id})`, 1);
      return answer;
    });
  }

  /**
   * A `fetch` for web3.js's `Connection` (its `fetch` option), so that the Connection's requests
   * take this same path. Sends are not retried.
   */
  readonly fetchForConnection = async (_input: unknown, init?: { body?: unknown }): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { method?: string } | { method?: string }[];
    const methods = (Array.isArray(body) ? body : [body]).map((c) => String(c?.method));
    const label = Array.isArray(body) ? "batch" : methods[0]!;
    const { text } = await this.post(body, label, methods, { retry: !methods.includes("sendTransaction") });
    return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  };

  private async post(body: unknown, label: string, methods: readonly string[], options: RequestOptions): Promise<{ text: string; json: unknown }> {
    const text = JSON.stringify(body);
    const budget = options.timeoutMs ?? this.timeoutMs;
    const deadline = Date.now() + budget;
    const maxAttempts = options.retry ? this.maxRetries + 1 : 1;
    let attempts = 0;
    let reason = `no attempt within ${budget} ms`;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      attempts += 1;
      this.count(label, methods);
      const result = await this.attempt(text, Math.min(options.attemptTimeoutMs ?? this.attemptTimeoutMs, remaining));
      if (result.ok) return result;
      reason = result.reason;
      rpcFailuresTotal.inc({ method: label, reason: result.metricReason });
      if (!result.retryable || attempts >= maxAttempts) break;
      // The node's own Retry-After (429 / 503) wins over the backoff; if it does not fit in what is
      // left of the budget, fail now with a clear reason instead of retrying too early.
      const delay = result.retryAfterMs ?? backoffDelayMs(this.backoff, attempts - 1, this.random);
      if (Date.now() + delay >= deadline) {
        if (result.retryAfterMs !== undefined) reason += ` (Retry-After ${Math.ceil(result.retryAfterMs / 1000)} s exceeds the time left)`;
        break;
      }
      await sleep(delay);
    }
    throw new ChainUnavailableError(label, reason, attempts);
  }

  private count(label: string, methods: readonly string[]): void {
    this.roundTrips += 1;
    this.calls += methods.length;
    this.byMethod[label] = (this.byMethod[label] ?? 0) + 1;
    rpcRequestsTotal.inc({ method: label });
    for (const method of methods) rpcCallsTotal.inc({ method });
  }

  private async attempt(body: string, timeoutMs: number): Promise<AttemptResult> {
    const outcome = await this.exchange(body, timeoutMs);
    if ("failure" in outcome) {
      return outcome.failure === "timeout"
        ? { ok: false, retryable: true, reason: `no answer within ${timeoutMs} ms`, metricReason: "timeout" }
        : { ok: false, retryable: true, reason: `network error (${outcome.detail})`, metricReason: "network" };
    }
    const { status, text } = outcome;
    const retryAfter = retryAfterMs(outcome.retryAfter);
    const wait = retryAfter === undefined ? {} : { retryAfterMs: retryAfter };
    if (status === 429) return { ok: false, retryable: true, reason: "HTTP 429 Too Many Requests", metricReason: "http_429", ...wait };
    if (status >= 500) return { ok: false, retryable: true, reason: `HTTP ${status}`, metricReason: "http_5xx", ...wait };
    if (status < 200 || status >= 300) return { ok: false, retryable: false, reason: `HTTP ${status}`, metricReason: "http_4xx" };
    try {
      return { ok: true, text, json: JSON.parse(text) as unknown };
    } catch {
      return { ok: false, retryable: true, reason: `malformed JSON (${text.slice(0, 40)})`, metricReason: "malformed_json" };
    }
  }

  /** One POST over the keep-alive agent, abandoned (socket destroyed) after `timeoutMs`. Never rejects. */
  private exchange(body: string, timeoutMs: number): Promise<HttpOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: HttpOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = this.client.request(
        this.target,
        {
          method: "POST",
          agent: this.agent,
          headers: { ...this.headers, "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          response.setEncoding("utf8");
          let text = "";
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () => settle({ status: response.statusCode ?? 0, text, retryAfter: response.headers["retry-after"] }));
          response.on("error", (error: NodeJS.ErrnoException) => settle({ failure: "network", detail: error.code ?? error.message }));
          // Closed without "end" (and without an error on some Node versions): the answer is cut short.
          response.on("close", () => settle({ failure: "network", detail: "connection closed mid-answer" }));
        },
      );
      const timer = setTimeout(() => {
        settle({ failure: "timeout" });
        request.destroy();
      }, timeoutMs);
      request.on("error", (error: NodeJS.ErrnoException) => settle({ failure: "network", detail: error.code ?? error.message }));
      request.end(body);
    });
  }
}
