/**
 * Recent prioritization fees (`getRecentPrioritizationFees`) kept warm in the background, so that no
 * quote, build or order waits for the RPC to price its compute units: the global samples and those of
 * every write-locked account set asked for in the last `idleMs` are read together, one batched
 * request every `refreshMs`. A set asked for the first time answers with the global samples at once
 * (`forAccounts` false) and is read in the next refresh, which is started right away.
 */
import type { PublicKey } from "@solana/web3.js";
import { base58Of } from "../core/solana/base58-strings.js";
import type { SolanaChain } from "./solana-chain.js";

export const DEFAULT_PRIORITY_FEE_REFRESH_MS = 2_000;
const DEFAULT_IDLE_MS = 60_000;
/** At most this many account sets are kept (the least recently asked for goes). */
const MAX_SETS = 256;

export interface FeeSamples {
  /** µlamports per compute unit, one per recent slot (empty before the first read). */
  readonly samples: readonly number[];
  /** When they were read (ms since the epoch), undefined before the first read. */
  readonly readAt: number | undefined;
  /** True when these are the samples of the accounts asked for; false: the global ones (the set warms up). */
  readonly forAccounts: boolean;
}

interface SetEntry {
  readonly accounts: readonly PublicKey[];
  samples: readonly number[] | undefined;
  readAt: number;
  usedAt: number;
}

export interface PriorityFeeKeeperOptions {
  readonly chain: Pick<SolanaChain, "readBatch">;
  readonly refreshMs?: number;
  readonly idleMs?: number;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export class PriorityFeeKeeper {
  private readonly chain: Pick<SolanaChain, "readBatch">;
  private readonly refreshMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private global: { samples: readonly number[]; readAt: number } | undefined;
  private readonly sets = new Map<string, SetEntry>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private done = 0;

  constructor(options: PriorityFeeKeeperOptions) {
    this.chain = options.chain;
    this.refreshMs = options.refreshMs ?? DEFAULT_PRIORITY_FEE_REFRESH_MS;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /** Starts the background refresh (the first one now). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.kick();
  }

  close(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** Background refreshes finished (each one batched HTTP request). */
  get refreshes(): number {
    return this.done;
  }

  /** The samples for the write-locked `accounts` (empty: global), from memory; never waits. */
  samples(accounts: readonly PublicKey[]): FeeSamples {
    const now = this.now();
    if (accounts.length > 0) {
      const key = accounts.map((a) => base58Of(a)).join(",");
      const entry = this.sets.get(key);
      if (entry) {
        entry.usedAt = now;
        if (entry.samples) return { samples: entry.samples, readAt: entry.readAt, forAccounts: true };
      } else {
        if (this.sets.size >= MAX_SETS) this.dropLeastRecentlyUsed();
        this.sets.set(key, { accounts: [...accounts], samples: undefined, readAt: 0, usedAt: now });
        this.kick(); // read it in a refresh of its own, not on this caller's path
      }
    }
    return { samples: this.global?.samples ?? [], readAt: this.global?.readAt, forAccounts: accounts.length === 0 && this.global !== undefined };
  }

  /** Waits for the refresh under way (or one started now); for tests and start-up. */
  async refreshed(): Promise<void> {
    if (!this.refreshing) this.kick();
    await this.refreshing;
  }

  private dropLeastRecentlyUsed(): void {
    let oldest: string | undefined;
    let oldestAt = Infinity;
    for (const [key, entry] of this.sets) {
      if (entry.usedAt < oldestAt) {
        oldest = key;
        oldestAt = entry.usedAt;
      }
    }
    if (oldest !== undefined) this.sets.delete(oldest);
  }

  /** A refresh now (or right after the one under way). */
  private kick(): void {
    if (!this.running) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.refreshing = this.refresh().finally(() => {
      this.refreshing = undefined;
      if (!this.running) return;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.kick();
        return;
      }
      this.timer = setTimeout(() => this.kick(), this.refreshMs);
      this.timer.unref();
    });
  }

  private async refresh(): Promise<void> {
    const started = this.now();
    const due: SetEntry[] = [];
    for (const [key, entry] of this.sets) {
      if (started - entry.usedAt > this.idleMs) this.sets.delete(key);
      else due.push(entry);
    }
    try {
      const read = await this.chain.readBatch({ accounts: [], prioritizationFeeAccountSets: [[], ...due.map((e) => e.accounts)] });
      const sets = read.prioritizationFeeSets ?? [];
      const global = sets[0];
      if (global) this.global = { samples: global.map((f) => f.prioritizationFee), readAt: started };
      due.forEach((entry, i) => {
        const fees = sets[i + 1];
        if (fees) Object.assign(entry, { samples: fees.map((f) => f.prioritizationFee), readAt: started });
      });
      this.done += 1;
    } catch (error) {
      // Kept samples stay served (they age; readAt says how much); the next refresh tries again.
      this.onError(error);
    }
  }
}
