import { setTimeout as sleep } from "node:timers/promises";
import { ChainRpcError, ChainUnavailableError } from "./chain-errors.js";
import { RetryBudget } from "./retry-budget.js";
import { RpcEndpoint } from "./rpc-endpoint.js";
import type { AttemptResult, EndpointEvent, EndpointHealth, HttpOutcome } from "./rpc-endpoint.js";
import { rpcCallsTotal, rpcFailuresTotal, rpcRequestsTotal, rpcRetriesRefusedTotal } from "./rpc-metrics.js";
import { backoffDelayMs } from "./retry-backoff.js";
import { retryAfterMs } from "./retry-after.js";
import type { BackoffPolicy } from "./retry-backoff.js";

export interface JsonRpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** One answer of a batch: the result, or the node's error object. */
export type JsonRpcAnswer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

export interface RpcTransportOptions {
  /** The endpoint used first. */
  readonly url: string;
  /** Further endpoints, in order of preference: used when the ones before are down (breaker open) or slow. */
  readonly failoverUrls?: readonly string[];
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
  /** An endpoint whose successful answers average above this is "slow" (still used, behind faster ones), ms. Default 1 000. */
  readonly slowMs?: number;
  /** How long an endpoint's open breaker waits before one trial call, ms. Default 2 000. */
  readonly breakerHalfOpenMs?: number;
  /** Retries allowed per call on average (a share of the calls; 10 saved for bursts). Default 0.1. */
  readonly retryBudgetRatio?: number;
  /** Told when an endpoint turns slow or fast again, or its breaker opens, half-opens or closes (e.g. for a log line). */
  readonly onEndpointEvent?: (endpoint: string, event: EndpointEvent, detail: string) => void;
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

/**
 * The one HTTP path to the Solana RPC: JSON-RPC over POST (single or batch) to one or several
 * endpoints (each with its circuit breaker and speed, rpc-endpoint.ts), per-attempt and per-call
 * timeouts, failover, bounded jittered retries for reads within a retry budget, round-trip counting
 * (in-process and as prom-client metrics). Failures end as `ChainUnavailableError`, node errors as
 * `ChainRpcError`.
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
  /** In order of preference. */
  private readonly endpoints: readonly RpcEndpoint[];
  private readonly retryBudget: RetryBudget;
  /** With several endpoints, a slow one gets no traffic: a light probe now and then tells when it is fast again. */
  private readonly slowRecheck: NodeJS.Timeout | undefined;

  constructor(options: RpcTransportOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 5_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoff = options.backoff ?? { baseMs: 100, maxMs: 2_000 };
    this.headers = { "content-type": "application/json", ...options.headers };
    this.random = options.random ?? Math.random;
    const settings = {
      slowMs: options.slowMs ?? 1_000,
      halfOpenAfterMs: options.breakerHalfOpenMs ?? 2_000,
      ...(options.onEndpointEvent === undefined ? {} : { onEvent: options.onEndpointEvent }),
    };
    this.endpoints = [options.url, ...(options.failoverUrls ?? [])].map((url, i) => new RpcEndpoint(url, i, settings));
    this.retryBudget = new RetryBudget(options.retryBudgetRatio ?? 0.1, 10);
    if (this.endpoints.length > 1) {
      this.slowRecheck = setInterval(() => this.recheckSlowEndpoints(), SLOW_RECHECK_MS);
      this.slowRecheck.unref();
    }
  }

  stats(): RpcTransportStats {
    return { roundTrips: this.roundTrips, calls: this.calls, roundTripsByMethod: { ...this.byMethod } };
  }

  /** Each endpoint's breaker, speed and last success (readiness, diagnostics). */
  endpointHealth(): EndpointHealth[] {
    return this.endpoints.map((e) => e.health());
  }

  /** Closes the kept-alive connections (shutdown); a later call opens new ones. */
  close(): void {
    clearInterval(this.slowRecheck);
    for (const endpoint of this.endpoints) endpoint.close();
  }

  /** One JSON-RPC call; a node error becomes `ChainRpcError`. */
  async call<T>(method: string, params: readonly unknown[], options: RequestOptions): Promise<T> {
    const [answer] = await this.batchOrSingle([{ method, params }], options, false);
    if ("error" in answer) throw new ChainRpcError(method, answer.error.code, answer.error.message, answer.error.data);
    return answer.result as T;
  }

  /** Several calls in ONE HTTP request (a JSON-RPC batch); answers come back in call order. */
  async batch(calls: readonly JsonRpcCall[], options: RequestOptions): Promise<JsonRpcAnswer[]> {
    return this.batchOrSingle(calls, options, true);
  }

