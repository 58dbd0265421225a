/**
 * Errors of Swap API v2. Build and Order map as the swap API's (api/swap/swap-errors.ts). Execute
 * refusals (nothing was sent) answer Jupiter's `/execute` shape with its code: REST 400
 * `{status: "Failed", error, code}` (-1002 not the issued transaction, -1003 a signature missing
 * or invalid, -1004 expired blockhash), Connect INVALID_ARGUMENT; shutting down and RPC trouble
 * are 503 / UNAVAILABLE (the execution is recorded and resumes).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ChainError } from "../../chain/chain-errors.js";
import { ValidationError } from "../../core/validation-error.js";
import { restError } from "../../server/rest.js";
import type { RestResponse } from "../../server/rest.js";
import { isInternalSwapError, swapConnectError, swapRestError } from "../swap/swap-errors.js";
import { ExecutionInterruptedError } from "../trigger/trigger-errors.js";
import { refusalCode } from "./swap-execute.js";

export function executeConnectError(error: unknown): ConnectError {
  if (error instanceof ExecutionInterruptedError) return new ConnectError(error.message, Code.Unavailable);
  return swapConnectError(error);
}

/** REST body of a failed execute call; rethrows what is the server's fault (logged, 500). */
export function executeRestError(error: unknown): RestResponse {
  if (error instanceof ValidationError) return { status: 400, body: { status: "Failed", error: error.message, code: refusalCode(error) } };
  if (error instanceof ExecutionInterruptedError) {
    return restError(503, "service shutting down", { cause: error.message, signature: error.signature, status: "Failed" });
  }
  if (error instanceof ChainError) return restError(503, `RPC client error: ${error.message}`, { status: "Failed" });
  if (isInternalSwapError(error)) throw error;
  return swapRestError(error);
}

/** REST body of a failed build / order call (the swap API's mapping). */
export function buildRestError(error: unknown): RestResponse {
  if (isInternalSwapError(error)) throw error; // the server logs it and answers 500
  return swapRestError(error);
}
