import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DatabaseUnavailableError } from "../store/database-errors.js";
import { callInfoKey } from "./context.js";

/**
 * Records the code of calls that reach a handler in their CallInfo, including errors thrown
 * inside streams, and logs handler failures (INTERNAL, UNKNOWN) with their request id.
 */
export function createCallCodeInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const info = req.contextValues.get(callInfoKey);
    try {
      const res = await next(req);
      if (!res.stream) return res;
      const inner = res.message;
      return {
        ...res,
        message: (async function* () {
          try {
            yield* inner;
          } catch (e) {
            if (info) info.code = ConnectError.from(e).code;
            throw e;
          }
        })(),
      };
    } catch (thrown) {
      // Handlers map database faults themselves; this is the net for any that does not: UNAVAILABLE, never INTERNAL.
      const e = thrown instanceof DatabaseUnavailableError ? new ConnectError(thrown.message, Code.Unavailable, undefined, undefined, thrown) : thrown;
      const err = ConnectError.from(e);
      if (info) info.code = err.code;
      if (err.code === Code.Internal || err.code === Code.Unknown) {
        logger.error({ err: e, requestId: info?.requestId, procedure: info?.procedure }, "handler failed");
      }
      throw e;
    }
  };
}
