import { Code, ConnectError } from "@connectrpc/connect";
import { ChainError, ChainUnavailableError } from "../../chain/chain-errors.js";
import { ValidationError } from "../../core/validation-error.js";
import { RestError } from "../../server/rest.js";

/**
 * The errors of the listing/watching handlers, mapped once for Connect and once for the REST path:
 * bad input → INVALID_ARGUMENT / 400 naming the field; RPC trouble → UNAVAILABLE / 503.
 * Anything else is rethrown (INTERNAL / 500, logged by the server).
 */
export function toListingConnectError(error: unknown): unknown {
  if (error instanceof ConnectError) return error;
  if (error instanceof ValidationError) return new ConnectError(error.message, Code.InvalidArgument);
  if (error instanceof ChainError) return new ConnectError(error.message, Code.Unavailable, undefined, undefined, error);
  return error;
}

export function toListingRestError(error: unknown): unknown {
  if (error instanceof RestError) return error;
  if (error instanceof ValidationError) return new RestError(400, error.message);
  if (error instanceof ChainUnavailableError || error instanceof ChainError) return new RestError(503, error.message);
  return error;
}
