/**
 * One Solana RPC endpoint as the transport sees it: its keep-alive connections, a circuit breaker
 * (cockatiel: opens when half of its last 20 attempts failed, at least 5 of them; one trial call
 * after `halfOpenAfterMs`), how fast it answers (a moving average of successful attempts: "slow"
 * above `slowMs`, which demotes it behind the others but keeps it in service), and when it last
 * answered. Its state is exported as prom-client gauges labelled with the endpoint's host.
 */
import * as http from "node:http";
import * as https from "node:https";
import { BrokenCircuitError, CircuitState, circuitBreaker, CountBreaker, handleWhenResult } from "cockatiel";
import type { CircuitBreakerPolicy } from "cockatiel";
import { rpcEndpointBreakerState, rpcEndpointLatencyMs, rpcEndpointSlow } from "./rpc-metrics.js";

/** One HTTP exchange's outcome before it is judged: a status and body, or why there is none. */
export type HttpOutcome = { status: number; text: string; retryAfter: string | undefined } | { failure: "timeout" } | { failure: "network"; detail: string };

export type AttemptResult =
  { ok: true; text: string; json: unknown } | { ok: false; retryable: boolean; reason: string; metricReason: string; retryAfterMs?: number };

export type EndpointEvent = "slow" | "fast" | "open" | "half-open" | "closed";

export interface EndpointHealth {
  /** `host[:port]` of the endpoint (no path or query: those may hold credentials). */
  readonly endpoint: string;
  readonly breaker: "closed" | "open" | "half-open";
  readonly slow: boolean;
  /** Moving average of successful attempts, ms (undefined before the first). */
  readonly latencyMs: number | undefined;
  /** `Date.now()` of the last successful attempt, 0 = none yet. */
  readonly lastSuccessAt: number;
  /** The last failure's reason, if any. */
  readonly lastFailure: string | undefined;
}

export interface RpcEndpointSettings {
  readonly slowMs: number;
  readonly halfOpenAfterMs: number;
  readonly onEvent?: (endpoint: string, event: EndpointEvent, detail: string) => void;
}

/** Weight of the newest sample in the latency average: a few answers decide "slow" and "fast" again. */
const LATENCY_WEIGHT = 0.3;

export class RpcEndpoint {
  readonly target: URL;
  readonly label: string;
  private readonly client: typeof http | typeof https;
  /** Keep-alive: the hot path sends a request per swap; a new connection each time costs more than the request. */
  private readonly agent: http.Agent;
  private readonly breaker: CircuitBreakerPolicy;
  private latency: number | undefined;
  private slowNow = false;
  private lastSuccess = 0;
  private lastFailureReason: string | undefined;

  constructor(
    url: string,
    index: number,
    private readonly settings: RpcEndpointSettings,
  ) {
    this.target = new URL(url);
    this.label = `${index}:${this.target.host}`;
    this.client = this.target.protocol === "https:" ? https : http;
    this.agent = new this.client.Agent({ keepAlive: true });
    this.breaker = circuitBreaker(
      handleWhenResult((r) => !(r as AttemptResult).ok && (r as Extract<AttemptResult, { ok: false }>).retryable),
      { halfOpenAfter: settings.halfOpenAfterMs, breaker: new CountBreaker({ threshold: 0.5, size: 20, minimumNumberOfCalls: 5 }) },
    );
    const stateNames = {
      [CircuitState.Closed]: "closed",
      [CircuitState.Open]: "open",
      [CircuitState.HalfOpen]: "half-open",
      [CircuitState.Isolated]: "open",
    } as const;
    this.breaker.onStateChange((state) => {
      rpcEndpointBreakerState.set({ endpoint: this.label }, state === CircuitState.Closed ? 0 : state === CircuitState.HalfOpen ? 2 : 1);
      settings.onEvent?.(this.label, stateNames[state], this.lastFailureReason ?? "");
    });
    rpcEndpointBreakerState.set({ endpoint: this.label }, 0);
    rpcEndpointSlow.set({ endpoint: this.label }, 0);
  }

  /** Usable now without waiting: closed, or open long enough for its trial call (the breaker decides). */
  get inService(): boolean {
    return this.breaker.state !== CircuitState.HalfOpen;
  }

  get slow(): boolean {
    return this.slowNow;
  }

  /** Sort key: closed and fast first, then closed but slow, then open (maybe due for its trial). */
  get rank(): number {
    if (this.breaker.state !== CircuitState.Closed) return 2;
    return this.slowNow ? 1 : 0;
  }

  health(): EndpointHealth {
    const state = this.breaker.state;
    return {
      endpoint: this.label,
      breaker: state === CircuitState.Closed ? "closed" : state === CircuitState.HalfOpen ? "half-open" : "open",
      slow: this.slowNow,
      latencyMs: this.latency === undefined ? undefined : Math.round(this.latency),
      lastSuccessAt: this.lastSuccess,
      lastFailure: this.lastFailureReason,
    };
  }

  /**
   * One attempt through the breaker, or `undefined` when the breaker is open (no request sent).
   * `judge` turns the HTTP outcome into the attempt's result.
   */
  async attempt(
    body: string,
    headers: Readonly<Record<string, string>>,
    timeoutMs: number,
    judge: (o: HttpOutcome) => AttemptResult,
  ): Promise<AttemptResult | undefined> {
    try {
      return await this.breaker.execute(async () => {
        const started = Date.now();
        const result = judge(await this.exchange(body, headers, timeoutMs));
        this.record(result, Date.now() - started);
        return result;
      });
    } catch (error) {
      if (error instanceof BrokenCircuitError) return undefined;
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private record(result: AttemptResult, ms: number): void {
    if (!result.ok) {
      this.lastFailureReason = result.reason;
      return;
    }
    this.lastSuccess = Date.now();
    this.latency = this.latency === undefined ? ms : this.latency + LATENCY_WEIGHT * (ms - this.latency);
    rpcEndpointLatencyMs.set({ endpoint: this.label }, Math.round(this.latency));
    const slow = this.latency > this.settings.slowMs;
    if (slow === this.slowNow) return;
    this.slowNow = slow;
    rpcEndpointSlow.set({ endpoint: this.label }, slow ? 1 : 0);
    this.settings.onEvent?.(this.label, slow ? "slow" : "fast", `answers in ${Math.round(this.latency)} ms on average (slow above ${this.settings.slowMs} ms)`);
  }

  /** One POST over the keep-alive agent, abandoned (socket destroyed) after `timeoutMs`. Never rejects. */
  private exchange(body: string, headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<HttpOutcome> {
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
        { method: "POST", agent: this.agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
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
