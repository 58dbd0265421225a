/**
 * The liveness rule of a pushed account stream (websocket, Yellowstone): the stream must prove
 * itself live at least every `maxSilenceMs` — by a message (a slot notification arrives every slot,
 * ~400 ms on mainnet) or, when the source is quiet, by the answer to a probe (a websocket ping, a
 * Yellowstone ping) sent after a quarter of that. `freshAsOf` is the moment up to which everything
 * the source sent has arrived; the cache answers from memory only while it is recent, so a
 * connection that is open but forwards nothing is noticed within `maxSilenceMs`, not at the next
 * ping interval. After `reconnectAfterMs` of silence the connection is given up (`frozen`).
 */
export interface StreamLivenessOptions {
  readonly maxSilenceMs: number;
  readonly reconnectAfterMs: number;
  /** Sends a probe; its answer calls `answered(sentAt)`. */
  readonly probe: () => void;
  /** Silence for `reconnectAfterMs`: drop the connection. */
  readonly frozen: (silentMs: number) => void;
  readonly now?: () => number;
}

export class StreamLiveness {
  private fresh: number | undefined;
  private lastHeard = 0;
  private probeSentAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly options: StreamLivenessOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The moment up to which the source's output is known delivered (ms since the epoch). */
  get freshAsOf(): number | undefined {
    return this.fresh;
  }

  /** A connection is up: starts watching it. */
  start(): void {
    this.stop();
    this.lastHeard = this.now();
    this.probeSentAt = undefined;
    const period = Math.max(10, Math.floor(this.options.maxSilenceMs / 4));
    this.timer = setInterval(() => this.check(), period);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Something arrived from the source: what it sent up to now is delivered. */
  heard(): void {
    const now = this.now();
    this.lastHeard = now;
    this.fresh = now;
  }

  /** The answer to the probe arrived: everything the source sent before the probe is delivered. */
  answered(): void {
    const sentAt = this.probeSentAt;
    this.probeSentAt = undefined;
    this.lastHeard = this.now();
    if (sentAt !== undefined && (this.fresh === undefined || sentAt > this.fresh)) this.fresh = sentAt;
  }

  private check(): void {
    const now = this.now();
    const silent = now - this.lastHeard;
    if (silent >= this.options.reconnectAfterMs) {
      this.stop();
      this.options.frozen(silent);
      return;
    }
    // Quiet for a quarter of the bound: ask, so the answer is back before the bound passes.
    if (this.probeSentAt === undefined && now - (this.fresh ?? 0) >= this.options.maxSilenceMs / 4) {
      this.probeSentAt = now;
      this.options.probe();
    }
  }
}
