import { AmmError } from "./adapter.js";
import type { AmmAdapter } from "./adapter.js";

/**
 * An AMM's adapter with the checks every AMM shares, made in this one place: the pool account
 * belongs to the AMM's program, and a swap mode the AMM does not support (ExactOut) is refused
 * before any of the AMM's own code runs. Every file in core/amm ends with one of these.
 */
export function defineAmmAdapter<Pool>(amm: AmmAdapter<Pool>): AmmAdapter<Pool> {
  return {
    ...amm,
    decodePool(account) {
      if (!account.owner.equals(amm.programId)) {
        throw new AmmError(`${account.address.toBase58()} is not owned by ${amm.label} (${amm.programId.toBase58()})`);
      }
      return amm.decodePool(account);
    },
    build(pool, params, accounts) {
      if (params.swapMode === "ExactOut" && !amm.supportsExactOut) {
        throw new AmmError(`${amm.label} does not support ExactOut`);
      }
      return amm.build(pool, params, accounts);
    },
  };
}
