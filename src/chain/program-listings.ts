/**
 * Every pool of each AMM program, listed by the service itself (MARKET_LISTING=1): one
 * getProgramAccounts per program, sliced to the mints (as `npm run markets -- dump` does), at start
 * and again every `refreshMs`. Programs are listed one after another, in the background: the
 * service answers meanwhile (a program not listed yet is searched by pair). A program the RPC
 * refuses, or whose scan times out, is tried again after `retryMs`, doubling up to `refreshMs` (an
 * hour when there is no refresh), so a provider that rations getProgramAccounts is not asked for a
 * whole program over and over.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { listProgramMarkets } from "./market-snapshot-dump.js";
import type { ProgramListing } from "./market-snapshot-dump.js";
import type { SolanaChain } from "./solana-chain.js";

const LONGEST_RETRY_MS = 3_600_000;

export interface ProgramListingsOptions {
  readonly chain: SolanaChain;
  readonly adapters: readonly AnyAmmAdapter[];
  /** Whether a program is to be listed now (one that is not is asked again after `retryMs`). */
  readonly wanted: (adapter: AnyAmmAdapter) => boolean;
  /** One attempt per program and round, this long at most. */
  readonly timeoutMs: number;
  /** A listed program is listed again after this long; 0 = never. */
  readonly refreshMs: number;
  /** First wait after a failed attempt. */
  readonly retryMs: number;
  readonly listed: (adapter: AnyAmmAdapter, listing: ProgramListing, ms: number) => void;
  /** When a program was last listed, if before this start (a listing kept on disk): its next listing is due `refreshMs` after. */
  readonly listedBefore?: (adapter: AnyAmmAdapter) => number | undefined;
  /** Told every failure, with what failed (a program's listing, or the schedule itself). */
  readonly failed: (error: unknown, what: string) => void;
  readonly now?: () => number;
}

interface ProgramState {
  readonly adapter: AnyAmmAdapter;
  nextAt: number;
  failures: number;
  /** Why the last attempt failed (cleared by a listing). */
  lastError: string | undefined;
}

/** A program whose last listing attempt failed: searched by pair meanwhile. */
export interface UnlistedProgram {
  readonly label: string;
  readonly reason: string;
}

export class ProgramListings {
  private readonly programs: ProgramState[];
  private readonly now: () => number;
  private readonly stop = new AbortController();
  private firstRound: Promise<void> | undefined;

  constructor(private readonly options: ProgramListingsOptions) {
    this.now = options.now ?? Date.now;
    this.programs = options.adapters.map((adapter) => {
      const before = options.listedBefore?.(adapter);
      const nextAt = before === undefined ? 0 : options.refreshMs > 0 ? before + options.refreshMs : Infinity;
      return { adapter, nextAt, failures: 0, lastError: undefined };
    });
  }

  /** Programs whose last listing attempt failed (the RPC refused, or it timed out), with why. */
  unlisted(): UnlistedProgram[] {
    return this.programs.flatMap((p) => (p.lastError === undefined ? [] : [{ label: p.adapter.label, reason: p.lastError }]));
  }

  /** Starts listing in the background; the promise settles when every program was tried once. */
  start(): Promise<void> {
    if (!this.firstRound) {
      this.firstRound = this.round();
      this.firstRound
        .then(() => this.loop())
        .catch((error: unknown) => {
          // An aborted wait is close(); anything else stops the refreshes and is told.
          if (!this.stop.signal.aborted) this.options.failed(error, "market listing schedule");
        });
    }
    return this.firstRound;
  }

  close(): void {
    this.stop.abort();
  }

  private async loop(): Promise<void> {
    while (!this.stop.signal.aborted) {
      const next = Math.min(...this.programs.map((p) => p.nextAt));
      if (next === Infinity) return;
      await sleep(Math.max(0, next - this.now()), undefined, { signal: this.stop.signal, ref: false });
      await this.round();
    }
  }

  /** Lists every program whose time has come, one after another. */
  private async round(): Promise<void> {
    for (const state of this.programs) {
      if (this.stop.signal.aborted) return;
      if (state.nextAt > this.now()) continue;
      if (!this.options.wanted(state.adapter)) {
        state.nextAt = this.now() + this.options.retryMs;
        continue;
      }
      const started = this.now();
      try {
        const listing = await listProgramMarkets(this.options.chain, state.adapter, this.options.timeoutMs);
        state.failures = 0;
        state.lastError = undefined;
        state.nextAt = this.options.refreshMs > 0 ? this.now() + this.options.refreshMs : Infinity;
        this.options.listed(state.adapter, listing, this.now() - started);
      } catch (error) {
        // Told (and the program stays searched by pair); tried again after a backoff. Doubling
        // without jitter (unlike retry-backoff.ts): one client, and a wait near zero would send a
        // whole program's scan again at once.
        state.failures++;
        state.lastError = error instanceof Error ? error.message : String(error);
        const longest = this.options.refreshMs > 0 ? this.options.refreshMs : LONGEST_RETRY_MS;
        state.nextAt = this.now() + Math.min(this.options.retryMs * 2 ** (state.failures - 1), longest);
        this.options.failed(error, `listing the pools of ${state.adapter.label}`);
      }
    }
  }
}
