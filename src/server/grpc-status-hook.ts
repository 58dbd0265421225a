import { fixGrpcMessageHeader } from "./grpc-message.js";
import type { NodeResponse } from "./rest.js";

/** The gRPC status a response carried, once its headers or trailers are written. */
export interface GrpcStatusHook {
  /** `grpc-status` as written (a decimal code), or undefined if none was. */
  status(): string | undefined;
}

/**
 * Hooks `writeHead` (trailers-only responses carry the status in the headers) and `addTrailers`
 * of a response: records `grpc-status` for the call's metrics and log line, and re-encodes
 * `grpc-message` as the gRPC spec does (see grpc-message.ts).
 */
export function hookGrpcStatus(res: NodeResponse): GrpcStatusHook {
  let grpcStatus: string | undefined;
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => NodeResponse;
  (res as { writeHead: unknown }).writeHead = (...a: unknown[]) => {
    const h = a.find((x) => x && typeof x === "object") as Record<string, unknown> | undefined;
    if (h?.["grpc-status"] !== undefined) grpcStatus = String(h["grpc-status"]);
    fixGrpcMessageHeader(h);
    return writeHead(...a);
  };
  const addTrailers = res.addTrailers.bind(res) as (h: Record<string, unknown>) => void;
  (res as { addTrailers: unknown }).addTrailers = (h: Record<string, unknown>) => {
    if (h["grpc-status"] !== undefined) grpcStatus = String(h["grpc-status"]);
    fixGrpcMessageHeader(h);
    addTrailers(h);
  };
  return { status: () => grpcStatus };
}
