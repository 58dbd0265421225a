import { EXACT_OUT_SWAP_VARIANTS } from "../jupiter/exact-out-variants.js";
import { AmmError } from "./adapter.js";
import type { AmmAdapter, SwapMode } from "./adapter.js";

/**
 * An AMM's adapter with the checks every AMM shares, made in this one place: the pool account
 * belongs to the AMM's program, a swap mode the AMM does not support (ExactOut) is refused
 * before any of the AMM's own code runs, and an ExactOut step whose variant Jupiter's exact-out
 * routes do not execute is refused after the build picked it. Every file in core/amm ends with one of these.
 */
/** How an AMM that cannot swap in a mode refuses it (swap-instructions, and a quote no route fills). */
export function unsupportedSwapModeMessage(label: string, swapMode: SwapMode): string {
  return `${label} does not support ${swapMode}`;
}

export function defineAmmAdapter<Pool>(amm: AmmAdapter<Pool>): AmmAdapter<Pool> {
  return {
    ...amm,
    decodePool(account) {
      if (!account.owner.equals(amm.programId)) {
        throw new AmmError(`${account.address.toBase58()} is not owned by ${amm.label} (${amm.programId.toBase58()})`, "AMM_NOT_A_POOL");
      }
      return amm.decodePool(account);
    },
    build(pool, params, accounts) {
      if (params.swapMode === "ExactOut" && !amm.supportsExactOut) {
        throw new AmmError(unsupportedSwapModeMessage(amm.label, "ExactOut"), "AMM_UNSUPPORTED_SWAP_MODE");
      }
      const built = amm.build(pool, params, accounts);
      if (params.swapMode === "ExactOut" && !EXACT_OUT_SWAP_VARIANTS.has(built.swap.kind)) {
        throw new AmmError(`${amm.label} ExactOut: Jupiter's exact_out_route does not execute a ${built.swap.kind} step`, "AMM_UNSUPPORTED_SWAP_MODE");
      }
      return built;
    },
  };
}
