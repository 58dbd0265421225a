import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import type { CallInfo } from "./context.js";
import { callInfoKey } from "./context.js";
import { logUnexpected, toConnectError } from "./error-mapping.js";

/**
 * The one place Connect calls (gRPC, gRPC-web, Connect) turn errors into answers: whatever a
 * handler throws — also inside a stream — becomes its Connect error by the table in
 * `error-mapping.ts`, the call's code is recorded in its CallInfo, and server faults (INTERNAL,
 * UNKNOWN) are logged with the request id.
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
            throw answered(e, info, logger);
          }
        })(),
      };
    } catch (e) {
      throw answered(e, info, logger);
    }
  };
}

function answered(thrown: unknown, info: CallInfo | undefined, logger: Logger): ConnectError {
  const err = toConnectError(thrown);
  if (info) info.code = err.code;
  if (err.code === Code.Internal || err.code === Code.Unknown) {
    logUnexpected(logger, thrown, { requestId: info?.requestId, procedure: info?.procedure });
  }
  return err;
}
