/**
 * Which of the injected adapters' programs can be searched for pools, and by which layout: an AMM
 * that can quote (math, or its program through the program quoter) and its own `poolMintLayout`.
 * Pools found for the others could not be quoted, and each searched program costs two
 * `getProgramAccounts` per new token. Read from the adapters given, never from a global table, so a
 * catalog sees exactly the AMMs it was handed.
 */
import type { AnyAmmAdapter, PoolMintLayout } from "../core/amm/adapter.js";

export function searchLayoutOf(adapter: AnyAmmAdapter): PoolMintLayout | undefined {
  return adapter.quote !== undefined || adapter.quotedByProgram === true ? adapter.poolMintLayout : undefined;
}
