/**
 * Per-call observation: each call gets a request id (echoed in `x-request-id`) and a procedure
 * label, and when its response closes, one metrics sample and one log line.
 */
import { performance } from "node:perf_hooks";
import type { Logger } from "pino";
import type { CallInfo } from "./context.js";
import { callCode, labelCall, protocolOf, requestIdFrom } from "./call-labels.js";
import { hookGrpcStatus } from "./grpc-status-hook.js";
import { resetHalfOpenStreamAfterResponse } from "./half-open-stream.js";
import { observeCall } from "./metrics.js";
import type { NodeRequest, NodeResponse, RestRouter } from "./rest.js";

export interface CallObserverOptions {
  readonly logger: Logger;
  /** `/pkg.Service/Method` of every served procedure. */
  readonly rpcPaths: ReadonlySet<string>;
  /** The REST routes, to label REST calls by route. */
  readonly rest: RestRouter;
}

/** Starts observing one call at `path`; returns the call's info, which handlers see in their context. */
export type CallObserver = (req: NodeRequest, res: NodeResponse, path: string) => CallInfo;

export function createCallObserver({ logger, rpcPaths, rest }: CallObserverOptions): CallObserver {
  return (req, res, path) => {
    // A float clock: a bigint one allocates twice per call.
    const started = performance.now();
    const { procedure, kind } = labelCall(req.method, path, rpcPaths, rest);
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    const info: CallInfo = { requestId, procedure };
    res.setHeader("x-request-id", requestId);
    // REST calls are coded by their HTTP status: only RPCs need the gRPC status of what they wrote.
    const grpcStatus = kind === "rpc" ? hookGrpcStatus(res) : undefined;
    resetHalfOpenStreamAfterResponse(req);

    res.once("close", () => {
      const seconds = (performance.now() - started) / 1e3;
      const code = callCode(kind, info.code, grpcStatus?.status(), res.statusCode);
      observeCall(procedure, kind, code, seconds);
      // Server faults are warnings; 501 (a placeholder route) and client errors are not.
      const serverFault = kind === "rest" ? res.statusCode >= 500 && res.statusCode !== 501 : code === "internal" || code === "unknown" || code === "data_loss";
      // Ordinary calls (health checks and probes included) are a line at debug: the default info level
      // keeps the log to what happens to the service; LOG_LEVEL=debug shows every call. The line is
      // built only when its level is logged.
      if (!logger.isLevelEnabled(serverFault ? "warn" : "debug")) return;
      const line = {
        requestId,
        procedure: procedure === "unmatched" || procedure === "unknown" ? `${req.method} ${path}` : procedure,
        kind,
        protocol: protocolOf(req, kind),
        httpVersion: req.httpVersion,
        status: res.statusCode,
        code,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        aborted: !res.writableFinished || undefined,
        caller: info.caller,
      };
      if (serverFault) logger.warn(line, "call");
      else logger.debug(line, "call");
    });
    return info;
  };
}
