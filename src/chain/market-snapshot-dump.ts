/**
 * A market snapshot read from the RPC once: one getProgramAccounts per AMM program, filtered by the
 * pool account's size (`dataSize`) and discriminator (where the program has one), and sliced to the
 * bytes between its two mints (`dataSlice`), so the node sends each pool's address and mints and
 * nothing else (Whirlpool: 112 of 653 bytes; Raydium CP: 64 of 637). Layouts come from each adapter's own `poolMintLayout` (`searchLayoutOf`).
 */
import { PublicKey } from "@solana/web3.js";
import { AmmError } from "../core/amm/adapter.js";
import type { AnyAmmAdapter, PoolMintLayout } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { searchLayoutOf } from "./market-pool-layouts.js";
import { maskedMint, poolAccountFilters } from "../core/quote/pool-mint-offsets.js";
import { MARKET_SNAPSHOT_VERSION } from "../core/quote/market-snapshot.js";
import type { MarketSnapshot, SnapshotMarket, SnapshotProgram } from "../core/quote/market-snapshot.js";
import type { SolanaChain } from "./solana-chain.js";

const MINT_BYTES = 32;
const DEFAULT_KEY = base58Of(PublicKey.default);

export interface MarketDumpOptions {
  readonly chain: SolanaChain;
  /** The AMMs to list (each must be searchable: `searchLayoutOf` gives its pool layout). */
  readonly adapters: readonly AnyAmmAdapter[];
  /** One attempt per program, this long at most (a mainnet program's scan takes tens of seconds). */
  readonly timeoutMs: number;
  readonly log?: (line: string) => void;
  readonly now?: () => Date;
}

export interface MarketDumpResult {
  readonly snapshot: MarketSnapshot;
  /** Programs the RPC did not list (left out of the snapshot), with why. */
  readonly failed: readonly { readonly programId: string; readonly label: string; readonly reason: string }[];
}

/** The bytes a scan asks for: from the first mint to the end of the last (the whole account when the pool holds one mint only). */
export function mintSlice(layout: PoolMintLayout): { offset: number; length: number } {
  const [first, second] = layout.mintOffsets;
  // A pool that holds one mint is read whole (such layouts have a fixed size).
  if (second === undefined) return { offset: 0, length: layout.dataSize ?? 0 };
  const offset = Math.min(first, second);
  return { offset, length: Math.max(first, second) + MINT_BYTES - offset };
}

/** The adapter's pool layout; an AMM without one cannot be listed (a usage error, not the RPC's). */
function layoutOf(adapter: AnyAmmAdapter): PoolMintLayout {
  const layout = searchLayoutOf(adapter);
  if (!layout) throw new Error(`${adapter.label} (${base58Of(adapter.programId)}): no pool layout to list its pools by`);
  return layout;
}

/** Every pool of one program, as a snapshot lists it; `withoutMints`: pool accounts whose mints are not set yet (left out). */
export interface ProgramListing {
  readonly markets: SnapshotMarket[];
  readonly withoutMints: number;
}

/**
 * One getProgramAccounts: every pool account of the adapter's program (its size and, where it has
 * one, its discriminator as filters), sliced to the mints. Throws what the RPC answered.
 */
export async function listProgramMarkets(chain: SolanaChain, adapter: AnyAmmAdapter, timeoutMs: number): Promise<ProgramListing> {
  const programId = base58Of(adapter.programId);
  const layout = layoutOf(adapter);
  const slice = mintSlice(layout);
  const whole = layout.mintOffsets[1] === undefined;
  const accounts = await chain.getProgramAccounts(adapter.programId, poolAccountFilters(layout), { timeoutMs, ...(whole ? {} : { dataSlice: slice }) });
  const markets: SnapshotMarket[] = [];
  let withoutMints = 0;
  for (const account of accounts) {
    // A pool that holds one of its mints only is decoded whole (its adapter finds the other).
    const market = whole ? marketOfPool(adapter, account, programId) : marketOfSlice(account.address, programId, account.data, layout, slice.offset);
    if (market) markets.push(market);
    else withoutMints++;
  }
  return { markets, withoutMints };
}

/** Lists every pool of each program, program by program; a program the RPC refuses is reported and left out. */
export async function dumpMarkets(options: MarketDumpOptions): Promise<MarketDumpResult> {
  const log = options.log ?? (() => {});
  const programs: SnapshotProgram[] = [];
  const markets: SnapshotMarket[] = [];
  const failed: { programId: string; label: string; reason: string }[] = [];
  for (const adapter of options.adapters) {
    const programId = base58Of(adapter.programId);
    const layout = layoutOf(adapter);
    const started = Date.now();
    log(`${adapter.label} (${programId}): getProgramAccounts, pools of ${layout.dataSize ?? "any number of"} bytes, ${mintSlice(layout).length} bytes of each`);
    try {
      const listing = await listProgramMarkets(options.chain, adapter, options.timeoutMs);
      markets.push(...listing.markets);
      programs.push({ programId, label: adapter.label, pools: listing.markets.length });
      const skipped = listing.withoutMints > 0 ? ` (${listing.withoutMints} without mints left out)` : "";
      log(`${adapter.label}: ${listing.markets.length} pools in ${((Date.now() - started) / 1000).toFixed(1)} s${skipped}`);
    } catch (error) {
      // Reported by program and left out of `programs`: the index keeps searching that program by pair.
      const reason = (error as Error).message;
      failed.push({ programId, label: adapter.label, reason });
      log(`${adapter.label}: not listed (${reason})`);
    }
  }
  const writtenAt = (options.now?.() ?? new Date()).toISOString();
  return { snapshot: { version: MARKET_SNAPSHOT_VERSION, writtenAt, programs, markets }, failed };
}

/** The market a whole pool account is, by its adapter; undefined for one the adapter does not decode. */
function marketOfPool(adapter: AnyAmmAdapter, account: AccountData, program: string): SnapshotMarket | undefined {
  try {
    const [a, b] = adapter.mints(adapter.decodePool(account));
    return { address: base58Of(account.address), program, mints: [base58Of(a), base58Of(b)] };
  } catch (error) {
    // Counted as a pool without mints (as a pool not initialised yet): the listing reports how many.
    if (error instanceof AmmError) return undefined;
    throw error;
  }
}

/**
 * The market a sliced pool account is; undefined for a pool whose mints are not set yet. A node
 * that ignored `dataSlice` sends the whole account, which is read at the layout's own offsets.
 */
function marketOfSlice(address: PublicKey, program: string, data: Uint8Array, layout: PoolMintLayout, sliceOffset: number): SnapshotMarket | undefined {
  const base = data.length === mintSlice(layout).length ? sliceOffset : 0;
  const [a, b] = layout.mintOffsets.map((offset = 0) => {
    const start = offset - base;
    if (start < 0 || start + MINT_BYTES > data.length) throw new Error(`${base58Of(address)}: the node sent ${data.length} bytes, not the slice asked for`);
    return new PublicKey(maskedMint(layout, data.subarray(start, start + MINT_BYTES))).toBase58();
  }) as [string, string];
  if (a === DEFAULT_KEY || b === DEFAULT_KEY) return undefined;
  return { address: base58Of(address), program, mints: [a, b] };
}
