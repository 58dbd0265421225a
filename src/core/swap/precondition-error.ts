/**
 * The request is well formed but the chain does not allow it: an unknown AMM, a pool that is
 * missing or does not trade the step's mints, a missing mint. The API maps it once to
 * FAILED_PRECONDITION (REST: 400 `FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS`).
 */
export class SwapPreconditionError extends Error {
  override readonly name = "SwapPreconditionError";

  constructor(
    message: string,
    readonly step?: { readonly index: number; readonly ammKey: string; readonly label: string },
  ) {
    super(step ? `routePlan[${step.index}] (ammKey ${step.ammKey}, label "${step.label}"): ${message}` : message);
  }
}
