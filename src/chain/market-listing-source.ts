/**
 * Markets listed by the service itself (MARKET_LISTING): every pool of each searched program, one
 * sliced getProgramAccounts per program at start and at each refresh (chain/program-listings.ts),
 * kept in `DATA_DIR/markets` when configured so a restart reads them instead of listing again. A
 * program listed whole is not searched by discovery any more.
 */
import type { SolanaChain } from "./solana-chain.js";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import type { Market } from "../core/quote/market.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { keepListing, keptListingSize, readKeptListing } from "./kept-listings.js";
import { ProgramListings } from "./program-listings.js";
import type { UnlistedProgram } from "./program-listings.js";
import type { ProgramListing } from "./market-snapshot-dump.js";
import { TableMarketSource } from "./market-table.js";
import { snapshotMarkets } from "./market-resolution.js";

/** Listed pools made markets between two turns of the event loop. */
const CONVERT_STEP = 20_000;

/** MARKET_LISTING's settings. */
export interface ListingSettings {
  readonly refreshMs: number;
  readonly timeoutMs: number;
  /**
   * Where each program's listing is kept (`DATA_DIR/markets`): a start reads them instead of
   * listing again, and lists a program again only when its refresh is due. None = memory only.
   */
  readonly keepDir?: string;
}

export interface ProgramListingSourceOptions {
  readonly chain: SolanaChain;
  readonly adapters: ReadonlyMap<string, AnyAmmAdapter>;
  /** The adapters that have a pool layout (the only ones that can be listed). */
  readonly listable: readonly AnyAmmAdapter[];
  /** Whether the program is to be listed now (wanted, and not listed whole by the markets file). */
  readonly wanted: (adapter: AnyAmmAdapter) => boolean;
  /** Wait after a failed listing before the next attempt. */
  readonly retryMs: number;
  readonly onListed?: (label: string, pools: number, ms: number) => void;
  /** Told each kept listing read at start, with the load's progress so far. */
  readonly onKeptRead?: (label: string, pools: number, ms: number, progress: KeptListingsProgress) => void;
  readonly now: () => number;
  readonly onError: (error: unknown, what: string) => void;
  readonly changed: (pair?: string) => void;
}

/** How far the start's reading of the kept listings is (they are read in the background). */
export interface KeptListingsProgress {
  readonly programs: number;
  readonly programsRead: number;
  readonly pools: number;
  readonly bytes: number;
  readonly bytesRead: number;
  readonly ms: number;
  /** Estimated time left, from the bytes read so far. */
  readonly etaMs: number | undefined;
  readonly done: boolean;
}

/** Its table holds the pools of the programs the service listed whole. */
export class ProgramListingSource extends TableMarketSource {
  /** Programs listed whole, with their pools' addresses. */
  /** Programs (base58) the service listed whole. */
  private readonly listedPrograms = new Set<string>();
  private listings: ProgramListings | undefined;
  private listingRound: Promise<void> = Promise.resolve();
  private begun = false;
  /** Listings being put in the table (a round is over once they are in). */
  private readonly replacing = new Set<Promise<void>>();
  private progress: KeptListingsProgress | undefined;

  constructor(private readonly options: ProgramListingSourceOptions) {
    super(options.changed);
  }

  get started(): boolean {
    return this.begun;
  }

  /**
   * Reads the kept listings, then lists the programs — both in the background (`whenListed`): at
   * mainnet's size the kept listings hold millions of pools, read while the service already answers
   * (a program not read yet is searched by pair meanwhile; `keptListingsProgress` says how far).
   */
  start(settings: ListingSettings): void {
    this.begun = true;
    this.listingRound = this.readKept(settings)
      .catch((error: unknown) => {
        // The folder itself unreadable: told, and every program listed again.
        this.options.onError(error, "reading the kept listings");
        return new Map<AnyAmmAdapter, number>();
      })
      .then((kept) => this.startListings(settings, kept));
  }

  /** The kept listings' reading at start: undefined before it begins or with nothing kept. */
  keptListingsProgress(): KeptListingsProgress | undefined {
    return this.progress;
  }

