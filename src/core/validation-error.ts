import { SwapdError } from "./swapd-error.js";
import type { InputErrorCode } from "./swapd-error.js";

/**
 * Bad input, found before anything is read or sent. `field` is the request path as the client
 * wrote it (`quoteResponse.routePlan[1].swapInfo.inputMint`), `rule` a stable machine name
 * (`public_key`, `u64`, ...). Coded `INVALID_INPUT` unless the failure has a code of its own
 * (`ORDER_NOT_FOUND`, `CONFLICTING_PRIORITY_FEE`); mapped in `server/error-mapping.ts`.
 */
export class ValidationError extends SwapdError<InputErrorCode> {
  override readonly name = "ValidationError";

  constructor(field: string, rule: string, detail: string, code: InputErrorCode = "INVALID_INPUT") {
    super(code, { field, rule }, `${field}: ${detail}`);
  }

  get field(): string {
    return this.context.field;
  }

  get rule(): string {
    return this.context.rule;
  }
}
