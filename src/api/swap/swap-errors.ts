/**
 * The ONE mapping of the swap operation's errors, to Connect codes and to Jupiter's REST bodies:
 *
 * | error                                   | Connect             | REST                                                  |
 * |-----------------------------------------|---------------------|-------------------------------------------------------|
 * | ValidationError (bad input)             | INVALID_ARGUMENT    | 400 `INVALID_REQUEST` (or the rule's Jupiter code)    |
 * | SwapPreconditionError, AmmError         | FAILED_PRECONDITION | 400 `FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS`            |
 * | NoRouteError (quote)                    | NOT_FOUND           | 400 `COULD_NOT_FIND_ANY_ROUTE`                        |
 * | TransactionTooLargeError (swap)         | FAILED_PRECONDITION | 400 `TRANSACTION_TOO_LARGE`                           |
 * | ChainError (RPC unreachable / refused)  | UNAVAILABLE         | 503 `RPC_CLIENT_ERROR`                                |
 * | anything else                           | INTERNAL            | 500 `INTERNAL_ERROR`                                  |
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ChainError } from "../../chain/chain-errors.js";
import { AmmError } from "../../core/amm/adapter.js";
import { SwapPreconditionError } from "../../core/swap/precondition-error.js";
import { ValidationError } from "../../core/validation-error.js";
import { NoRouteError } from "../quote/no-route-error.js";
import { TransactionTooLargeError } from "../quote/transaction-too-large-error.js";
import { restError } from "../../server/rest.js";
import type { RestResponse } from "../../server/rest.js";

/** Jupiter's compose error code for a route step that cannot be turned into accounts. */
export const FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS = "FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS";

/** Validation rules that have a documented Jupiter error code of their own. */
const JUPITER_CODE_OF_RULE: Readonly<Record<string, string>> = {
  INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE: "INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE",
};

interface SwapErrorClass {
  readonly code: Code;
  readonly status: number;
  readonly errorCode: string;
  readonly message: string;
}

function classify(error: unknown): SwapErrorClass {
  if (error instanceof ConnectError) {
    return { code: error.code, status: 500, errorCode: "INTERNAL_ERROR", message: error.rawMessage };
  }
  if (error instanceof ValidationError) {
    return {
      code: Code.InvalidArgument,
      status: 400,
      errorCode: JUPITER_CODE_OF_RULE[error.rule] ?? "INVALID_REQUEST",
      message: error.message,
    };
  }
  if (error instanceof NoRouteError) {
    return { code: Code.NotFound, status: 400, errorCode: error.errorCode, message: error.message };
  }
  if (error instanceof TransactionTooLargeError) {
    return { code: Code.FailedPrecondition, status: 400, errorCode: error.errorCode, message: error.message };
  }
  if (error instanceof SwapPreconditionError || error instanceof AmmError) {
    return { code: Code.FailedPrecondition, status: 400, errorCode: FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS, message: error.message };
  }
  if (error instanceof ChainError) {
    return { code: Code.Unavailable, status: 503, errorCode: "RPC_CLIENT_ERROR", message: `RPC client error: ${error.message}` };
  }
  return { code: Code.Internal, status: 500, errorCode: "INTERNAL_ERROR", message: "internal error" };
}

/** A swap error as the Connect error its handler throws (gRPC, gRPC-web and Connect alike). */
export function swapConnectError(error: unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  const c = classify(error);
  return new ConnectError(c.message, c.code, undefined, undefined, error);
}

/** A swap error as Jupiter's REST error body `{error, errorCode, code}` with its HTTP status. */
export function swapRestError(error: unknown): RestResponse {
  const c = classify(error);
  return restError(c.status, c.message, { errorCode: c.errorCode });
}

/** True for errors that are the server's fault (worth logging), not the caller's or the chain's. */
export function isInternalSwapError(error: unknown): boolean {
  return classify(error).code === Code.Internal;
}
