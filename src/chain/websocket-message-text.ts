import type { RawData } from "ws";

/** A websocket message's text. ws hands over a Buffer (its default binaryType), or fragments, or an ArrayBuffer. */
export function messageText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString("utf8");
  return (raw instanceof ArrayBuffer ? Buffer.from(raw) : raw).toString("utf8");
}
