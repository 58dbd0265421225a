/**
 * Rate limits: a token bucket (the `limiter` package) per caller — its API key's fingerprint, or
 * its address without keys — refilled at `rps` up to `burst`. Execute takes from its own, lower
 * bucket and from the caller's bucket (a child bucket of it). Rejections are counted per key
 * fingerprint in `swapd_rate_limited_total`.
 */
import client from "prom-client";
import { TokenBucket } from "limiter";
import { registeredMetric } from "../metrics/registered-metric.js";
import type { RateLimitSettings } from "../config/edge-settings.js";

const rejected = registeredMetric(
  "swapd_rate_limited_total",
  () =>
    new client.Counter({
      name: "swapd_rate_limited_total",
      help: 'Calls refused by the rate limit, by API key fingerprint ("anonymous" without keys) and bucket (default or execute)',
      labelNames: ["key", "bucket"] as const,
    }),
);

export type RateVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface CallerBuckets {
  readonly all: TokenBucket;
  execute?: TokenBucket;
}

/** Buckets kept before full ones (equivalent to new ones) are swept. */
const SWEEP_AT = 10_000;

export class RateLimiter {
  private readonly callers = new Map<string, CallerBuckets>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly settings: RateLimitSettings) {
    this.sweepTimer = setInterval(() => this.sweep(), 60_000);
    this.sweepTimer.unref();
  }

  /**
   * Takes one token for a call of `caller` (an identity such as `key:ab12cd34` or `addr:10.0.0.7`);
   * `metricKey` labels a rejection (never an address: it would make unbounded label values).
   */
  take(caller: string, metricKey: string, execute: boolean): RateVerdict {
    let b = this.callers.get(caller);
    if (b === undefined) {
      if (this.callers.size >= SWEEP_AT) this.sweep();
      b = { all: full({ bucketSize: this.settings.burst, tokensPerInterval: this.settings.rps, interval: 1000 }) };
      this.callers.set(caller, b);
    }
    let bucket = b.all;
    if (execute) {
      b.execute ??= full({ bucketSize: this.settings.executeBurst, tokensPerInterval: this.settings.executeRps, interval: 1000, parentBucket: b.all });
      bucket = b.execute;
    }
    if (bucket.tryRemoveTokens(1)) return { ok: true };
    rejected.inc({ key: metricKey, bucket: execute ? "execute" : "default" });
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(bucket.getWaitTime(1) / 1000)) };
  }

  /** Forgets callers whose buckets are full again: a new bucket would be the same. */
  private sweep(): void {
    for (const [caller, b] of this.callers) {
      b.all.drip();
      b.execute?.drip();
      if (b.all.content >= b.all.bucketSize && (b.execute === undefined || b.execute.content >= b.execute.bucketSize)) this.callers.delete(caller);
    }
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }
}

/** The library's buckets start empty; a caller's first calls may use the whole burst. */
function full(opts: ConstructorParameters<typeof TokenBucket>[0]): TokenBucket {
  const b = new TokenBucket(opts);
  b.content = b.bucketSize;
  return b;
}
