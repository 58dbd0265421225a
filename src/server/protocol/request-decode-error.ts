/**
 * A request message that is not valid protobuf is the caller's fault: INVALID_ARGUMENT (Connect
 * HTTP 400), with a message naming the message type and protobuf-es's reason
 * (`cannot decode message swapd.swap.v1.SwapInstructionsRequest from protobuf binary: premature EOF`).
 *
 * connect-es 2.1.2 raises `ConnectError("parse binary: …", INTERNAL)` from its binary
 * serialization, which it uses for requests and responses alike and which takes no hook (its
 * `binaryOptions` go straight to `fromBinary`). Undecodable JSON is already INVALID_ARGUMENT.
 * Two places see the error:
 * - streaming methods (health Watch, WatchTriggerOrders, reflection) read their request messages
 *   inside the interceptor chain: the interceptor here converts errors thrown while reading them;
 * - unary methods get their one message decoded before any interceptor runs: decode-error-stage.ts
 *   rewrites their answer on its way out.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

const PARSE_BINARY = "parse binary: ";

/** The INVALID_ARGUMENT for connect-es's binary decode failure of a `typeName` request; undefined for any other error. */
export function requestDecodeError(error: unknown, typeName: string): ConnectError | undefined {
  if (!(error instanceof ConnectError) || error.code !== Code.Internal || !error.rawMessage.startsWith(PARSE_BINARY)) return undefined;
  const reason = error.rawMessage.slice(PARSE_BINARY.length);
  return new ConnectError(`cannot decode message ${typeName} from protobuf binary: ${reason}`, Code.InvalidArgument);
}

/** Converts decode failures of streamed request messages (read inside the interceptor chain). */
export function createRequestDecodeInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (!req.stream) return next(req);
    const source = req.message;
    const typeName = req.method.input.typeName;
    const message = (async function* () {
      try {
        yield* source;
      } catch (e) {
        throw requestDecodeError(e, typeName) ?? e;
      }
    })();
    return next({ ...req, message });
  };
}
