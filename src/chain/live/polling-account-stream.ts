/**
 * Live account updates by polling: every `intervalMs`, all subscribed accounts are read with
 * getMultipleAccounts (one batched request; the chain splits it into calls of 100) and reported as
 * updates. For RPCs without a usable websocket. A failed round counts as a disconnect; the next
 * good round reconnects (and the cache resyncs). Its lag is its liveness: `freshAsOf` is the start
 * of the last completed round, and a round that does not complete within `intervalMs` + the
 * staleness bound (a slow or blackholed RPC) leaves it too old for the cache to answer from.
 */
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import type { SolanaChain } from "../solana-chain.js";
import type { AccountStream, AccountStreamEvents } from "./account-stream.js";

export const DEFAULT_LIVE_POLL_MS = 1_000;

export class PollingAccountStream implements AccountStream {
  readonly kind = "polling";
  readonly coversPastUpdates = true;
  private events: AccountStreamEvents | undefined;
  private readonly wanted = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private up = false;
  private closed = false;
  private rounds = 0;
  private inFlight = false;
  private fresh: number | undefined;
  readonly maxSilenceMs: number;

  constructor(
    private readonly chain: SolanaChain,
    private readonly intervalMs: number = DEFAULT_LIVE_POLL_MS,
    maxStalenessMs: number = 1_000,
  ) {
    this.maxSilenceMs = intervalMs + maxStalenessMs;
  }

  get freshAsOf(): number | undefined {
    return this.fresh;
  }

  /** A polling read is on its way. */
  get busy(): boolean {
    return this.inFlight;
  }

  /** Polling rounds made (each at most one HTTP request). */
  get pollRounds(): number {
    return this.rounds;
  }

  start(events: AccountStreamEvents): void {
    this.events = events;
    this.up = true;
    // Nothing is cached yet: whatever enters is read through the chain at that moment.
    this.fresh = Date.now();
    events.connected();
    this.schedule();
  }

  async subscribe(addresses: readonly string[]): Promise<void> {
    for (const a of addresses) this.wanted.add(a);
  }

  unsubscribe(addresses: readonly string[]): void {
    for (const a of addresses) this.wanted.delete(a);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const addresses = [...this.wanted];
    this.inFlight = true;
    const startedAt = Date.now();
    try {
      if (addresses.length > 0) {
        this.rounds += 1;
        const read = await this.chain.readBatch({ accounts: addresses.map((a) => publicKeyFromBase58(a)) });
        const slot = read.contextSlot ?? 0;
        this.events?.slot(slot);
        addresses.forEach((address, i) => {
          if (this.wanted.has(address)) this.events?.account(address, read.accounts[i] ?? null, slot);
        });
      }
      this.fresh = startedAt;
      if (!this.up) {
        this.up = true;
        this.events?.connected();
      }
    } catch (error) {
      if (this.up) {
        this.up = false;
        this.events?.disconnected(`polling failed: ${(error as Error).message}`);
      }
    } finally {
      this.inFlight = false;
    }
    this.schedule();
  }
}
