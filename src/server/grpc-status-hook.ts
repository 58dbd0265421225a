import { fixGrpcMessageHeader } from "./grpc-message.js";
import type { NodeResponse } from "./rest.js";

/** The gRPC status a response carried, once its headers or trailers are written. */
export interface GrpcStatusHook {
  /** `grpc-status` as written (a decimal code), or undefined if none was. */
  status(): string | undefined;
}

/** `grpc-status` of a header or trailer block as text (a header value is a string, a number or a list of strings). */
function statusOf(h: Record<string, unknown> | undefined): string | undefined {
  const value = h?.["grpc-status"];
  if (typeof value === "string" || typeof value === "number") return String(value);
  return Array.isArray(value) ? value.join(", ") : undefined;
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
    grpcStatus = statusOf(h) ?? grpcStatus;
    fixGrpcMessageHeader(h);
    return writeHead(...a);
  };
  const addTrailers = res.addTrailers.bind(res) as (h: Record<string, unknown>) => void;
  (res as { addTrailers: unknown }).addTrailers = (h: Record<string, unknown>) => {
    grpcStatus = statusOf(h) ?? grpcStatus;
    fixGrpcMessageHeader(h);
    addTrailers(h);
  };
  return { status: () => grpcStatus };
}
