/**
 * `grpc-message` as the gRPC spec encodes it: percent-encode only the bytes outside 0x20–0x7E and
 * `%` itself. connect-es encodes with `encodeURIComponent`, which clients that decode with
 * `decodeURI` (grpc-js) leave half-decoded: `inAmount%3A must be…`.
 */
export function specEncodedGrpcMessage(connectEncoded: string): string {
  let text: string;
  try {
    text = decodeURIComponent(connectEncoded);
  } catch {
    // Not percent-encoded as connect-es encodes (a stray `%`): already plain text, sent as is.
    return connectEncoded;
  }
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Rewrites `grpc-message` in a header or trailer object in place. */
export function fixGrpcMessageHeader(headers: Record<string, unknown> | undefined): void {
  const value = headers?.["grpc-message"];
  if (typeof value === "string") headers!["grpc-message"] = specEncodedGrpcMessage(value);
}
