/**
 * Chain state kept current in the background, never on a request's path: the latest blockhash
 * (with its lastValidBlockHeight, asked for every `blockhashRefreshMs`, default 400 ms ≈ one slot)
 * and the recent prioritization fees of the account sets requests priced with (refreshed every
 * `feeRefreshMs`, dropped when unused for `feeIdleMs`). Both ride in one batched request per tick.
 * A request takes what is here; when it is missing or too old (the RPC failing), the request reads
 * it itself and hands fee samples back with `rememberFees`.
 */
import type { PublicKey } from "@solana/web3.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import type { LatestBlockhash, SolanaChain } from "../solana-chain.js";

export const DEFAULT_BLOCKHASH_REFRESH_MS = 400;
export const DEFAULT_FEE_REFRESH_MS = 2_000;
const DEFAULT_FEE_IDLE_MS = 60_000;
/** Older than this, a kept blockhash is not served (the refresh has been failing). */
const BLOCKHASH_SERVE_MAX_AGE_MS = 3_000;
/** Older than this, kept fees are not served. */
const FEES_SERVE_MAX_AGE_MS = 10_000;

export interface BackgroundChainStateOptions {
  readonly chain: SolanaChain;
  readonly blockhashRefreshMs?: number;
  readonly feeRefreshMs?: number;
  readonly feeIdleMs?: number;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

interface FeeEntry {
  readonly accounts: readonly PublicKey[];
  samples: readonly number[];
  readAt: number;
  usedAt: number;
}

export class BackgroundChainState {
  private readonly chain: SolanaChain;
  private readonly blockhashRefreshMs: number;
  private readonly feeRefreshMs: number;
  private readonly feeIdleMs: number;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private latest: { value: LatestBlockhash; at: number } | undefined;
  private readonly fees = new Map<string, FeeEntry>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticks = 0;
  private inFlight = false;

  constructor(options: BackgroundChainStateOptions) {
    this.chain = options.chain;
    this.blockhashRefreshMs = options.blockhashRefreshMs ?? DEFAULT_BLOCKHASH_REFRESH_MS;
    this.feeRefreshMs = options.feeRefreshMs ?? DEFAULT_FEE_REFRESH_MS;
    this.feeIdleMs = options.feeIdleMs ?? DEFAULT_FEE_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /** Starts refreshing: the first refresh now. */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.tick();
  }

  close(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** A refresh request is on its way (tests count requests between refreshes). */
  get busy(): boolean {
    return this.inFlight;
  }

  /** Background refreshes done (each one HTTP request). */
  get refreshes(): number {
    return this.ticks;
  }

  /** The latest blockhash if the keeper has a recent one; otherwise the caller reads it. */
  blockhash(): LatestBlockhash | undefined {
    const latest = this.latest;
    return latest && this.now() - latest.at <= BLOCKHASH_SERVE_MAX_AGE_MS ? latest.value : undefined;
  }

  /** A blockhash the caller read itself (kept when newer). */
  rememberBlockhash(value: LatestBlockhash, at: number): void {
    if (!this.latest || this.latest.at <= at) this.latest = { value, at };
  }

  /** Fee samples of the write-locked `accounts` (none = global), if kept; marks the set in use. */
  feeSamples(accounts: readonly PublicKey[]): readonly number[] | undefined {
    const entry = this.fees.get(feesKey(accounts));
    if (entry === undefined) return undefined;
    const now = this.now();
    entry.usedAt = now;
    return now - entry.readAt <= FEES_SERVE_MAX_AGE_MS ? entry.samples : undefined;
  }

  /** Samples the caller read itself; from now on the set is refreshed in the background. */
  rememberFees(accounts: readonly PublicKey[], samples: readonly number[], readAt: number): void {
    const key = feesKey(accounts);
    const entry = this.fees.get(key);
    if (entry) {
      if (entry.readAt <= readAt) Object.assign(entry, { samples, readAt });
      entry.usedAt = this.now();
    } else {
      this.fees.set(key, { accounts: [...accounts], samples, readAt, usedAt: this.now() });
    }
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    const started = this.now();
    const due: FeeEntry[] = [];
    for (const [key, entry] of this.fees) {
      if (started - entry.usedAt > this.feeIdleMs) this.fees.delete(key);
      else if (started - entry.readAt >= this.feeRefreshMs) due.push(entry);
    }
    this.inFlight = true;
    try {
      const read = await this.chain.readBatch({
        accounts: [],
        latestBlockhash: "refresh",
        ...(due.length > 0 ? { prioritizationFeeAccountSets: due.map((e) => e.accounts) } : {}),
      });
      this.ticks += 1;
      if (read.latestBlockhash) this.rememberBlockhash(read.latestBlockhash, started);
      due.forEach((entry, i) => {
        const samples = read.prioritizationFeeSets?.[i]?.map((f) => f.prioritizationFee);
        if (samples && entry.readAt <= started) Object.assign(entry, { samples, readAt: started });
      });
    } catch (error) {
      this.onError(error);
    } finally {
      this.inFlight = false;
    }
    if (!this.running) return;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, this.blockhashRefreshMs - (this.now() - started)));
    this.timer.unref();
  }
}

function feesKey(accounts: readonly PublicKey[]): string {
  return accounts.map((a) => base58Of(a)).join(",");
}
