/**
 * The operator's markets: `MARKETS_FILE` (pool addresses, read in batches; or a market snapshot
 * from `npm run markets -- dump`, pools with their mints, read with no RPC call), loaded at start
 * and again whenever the file changes, and markets added at run time (`POST /markets`, as
 * Jupiter's `/add-market`). The programs a snapshot lists whole are not searched by discovery.
 */
import { readFile } from "node:fs/promises";
import { watchFile, unwatchFile } from "node:fs";
import type { SolanaChain } from "./solana-chain.js";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { parseMarketsFileContent } from "../core/quote/market-snapshot.js";
import { TableMarketSource } from "./market-table.js";
import { resolveMarkets, snapshotMarkets } from "./market-resolution.js";
import type { AddMarketsResult } from "./market-resolution.js";
import type { Market } from "../core/quote/market.js";
import { ValidationError } from "../core/validation-error.js";

/** How often a MARKETS_FILE is checked for changes. */
const MARKETS_FILE_POLL_MS = 1_000;

export interface MarketsFileSourceOptions {
  readonly chain: SolanaChain;
  readonly adapters: ReadonlyMap<string, AnyAmmAdapter>;
  readonly file: string | undefined;
  /** Pools `add` may add in all (each is held in memory, and any caller may add). */
  readonly addedMax: number;
  readonly onError: (error: unknown, what: string) => void;
  readonly changed: (pair?: string) => void;
}

export class MarketsFileSource extends TableMarketSource {
  /** Pools added by `add` (POST /markets), held until the service stops. */
  private readonly addedMarkets = new Set<string>();
  /** Programs the current MARKETS_FILE lists whole (a snapshot's): discovery leaves them out. */
  private snapshotPrograms: ReadonlySet<string> = new Set();
  private watching: string | undefined;

  constructor(private readonly options: MarketsFileSourceOptions) {
    super(options.changed);
  }

  /** Loads the file (if configured) and watches it; a bad file later is reported, not fatal. */
  async start(): Promise<void> {
    const file = this.options.file;
    if (!file) return;
    await this.reload();
    this.watching = file;
    watchFile(file, { interval: MARKETS_FILE_POLL_MS, persistent: false }, () => {
      this.reload().catch((error: unknown) => this.options.onError(error, `reloading ${file}`));
    });
  }

  /** Whether the file lists the program (base58) whole. */
  listsWhole(program: string): boolean {
    return this.snapshotPrograms.has(program);
  }

  /** Reads the file again: its markets replace the previous file's. */
  async reload(): Promise<AddMarketsResult> {
    const file = this.options.file;
    if (!file) return { added: [], refused: [] };
    const content = parseMarketsFileContent(file, await readFile(file, "utf8"));
    const resolved = await resolveMarkets(this.options.chain, this.options.adapters, content.addresses, "file");
    const listed = snapshotMarkets(this.options.adapters, content.markets);
    const result = { added: [...listed.added, ...resolved.added], refused: [...listed.refused, ...resolved.refused] };
    this.snapshotPrograms = new Set(content.completePrograms);
    // A re-dumped snapshot costs the pairs whose pools changed only.
    this.table.replace("file", undefined, result.added);
    for (const r of result.refused) this.options.onError(new Error(`${r.address}: ${r.reason}`), `loading ${file}`);
    return result;
  }

  /**
   * Adds pools by address (POST /markets); each is read to learn its AMM and mints. Past `addedMax`
   * pools added in all, a new address is refused with why (one the index holds is answered as added);
   * with no room at all, nothing is read and LIMIT_REACHED is raised.
   */
  async add(addresses: readonly string[]): Promise<AddMarketsResult> {
    const max = this.options.addedMax;
    const full = `the service holds the ${max} pools it may add (MARKETS_ADDED_MAX)`;
    if (this.addedMarkets.size >= max && addresses.some((a) => !this.table.has(a))) {
      throw new ValidationError("body", "pool_addresses", `${full}; no more can be added until it restarts`, "LIMIT_REACHED");
    }
    const result = await resolveMarkets(this.options.chain, this.options.adapters, addresses, "added");
    const added: Market[] = [];
    const refused = [...result.refused];
    for (const market of result.added) {
      if (this.table.has(market.addressText)) {
        added.push(market);
      } else if (this.addedMarkets.size < max) {
        this.addedMarkets.add(market.addressText);
        this.table.set(market);
        added.push(market);
      } else {
        refused.push({ address: market.addressText, reason: full });
      }
    }
    return { added, refused };
  }

  close(): void {
    if (this.watching) unwatchFile(this.watching);
    this.watching = undefined;
  }
}
