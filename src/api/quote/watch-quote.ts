/**
 * WatchQuote: one quote request kept open. The first answer comes at once; after that the quote is
 * computed again whenever an account it read (its pools, tick/bin arrays, vaults) changes or leaves
 * the live cache (evicted or idle: read again by that quote, it is followed again) — notified by the
 * account source — and once every `pollMs` for markets that
 * appear; a new answer is sent only when it differs from the last one sent (amounts or route), and
 * at most every `minIntervalMs`. "No route" is sent as a message with `error`, and the stream goes
 * on; bad input ends it with INVALID_ARGUMENT before anything is read.
 */
import type { ParsedQuoteRequest, QuoteRequestInput } from "../../core/quote/quote-request.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { parseOptionalIntegerInRange } from "../../core/request-fields.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { ERROR_MAPPING } from "../../server/error-mapping.js";
import { NoRouteError } from "./no-route-error.js";
import { CLOCK_SYSVAR } from "../../core/solana/clock-sysvar.js";
import type { AccountSource } from "../../chain/account-source.js";
import type { QuoteEngine } from "./quote-engine.js";

export const DEFAULT_WATCH_MIN_INTERVAL_MS = 400;
/** Re-quote this often even without change notifications (new markets; sources without notifications). */
export const DEFAULT_WATCH_POLL_MS = 5_000;

export type WatchQuoteEvent = { readonly quote: QuoteResponseJson } | { readonly error: string };

export interface WatchQuoteOptions {
  readonly pollMs?: number;
  readonly now?: () => number;
}

/** What makes two quotes the same answer: everything but when and how fast it was computed. */
function answerKey(q: QuoteResponseJson): string {
  return JSON.stringify({ ...q, contextSlot: 0, timeTaken: 0 });
}

export function parseWatchQuote(
  engine: QuoteEngine,
  quote: QuoteRequestInput | undefined,
  minIntervalMs: unknown,
): { request: ParsedQuoteRequest; minIntervalMs: number } {
  const request = engine.parse(quote ?? {});
  return {
    request,
    minIntervalMs: parseOptionalIntegerInRange("minIntervalMs", minIntervalMs, 0, 60_000, "nullish-or-empty") ?? DEFAULT_WATCH_MIN_INTERVAL_MS,
  };
}

export async function* watchQuotes(
  engine: QuoteEngine,
  accounts: AccountSource,
  request: ParsedQuoteRequest,
  minIntervalMs: number,
  signal: AbortSignal,
  options: WatchQuoteOptions = {},
): AsyncGenerator<WatchQuoteEvent> {
  const now = options.now ?? Date.now;
  const clock = base58Of(CLOCK_SYSVAR);
  let watched = new Set<string>();
  let dirty = true;
  let wake: (() => void) | undefined;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = accounts.changes?.onChange((address) => {
    if (watched.has(address)) poke();
  });
  const poll = setInterval(poke, Math.max(options.pollMs ?? DEFAULT_WATCH_POLL_MS, minIntervalMs));
  poll.unref();
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  let lastKey: string | undefined;
  let lastSentAt = -Infinity;
  try {
    while (!signal.aborted) {
      if (dirty) {
        const wait = lastSentAt + minIntervalMs - now();
        if (wait > 0) await sleep(wait, signal);
        if (signal.aborted) break;
        dirty = false;
        try {
          const outcome = await engine.quoteParsed(request, { accountsRead: true });
          watched = new Set((outcome.accountsRead ?? []).filter((a) => a !== clock));
          const key = answerKey(outcome.response);
          if (key !== lastKey) {
            lastKey = key;
            lastSentAt = now();
            yield { quote: outcome.response };
          }
        } catch (error) {
          if (!(error instanceof NoRouteError)) throw error;
          const key = `error:${error.message}`;
          if (key !== lastKey) {
            lastKey = key;
            lastSentAt = now();
            yield { error: `${ERROR_MAPPING.NO_ROUTE.errorCode}: ${error.message}` };
          }
        }
      }
      if (!dirty) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    unsubscribe?.();
    clearInterval(poll);
    signal.removeEventListener("abort", onAbort);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}
