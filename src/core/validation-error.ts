/**
 * Bad input, found before anything is read or sent. `field` is the request path as the client
 * wrote it (`quoteResponse.routePlan[1].swapInfo.inputMint`), `rule` a stable machine name
 * (`public_key`, `u64`, ...). The API maps it once: INVALID_ARGUMENT / HTTP 400.
 */
export class ValidationError extends Error {
  override readonly name = "ValidationError";

  constructor(
    readonly field: string,
    readonly rule: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}
