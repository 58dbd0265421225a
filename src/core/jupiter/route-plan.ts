import { getStructCodec, getU8Codec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import type { SwapVariant } from "./swap-variant.js";
import { getSwapCodec } from "./swap-codec.js";

/** The V1 route instructions take the platform fee as one byte of basis points (`platformFeeBps: u8`). */
export const MAX_PLATFORM_FEE_BPS = 255;

/** One step of a V1 route plan: which AMM, which share of the input slot, which token slots. */
export interface RoutePlanStep {
  readonly swap: SwapVariant;
  /** Share (0–100) of the input slot's amount this step consumes. */
  readonly percent: number;
  /** Token slot the step reads: 0 = source, intermediates 1..n, last = destination. */
  readonly inputIndex: number;
  readonly outputIndex: number;
}

export function getRoutePlanStepCodec(): Codec<RoutePlanStep> {
  return getStructCodec([
    ["swap", getSwapCodec()],
    ["percent", getU8Codec()],
    ["inputIndex", getU8Codec()],
    ["outputIndex", getU8Codec()],
  ]);
}
