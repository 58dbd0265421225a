/**
 * The markets (pools) the router may use, from three sources:
 *
 * - discovered: per token pair, `getProgramAccounts` on every supported AMM program with the two
 *   mints as `memcmp` filters (both orders), cached per pair for `discoveryTtlMs` and then refreshed
 *   in the background while the cached list keeps answering;
 * - the operator's list (`MARKETS_FILE`, a JSON array of pool addresses, or `{"markets": [...]}`),
 *   loaded at start and again whenever the file changes;
 * - added at run time (`POST /markets`, as Jupiter's `/add-market`).
 *
 * A listed pool is read once to learn its AMM (owner program) and mints.
 */
import { readFile } from "node:fs/promises";
import { watchFile, unwatchFile } from "node:fs";
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "./solana-chain.js";
import type { AmmAdapter } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { POOL_MINT_LAYOUTS } from "../core/quote/pool-mint-offsets.js";
import { marketOfAccount, pairKey, parseMarketsFile, tradesPair } from "../core/quote/market.js";
import type { Market, MarketSource } from "../core/quote/market.js";

export type { Market, MarketSource };

export const DEFAULT_MARKET_DISCOVERY_TTL_MS = 60_000;
/** How often a MARKETS_FILE is checked for changes. */
const MARKETS_FILE_POLL_MS = 1_000;

export interface MarketIndexOptions {
  readonly chain: SolanaChain;
  readonly adapters: readonly AmmAdapter<any>[];
  /** Whether pools of an AMM are worth looking for now (a program-quoted AMM: only while its program quoter runs). Default: all. */
  readonly discoverable?: (adapter: AmmAdapter<any>) => boolean;
  /** 0 = no discovery (listed and added markets only). */
  readonly discoveryTtlMs?: number;
  readonly marketsFile?: string;
  readonly now?: () => number;
  readonly onError?: (error: unknown, what: string) => void;
}

interface PairEntry {
  markets: Market[];
  fetchedAt: number;
  refreshing: Promise<void> | undefined;
}

/** Result of adding markets by address: what was added and what was refused, with why. */
export interface AddMarketsResult {
  readonly added: Market[];
  readonly refused: { readonly address: string; readonly reason: string }[];
}

export class MarketIndex {
  private readonly chain: SolanaChain;
  private readonly adapters: ReadonlyMap<string, AmmAdapter<any>>;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly onError: (error: unknown, what: string) => void;
  private readonly pairs = new Map<string, PairEntry>();
  /** Listed (file) and added markets by address. */
  private readonly explicit = new Map<string, Market>();
  private fileMarkets = new Set<string>();
  private watching: string | undefined;