  private async batchOrSingle(calls: readonly JsonRpcCall[], options: RequestOptions, asBatch: boolean): Promise<JsonRpcAnswer[]> {
    const requests = calls.map((c) => ({ jsonrpc: "2.0", id: this.nextId++, method: c.method, params: c.params }));
    const label = asBatch ? "batch" : calls[0].method;
    const { json } = await this.post(
      asBatch ? requests : requests[0],
      label,
      calls.map((c) => c.method),
      options,
    );
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
    const label = Array.isArray(body) ? "batch" : methods[0];
    const { text } = await this.post(body, label, methods, { retry: !methods.includes("sendTransaction") });
    return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  };

  /**
   * Sends `body` to the best endpoint in service, retrying reads (on the next endpoint when there
   * is one) within the call's budget, `maxRetries` and the retry budget. With every breaker open,
   * fails at once without a request.
   */
  private async post(body: unknown, label: string, methods: readonly string[], options: RequestOptions): Promise<{ text: string; json: unknown }> {
    const text = JSON.stringify(body);
    const budget = options.timeoutMs ?? this.timeoutMs;
    const deadline = Date.now() + budget;
    const maxAttempts = options.retry ? this.maxRetries + 1 : 1;
    const failedOn = new Set<RpcEndpoint>();
    let attempts = 0;
    let reason = `no attempt within ${budget} ms`;
    this.retryBudget.earn();
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const attemptMs = Math.min(options.attemptTimeoutMs ?? this.attemptTimeoutMs, remaining);
      // An attempt cut to what is left of the call says the call's budget (600 ms set, not the 599 left).
      const sent = await this.attemptOnBestEndpoint(text, label, methods, attemptMs, failedOn, attemptMs === remaining ? budget : attemptMs);
      if (sent === undefined) {
        reason = attempts === 0 ? `circuit open for every endpoint (${this.lastFailures()})` : `${reason}; then every endpoint's circuit open`;
        break;
      }
      attempts += 1;
      const { result, endpoint } = sent;
      if (result.ok) return result;
      failedOn.add(endpoint);
      reason = result.reason;
      rpcFailuresTotal.inc({ method: label, reason: result.metricReason });
      if (!result.retryable || attempts >= maxAttempts) break;
      // Failing over to an endpoint this call has not tried is free and immediate (it adds no load
      // to the failing one); another try on one that failed spends the retry budget and backs off.
      if (this.endpoints.some((e) => !failedOn.has(e) && e.inService)) continue;
      if (!this.retryBudget.spend()) {
        rpcRetriesRefusedTotal.inc();
        reason += " (retry budget spent)";
        break;
      }
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

  /** One attempt on the first endpoint that takes it: fast before slow before open, those that failed this call last. */
  private async attemptOnBestEndpoint(
    text: string,
    label: string,
    methods: readonly string[],
    timeoutMs: number,
    failedOn: ReadonlySet<RpcEndpoint>,
    shownTimeoutMs: number,
  ): Promise<{ result: AttemptResult; endpoint: RpcEndpoint } | undefined> {
    const order = this.endpoints.filter((e) => e.inService).sort((a, b) => Number(failedOn.has(a)) - Number(failedOn.has(b)) || a.rank - b.rank);
    for (const endpoint of order) {
      const result = await endpoint.attempt(text, this.headers, timeoutMs, (outcome) => {
        this.count(label, methods);
        return judge(outcome, shownTimeoutMs);
      });
      if (result !== undefined) return { result, endpoint };
    }
    return undefined;
  }

  private lastFailures(): string {
    return this.endpoints.map((e) => `${e.label}: ${e.health().lastFailure ?? "no failure seen"}`).join("; ");
  }

  private recheckSlowEndpoints(): void {
    const probe = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "getHealth", params: [] });
    for (const endpoint of this.endpoints) {
      if (!endpoint.slow || !endpoint.inService) continue;
      // The answer only feeds the endpoint's speed and breaker; its failure is the breaker's to count.
      void endpoint.attempt(probe, this.headers, this.attemptTimeoutMs, (outcome) => judge(outcome, this.attemptTimeoutMs));
    }
  }

  private count(label: string, methods: readonly string[]): void {
    this.roundTrips += 1;
    this.calls += methods.length;
    this.byMethod[label] = (this.byMethod[label] ?? 0) + 1;
    rpcRequestsTotal.inc({ method: label });
    for (const method of methods) rpcCallsTotal.inc({ method });
  }
}

/** How often a slow endpoint (with faster ones serving) is probed to learn it is fast again, ms. */
const SLOW_RECHECK_MS = 5_000;

/** An HTTP outcome as an attempt's result: retryable or not, and why. */
function judge(outcome: HttpOutcome, timeoutMs: number): AttemptResult {
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
    // A 2xx that is not JSON (a proxy's page, a cut-off body): the parse error says no more than this reason.
    return { ok: false, retryable: true, reason: `malformed JSON (${text.slice(0, 40)})`, metricReason: "malformed_json" };
  }
}
