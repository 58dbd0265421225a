import bs58 from "bs58";
import type { GetProgramAccountsFilter } from "@solana/web3.js";
import type { PoolMintLayout } from "../amm/adapter.js";
import { ammAdapters } from "../amm/registry.js";
import { base58Of } from "../solana/base58-strings.js";

export type { PoolMintLayout };

/**
 * Pool size and mint offsets by AMM program (base58), for finding a token pair's pools with
 * `getProgramAccounts` + `memcmp` filters: each adapter's own `poolMintLayout` (derived from its
 * decoder). Only AMMs that can quote are searched (math, or their program through the program
 * quoter): pools found for the others could not be quoted, and each AMM costs two
 * `getProgramAccounts` per new token (chain/market-index.ts). The market index is given the adapters in use (a program-quoted
 * AMM only when the program quoter runs).
 */
export const POOL_MINT_LAYOUTS: Readonly<Record<string, PoolMintLayout>> = Object.fromEntries(
  ammAdapters
    .filter((adapter) => adapter.quote !== undefined || adapter.quotedByProgram === true)
    .map((adapter) => [base58Of(adapter.programId), adapter.poolMintLayout]),
);

/** `bytes` XORed with the layout's mint mask (its own inverse), or `bytes` when the program masks nothing. */
export function maskedMint(layout: PoolMintLayout, bytes: Uint8Array): Uint8Array {
  const mask = layout.mintMask;
  if (!mask) return bytes;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[i] ^ mask[i % mask.length];
  return out;
}

/** A `memcmp` filter matching `mint` (base58) at `offset` as the program stores it (masked where it masks). */
export function mintFilter(layout: PoolMintLayout, offset: number, mint: string): GetProgramAccountsFilter {
  return { memcmp: { offset, bytes: layout.mintMask ? bs58.encode(maskedMint(layout, bs58.decode(mint))) : mint } };
}

/**
 * The getProgramAccounts filters that select a program's pool accounts: their size, and their
 * discriminator where the program marks its account kinds.
 */
export function poolAccountFilters(layout: PoolMintLayout): GetProgramAccountsFilter[] {
  const filters: GetProgramAccountsFilter[] = layout.dataSize === undefined ? [] : [{ dataSize: layout.dataSize }];
  if (layout.discriminator) filters.push({ memcmp: { offset: 0, bytes: bs58.encode(Uint8Array.from(layout.discriminator)) } });
  return filters;
}

/**
 * The filters a program subscription follows pools by: their size alone where pools have one (an
 * account written before its pool is initialised still reaches the index), else the discriminator.
 */
export function poolSubscriptionFilters(layout: PoolMintLayout): GetProgramAccountsFilter[] {
  return layout.dataSize === undefined ? poolAccountFilters(layout) : [{ dataSize: layout.dataSize }];
}
