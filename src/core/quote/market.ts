/** A market (pool) the router may use, as the market index knows it: enough to plan without its state. */
import type { PublicKey } from "@solana/web3.js";
import type { AnyAmmAdapter } from "../amm/adapter.js";
import type { AccountData } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";

/**
 * Where the index learnt of the market: `getProgramAccounts` by token or pair, `MARKETS_FILE`,
 * `POST /markets`, or its program listed whole by the service (MARKET_LISTING).
 */
export type MarketSource = "discovered" | "file" | "added" | "listed";

export interface Market {
  readonly address: PublicKey;
  readonly addressText: string;
  /** The AMM program owning the pool account. */
  readonly programId: PublicKey;
  readonly label: string;
  /** The pool's mints (base58) in the pool's order. */
  readonly mints: readonly [string, string];
  readonly source: MarketSource;
}

/** One key per unordered pair. */
export function pairKey(x: string, y: string): string {
  return x < y ? `${x}|${y}` : `${y}|${x}`;
}

/**
 * Pair keys by mints tuple. A market keeps its tuple for life and the pools a plan binds to it
 * share it, so a market's key is built once, not per request (and, being the same string, not
 * hashed again by each map it is looked up in).
 */
const pairKeys = new WeakMap<readonly [string, string], string>();

/** `pairKey` of an item's mints (a market, or a pool carrying its market's mints). */
export function pairKeyOf(item: { readonly mints: readonly [string, string] }): string {
  let key = pairKeys.get(item.mints);
  if (key === undefined) {
    key = pairKey(item.mints[0], item.mints[1]);
    pairKeys.set(item.mints, key);
  }
  return key;
}

/** Items (markets, or pools carrying their mints) grouped by pair key, in first-seen order. */
export function groupByPair<T extends { readonly mints: readonly [string, string] }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = pairKeyOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

/**
 * The market a pool account is, by its owner's adapter (`adapters` by base58 program id), or why
 * it is none (not a supported program, or not a pool of it).
 */
export function marketOfAccount(adapters: ReadonlyMap<string, AnyAmmAdapter>, account: AccountData, source: MarketSource): Market | string {
  const adapter = adapters.get(base58Of(account.owner));
  if (!adapter) return `owned by ${base58Of(account.owner)}, not a supported AMM program`;
  try {
    const pool = adapter.decodePool(account);
    const [a, b] = adapter.mints(pool);
    return {
      address: account.address,
      addressText: base58Of(account.address),
      programId: adapter.programId,
      label: adapter.label,
      mints: [base58Of(a), base58Of(b)],
      source,
    };
  } catch (error) {
    // Whatever the decoder refuses the account with is the reason it is not listed (reported to the operator).
    return `not a ${adapter.label} pool: ${(error as Error).message}`;
  }
}
