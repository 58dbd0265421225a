/** Which token pairs' markets a request can use, and the per-request leg request (pair-candidates.ts) the planner decides by. */
import { base58Of } from "../solana/base58-strings.js";
import type { Market } from "./market.js";
import { amountKeys, labelsKey } from "./pair-candidates.js";
import type { LegRequest } from "./pair-candidates.js";
import type { ParsedQuoteRequest } from "./quote-request.js";
import type { CandidatePairs, QuoteLimits } from "./plan-types.js";

export function candidatePairs(request: ParsedQuoteRequest, configured: readonly string[], knownMarkets: () => Iterable<Market>): CandidatePairs {
  const x = base58Of(request.inputMint);
  const y = base58Of(request.outputMint);
  const middles: string[] = [];
  if (!request.onlyDirectRoutes) {
    middles.push(...configured.filter((m) => m !== x && m !== y));
    if (!request.restrictIntermediateTokens) middles.push(...sharedNeighbours(x, y, [...knownMarkets()]).filter((m) => !middles.includes(m)));
  }
  return {
    pairs: [
      [x, y],
      ...middles.flatMap((m): [string, string][] => [
        [x, m],
        [m, y],
      ]),
    ],
    intermediates: middles,
  };
}

/** Tokens that both x and y have a known market with, in the order of y's markets. */
function sharedNeighbours(x: string, y: string, known: readonly Market[]): string[] {
  const fromX = new Set(known.flatMap((m) => (m.mints.includes(x) ? m.mints.filter((k) => k !== x) : [])));
  const out: string[] = [];
  for (const m of known) {
    if (!m.mints.includes(y)) continue;
    const other = m.mints[0] === y ? m.mints[1] : m.mints[0];
    if (other !== x && fromX.has(other) && !out.includes(other)) out.push(other);
  }
  return out;
}

/** Per request: the engine asks for its decided pairs, then plans it (one LegRequest for both). */
const legRequests = new WeakMap<ParsedQuoteRequest, LegRequest>();

export function legRequestOf(request: ParsedQuoteRequest, limits: QuoteLimits): LegRequest {
  let leg = legRequests.get(request);
  if (leg === undefined || leg.maxPerPair !== limits.maxPoolsPerPair) {
    const { amount, swapMode } = request;
    const labels = labelsKey(request.dexes, request.excludeDexes);
    // Named fields, not a spread of amountKeys' answer (V8 builds a spread's copy slowly).
    const { octaveText, bucketText, exactText } = amountKeys(amount);
    leg = {
      inputMint: base58Of(request.inputMint),
      outputMint: base58Of(request.outputMint),
      amount,
      swapMode,
      labels,
      maxPerPair: limits.maxPoolsPerPair,
      octaveText,
      bucketText,
      exactText,
    };
    legRequests.set(request, leg);
  }
  return leg;
}