  /** Programs whose kept listing was read, and when they were listed. */
  private async readKept(settings: ListingSettings): Promise<Map<AnyAmmAdapter, number>> {
    const { keepDir } = settings;
    const { wanted, onError } = this.options;
    const kept = new Map<AnyAmmAdapter, number>();
    if (!keepDir) return kept;
    const adapters = this.options.listable.filter(wanted);
    const sizes = await Promise.all(adapters.map((adapter) => keptListingSize(keepDir, adapter)));
    const started = this.options.now();
    const bytes = sizes.reduce((a, b) => a + b, 0);
    let state = { programs: sizes.filter((s) => s > 0).length, programsRead: 0, pools: 0, bytes, bytesRead: 0 };
    const progressNow = (done: boolean): KeptListingsProgress => {
      const ms = this.options.now() - started;
      const etaMs = state.bytesRead > 0 && !done ? Math.round((ms * (state.bytes - state.bytesRead)) / state.bytesRead) : undefined;
      return { ...state, ms, etaMs, done };
    };
    if (bytes === 0) return kept;
    this.progress = progressNow(false);
    for (const [i, adapter] of adapters.entries()) {
      if (sizes[i] === 0) continue;
      const t0 = this.options.now();
      let read = 0;
      try {
        const found = await readKeptListing(keepDir, adapter);
        if (found) {
          await this.replace(adapter, found.listing);
          kept.set(adapter, found.listedAt);
          read = found.listing.markets.length;
          state = { ...state, pools: state.pools + read };
        }
      } catch (error) {
        // An unreadable file is told and the program listed again (which writes it anew).
        onError(error, `reading the kept listing of ${adapter.label}`);
      }
      state = { ...state, programsRead: state.programsRead + 1, bytesRead: state.bytesRead + sizes[i] };
      this.progress = progressNow(false);
      this.options.onKeptRead?.(adapter.label, read, this.options.now() - t0, this.progress);
    }
    this.progress = progressNow(true);
    return kept;
  }

  private startListings(settings: ListingSettings, kept: ReadonlyMap<AnyAmmAdapter, number>): Promise<void> {
    const { keepDir } = settings;
    const { wanted, onError } = this.options;
    this.listings = new ProgramListings({
      chain: this.options.chain,
      adapters: this.options.listable,
      wanted,
      timeoutMs: settings.timeoutMs,
      refreshMs: settings.refreshMs,
      retryMs: this.options.retryMs,
      listedBefore: (adapter) => kept.get(adapter),
      listed: (adapter, listing, ms) => {
        const replacing = this.replace(adapter, listing)
          .then(() => {
            this.options.onListed?.(adapter.label, listing.markets.length, ms);
            if (keepDir) return keepListing(keepDir, adapter, listing, this.options.now());
          })
          .catch((error: unknown) => onError(error, `keeping the listing of ${adapter.label}`))
          .finally(() => this.replacing.delete(replacing));
        this.replacing.add(replacing);
      },
      failed: (error, what) => onError(error, what),
      now: this.options.now,
    });
    return this.listings.start().then(async () => {
      await Promise.all([...this.replacing]);
    });
  }

  /** Whether the service listed the program (base58) whole. */
  listsWhole(program: string): boolean {
    return this.listedPrograms.has(program);
  }

  /** Programs whose last listing the RPC refused (or that timed out): searched by pair until listed. */
  unlisted(): UnlistedProgram[] {
    return this.listings?.unlisted() ?? [];
  }

  /** Resolves once every program was listed (or failed to be) once. */
  whenListed(): Promise<void> {
    return this.listingRound;
  }

  close(): void {
    this.listings?.close();
    this.listings = undefined;
  }

  /** A program's pools as just listed replace the ones listed before (`MarketTable.replace`, giving the event loop back as it goes). */
  private async replace(adapter: AnyAmmAdapter, listing: ProgramListing): Promise<void> {
    const program = base58Of(adapter.programId);
    const markets: Market[] = [];
    for (let i = 0; i < listing.markets.length; i += CONVERT_STEP) {
      markets.push(...snapshotMarkets(this.options.adapters, listing.markets.slice(i, i + CONVERT_STEP), "listed").added);
      if (i + CONVERT_STEP < listing.markets.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await this.table.replaceInSteps("listed", adapter.programId, markets);
    this.listedPrograms.add(program);
  }
}