  constructor(private readonly options: MarketIndexOptions) {
    this.chain = options.chain;
    this.adapters = new Map(options.adapters.map((a) => [base58Of(a.programId), a]));
    this.ttlMs = options.discoveryTtlMs ?? DEFAULT_MARKET_DISCOVERY_TTL_MS;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /** Loads `marketsFile` (if configured) and watches it; a bad file is reported, not fatal. */
  async start(): Promise<void> {
    const file = this.options.marketsFile;
    if (!file) return;
    await this.reloadFile();
    this.watching = file;
    watchFile(file, { interval: MARKETS_FILE_POLL_MS, persistent: false }, () => {
      this.reloadFile().catch((error: unknown) => this.onError(error, `reloading ${file}`));
    });
  }

  close(): void {
    if (this.watching) unwatchFile(this.watching);
    this.watching = undefined;
  }

  /** Reads MARKETS_FILE again: its markets replace the previous file's. */
  async reloadFile(): Promise<AddMarketsResult> {
    const file = this.options.marketsFile;
    if (!file) return { added: [], refused: [] };
    const result = await this.resolve(parseMarketsFile(file, await readFile(file, "utf8")), "file");
    for (const address of this.fileMarkets) {
      if (this.explicit.get(address)?.source === "file") this.explicit.delete(address);
    }
    this.fileMarkets = new Set(result.added.map((m) => m.addressText));
    for (const market of result.added) this.explicit.set(market.addressText, market);
    for (const r of result.refused) this.onError(new Error(`${r.address}: ${r.reason}`), `loading ${file}`);
    return result;
  }

  /** Adds pools by address (POST /markets); each is read to learn its AMM and mints. */
  async add(addresses: readonly string[]): Promise<AddMarketsResult> {
    const result = await this.resolve(addresses, "added");
    for (const market of result.added) if (!this.explicit.has(market.addressText)) this.explicit.set(market.addressText, market);
    return result;
  }

  /** Every market known so far (listed, added and discovered). */
  known(): Market[] {
    const all = new Map<string, Market>();
    for (const entry of this.pairs.values()) for (const m of entry.markets) all.set(m.addressText, m);
    for (const m of this.explicit.values()) all.set(m.addressText, m);
    return [...all.values()];
  }

  /** Markets trading the pair x/y: listed and added ones plus the pair's discovered ones. */
  async forPair(x: string, y: string): Promise<Market[]> {
    const out = new Map<string, Market>();
    if (this.ttlMs > 0) for (const m of await this.discovered(x, y)) out.set(m.addressText, m);
    for (const m of this.explicit.values()) {
      if (tradesPair(m, x, y)) out.set(m.addressText, m);
    }
    return [...out.values()];
  }

  private async discovered(x: string, y: string): Promise<Market[]> {
    const key = pairKey(x, y);
    let entry = this.pairs.get(key);
    if (!entry) {
      const markets = await this.discover(x, y);
      entry = { markets, fetchedAt: this.now(), refreshing: undefined };
      this.pairs.set(key, entry);
    } else if (this.now() - entry.fetchedAt >= this.ttlMs && !entry.refreshing) {
      const stale = entry;
      stale.refreshing = this.discover(x, y)
        .then((markets) => {
          stale.markets = markets;
          stale.fetchedAt = this.now();
        })
        .catch((error: unknown) => this.onError(error, `refreshing markets ${x}/${y}`))
        .finally(() => {
          stale.refreshing = undefined;
        });
    }
    return entry.markets;
  }

  /** One getProgramAccounts per program and mint order, all at once. */
  private async discover(x: string, y: string): Promise<Market[]> {
    const queries: Promise<AccountData[]>[] = [];
    for (const adapter of this.adapters.values()) {
      const layout = POOL_MINT_LAYOUTS[base58Of(adapter.programId)];
      if (!layout || this.options.discoverable?.(adapter) === false) continue;
      for (const [first, second] of [
        [x, y],
        [y, x],
      ] as const) {
        queries.push(
          this.chain.getProgramAccounts(adapter.programId, [
            { dataSize: layout.dataSize },
            { memcmp: { offset: layout.mintOffsets[0], bytes: first } },
            { memcmp: { offset: layout.mintOffsets[1], bytes: second } },
          ]),
        );
      }
    }
    const found = (await Promise.all(queries)).flat();
    const markets: Market[] = [];
    for (const account of found) {
      const market = marketOfAccount(this.adapters, account, "discovered");
      if (typeof market !== "string") markets.push(market);
    }
    return markets;
  }

  private async resolve(addresses: readonly string[], source: MarketSource): Promise<AddMarketsResult> {
    const refused: { address: string; reason: string }[] = [];
    const keys: PublicKey[] = [];
    for (const address of addresses) {
      try {
        keys.push(publicKeyFromBase58(address));
      } catch {
        // Not a key: refused by name in the answer (POST /markets) or the operator's log (MARKETS_FILE).
        refused.push({ address: String(address).slice(0, 64), reason: "not a base58 public key (32 bytes)" });
      }
    }
    const accounts = keys.length === 0 ? [] : await this.chain.getMultipleAccounts(keys);
    const added: Market[] = [];
    keys.forEach((key, i) => {
      const account = accounts[i];
      if (!account) {
        refused.push({ address: base58Of(key), reason: "no such account on chain" });
        return;
      }
      const market = marketOfAccount(this.adapters, account, source);
      if (typeof market === "string") refused.push({ address: base58Of(key), reason: market });
      else added.push(market);
    });
    return { added, refused };
  }
}
