import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "../amm/adapter.js";
import type { AnyAmmAdapter } from "../amm/adapter.js";
import { adapterForOwner } from "../amm/registry.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { SwapPreconditionError } from "./precondition-error.js";
import type { ParsedRouteStep, ParsedSwapRequest } from "./request.js";
import { base58Of } from "../solana/base58-strings.js";
import { perAccountVersion } from "../solana/per-account-version.js";

/** A route step's pool, decoded by its AMM's adapter. */
export interface RoutePool {
  readonly adapter: AnyAmmAdapter;
  readonly pool: unknown;
}

/**
 * Decoded pools whose adapter says `poolIsImmutable`, by ammKey; owned by the caller (a Map, or a
 * BoundedLruMap so that the pools clients name cannot grow it without bound).
 */
export interface ImmutablePoolCache {
  get(ammKey: string): RoutePool | undefined;
  has(ammKey: string): boolean;
  set(ammKey: string, pool: RoutePool): void;
}

/**
 * Pools decoded so far, per adapter and account object: the live account cache hands out the same
 * object until a new version of the account arrives, so a pool is decoded once per version, not
 * once per request (a fresh read is a new object and is decoded again).
 */
const decodersByAdapter = new WeakMap<AnyAmmAdapter, (account: AccountData) => RoutePool>();

function decodedByVersion(adapter: AnyAmmAdapter): (account: AccountData) => RoutePool {
  let decode = decodersByAdapter.get(adapter);
  if (decode === undefined) {
    decode = perAccountVersion((account) => ({ adapter, pool: adapter.decodePool(account) }));
    decodersByAdapter.set(adapter, decode);
  }
  return decode;
}

export function stepOf(step: ParsedRouteStep, index: number) {
  return { index, ammKey: base58Of(step.ammKey), label: step.label };
}

/**
 * Each step's pool: from the cache, or decoded from `accounts` by the adapter of its owner
 * program (immutable ones are remembered in the cache). Throws SwapPreconditionError naming the
 * step for a missing pool, an unknown owner, a pool that is not the adapter's, or wrong mints.
 */
export function decodeRoutePools(
  parsed: ParsedSwapRequest,
  accounts: AccountMap,
  cache?: ImmutablePoolCache,
  adapterFor: (owner: PublicKey) => AnyAmmAdapter | undefined = adapterForOwner,
): RoutePool[] {
  return parsed.quote.routePlan.map((step, index) => {
    const key = base58Of(step.ammKey);
    let routePool = cache?.get(key);
    if (routePool === undefined) {
      const account = accounts.get(key);
      if (!account) throw new SwapPreconditionError("POOL_NOT_FOUND", "pool account not found", stepOf(step, index));
      const adapter = adapterFor(account.owner);
      if (!adapter) {
        throw new SwapPreconditionError("UNSUPPORTED_AMM", `unsupported AMM (owner program ${base58Of(account.owner)})`, stepOf(step, index));
      }
      try {
        routePool = decodedByVersion(adapter)(account);
      } catch (error) {
        if (error instanceof AmmError) throw new SwapPreconditionError(error.code, error.message, stepOf(step, index), { cause: error });
        throw error;
      }
      if (adapter.poolIsImmutable) cache?.set(key, routePool);
    }
    const [a, b] = routePool.adapter.mints(routePool.pool);
    const trades = (x: PublicKey, y: PublicKey) => (x.equals(a) && y.equals(b)) || (x.equals(b) && y.equals(a));
    if (!trades(step.inputMint, step.outputMint)) {
      throw new SwapPreconditionError(
        "POOL_MINTS_MISMATCH",
        `pool trades ${base58Of(a)}/${base58Of(b)}, not ${base58Of(step.inputMint)} -> ${base58Of(step.outputMint)}`,
        stepOf(step, index),
      );
    }
    return routePool;
  });
}
