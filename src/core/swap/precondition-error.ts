import { SwapdError } from "../swapd-error.js";
import type { AmmErrorCode, PreconditionErrorCode, RouteStepRef } from "../swapd-error.js";

/**
 * The request is well formed but the chain does not allow it: an unknown AMM, a pool that is
 * missing or does not trade the step's mints, a missing mint, or an AMM's own refusal of the step
 * (its code kept). The message names the route step when there is one.
 */
export class SwapPreconditionError extends SwapdError<PreconditionErrorCode | AmmErrorCode> {
  override readonly name = "SwapPreconditionError";

  constructor(code: PreconditionErrorCode | AmmErrorCode, message: string, step?: RouteStepRef, options?: { cause?: unknown }) {
    super(code, step ? { step } : {}, step ? `routePlan[${step.index}] (ammKey ${step.ammKey}, label "${step.label}"): ${message}` : message, options);
  }

  get step(): RouteStepRef | undefined {
    return this.context.step;
  }
}
