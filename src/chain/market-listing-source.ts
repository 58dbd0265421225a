/**
 * Markets listed by the service itself (MARKET_LISTING): every pool of each searched program, one
 * sliced getProgramAccounts per program at start and at each refresh (chain/program-listings.ts),
 * kept in `DATA_DIR/markets` when configured so a restart reads them instead of listing again. A
 * program listed whole is not searched by discovery any more.
 */
import type { SolanaChain } from "./solana-chain.js";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { keepListing, readKeptListing } from "./kept-listings.js";
import { ProgramListings } from "./program-listings.js";
import type { UnlistedProgram } from "./program-listings.js";
import type { ProgramListing } from "./market-snapshot-dump.js";
import { TableMarketSource } from "./market-table.js";
import { snapshotMarkets } from "./market-resolution.js";

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
  readonly now: () => number;
  readonly onError: (error: unknown, what: string) => void;
  readonly changed: (pair?: string) => void;
}

/** Its table holds the pools of the programs the service listed whole. */
export class ProgramListingSource extends TableMarketSource {
  /** Programs listed whole, with their pools' addresses. */
  /** Programs (base58) the service listed whole. */
  private readonly listedPrograms = new Set<string>();
  private listings: ProgramListings | undefined;
  private listingRound: Promise<void> = Promise.resolve();

  constructor(private readonly options: ProgramListingSourceOptions) {
    super(options.changed);
  }

  get started(): boolean {
    return this.listings !== undefined;
  }

  /** Loads the kept listings, then lists the programs in the background (`whenListed`). */
  async start(settings: ListingSettings): Promise<void> {
    const { keepDir } = settings;
    const { wanted, onError } = this.options;
    /** Programs whose kept listing was loaded, and when they were listed. */
    const kept = new Map<AnyAmmAdapter, number>();
    if (keepDir) {
      for (const adapter of this.options.listable.filter(wanted)) {
        try {
          const found = await readKeptListing(keepDir, adapter);
          if (!found) continue;
          this.replace(adapter, found.listing);
          kept.set(adapter, found.listedAt);
        } catch (error) {
          // An unreadable file is told and the program listed again (which writes it anew).
          onError(error, `reading the kept listing of ${adapter.label}`);
        }
      }
    }
    this.listings = new ProgramListings({
      chain: this.options.chain,
      adapters: this.options.listable,
      wanted,
      timeoutMs: settings.timeoutMs,
      refreshMs: settings.refreshMs,
      retryMs: this.options.retryMs,
      listedBefore: (adapter) => kept.get(adapter),
      listed: (adapter, listing, ms) => {
        this.replace(adapter, listing);
        this.options.onListed?.(adapter.label, listing.markets.length, ms);
        if (keepDir) {
          keepListing(keepDir, adapter, listing, this.options.now()).catch((error: unknown) => onError(error, `keeping the listing of ${adapter.label}`));
        }
      },
      failed: (error, what) => onError(error, what),
      now: this.options.now,
    });
    this.listingRound = this.listings.start();
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

  /** A program's pools as just listed replace the ones listed before (`MarketTable.replace`). */
  private replace(adapter: AnyAmmAdapter, listing: ProgramListing): void {
    const program = base58Of(adapter.programId);
    const markets = snapshotMarkets(this.options.adapters, listing.markets, "listed").added;
    this.table.replace("listed", adapter.programId, markets);
    this.listedPrograms.add(program);
  }
}
