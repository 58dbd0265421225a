/**
 * Swap API v2 errors follow the service's one mapping (server/error-mapping.ts): handlers throw,
 * the Connect interceptor and the REST dispatch answer. One exception, Jupiter's `/execute` body
 * for a refused transaction (nothing was sent): REST 400 `{status: "Failed", error, code}` with
 * Jupiter's execute code in `code` — -1002 not the issued transaction (or a bad requestId), -1003
 * a signature missing or invalid, -1004 expired blockhash. Over Connect the same refusal is the
 * table's INVALID_ARGUMENT.
 */
import { ValidationError } from "../../core/validation-error.js";
import type { RestResponse } from "../../server/rest.js";
import { refusalCode } from "./swap-execute.js";

/** The REST answer of a refused execute, or undefined for anything else (left to the one mapping). */
export function executeRefusalResponse(error: unknown): RestResponse | undefined {
  if (!(error instanceof ValidationError)) return undefined;
  return { status: 400, body: { status: "Failed", error: error.message, code: refusalCode(error) } };
}
