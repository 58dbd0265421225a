/**
 * The delay an HTTP `Retry-After` header asks for (RFC 9110 §10.2.3): delta-seconds or an
 * HTTP-date. Undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
