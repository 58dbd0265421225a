/**
 * Kept decisions brought up to date: a decided leg whose pools changed (or whose first leg moved)
 * has its changed pools priced again and the others' scores kept, or is undecided when that no
 * longer holds (every pool it judged is then read and it is decided again).
 */
import type { QuoteClock } from "../amm/adapter.js";
import type { Market } from "./market.js";
import { amountBucket, rescoreCandidates } from "./pool-pruning.js";
import type { CandidateRange, PrunablePool } from "./pool-pruning.js";
import { needsUpdate } from "./pair-candidates.js";
import type { Leg } from "./pair-candidates.js";
import { reached } from "./plan-leg-decisions.js";
import type { ChosenLeg, LegDecisions } from "./plan-leg-decisions.js";
import type { UsablePool } from "./plan-pool-quotes.js";

/**
 * Decided legs with changed pools (or a changed first leg) brought up to date in `d.legs`. Returns
 * the markets to read next (pools entering a kept set; every pool of a leg that must be decided
 * again), none of `reading`. Second legs wait for their first legs' pools to be read.
 */
export function bringUpToDate(d: LegDecisions, byAddress: ReadonlyMap<string, UsablePool>, reading: Set<string>, clock: QuoteClock): Market[] {
  const entering: Market[] = [];
  for (let i = 0; i < d.legs.length; i++) {
    const leg = d.legs[i];
    if (!needsUpdate(leg)) continue;
    if (leg.after !== undefined && entering.length > 0) break;
    const next = leg.after === undefined ? updateFirst(d, leg, byAddress, clock) : updateSecond(d, leg, byAddress, clock);
    d.legs[i] = next;
    for (const m of next.markets) if (!reading.has(m.addressText) && reading.add(m.addressText)) entering.push(m);
  }
  return entering;
}

function updateFirst(d: LegDecisions, leg: Leg, byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): Leg {
  const found = leg.found!;
  return rescored(d, leg, d.rangeOf(leg, found.low, found.high), undefined, byAddress, clock);
}

/** A second leg: valid while its first leg (as chosen now) reaches no amount outside its range. */
function updateSecond(d: LegDecisions, leg: Leg, byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): Leg {
  const found = leg.found!;
  const first = d.legs.find((l) => l.key === leg.after);
  if (!first || (first.bounded && !first.found)) return undecided(d, leg);
  const { amount, swapMode } = d.reads.request;
  const bucket = amountBucket(amount);
  const firstChosen: ChosenLeg = first.found
    ? d.chosenOf(first.found, byAddress, first.from)
    : {
        pools: first.markets.map((m) => byAddress.get(m.addressText)).filter((u): u is UsablePool => u !== undefined),
        key: first.bucketKey,
        low: bucket[0],
        high: bucket[1],
        upstream: first.markets,
        pairs: [first.pair],
        from: first.from,
      };
  const exact = found.low === found.high;
  const ends = exact ? [reached(firstChosen.pools, amount, swapMode, first.from)] : (d.reachedRange(firstChosen) ?? [undefined]);
  if (ends.some((e) => e === undefined || e < found.low || e > found.high)) return undecided(d, leg);
  return rescored(d, leg, d.rangeOf(leg, found.low, found.high), firstChosen, byAddress, clock);
}

/** The leg's decision with its changed pools priced again (or the leg undecided when the range is now too wide). */
function rescored(
  d: LegDecisions,
  leg: Leg,
  range: CandidateRange,
  firstLeg: ChosenLeg | undefined,
  byAddress: ReadonlyMap<string, UsablePool>,
  clock: QuoteClock,
): Leg {
  const found = leg.found!;
  const stale = found.stale ?? new Set<string>();
  const changed = new Map<number, PrunablePool | undefined>();
  found.judged.forEach((j, i) => {
    if (!stale.has(j.market.addressText)) return;
    const u = byAddress.get(j.market.addressText);
    changed.set(i, u && d.decidingPool(u, clock));
  });
  const markets = found.judged.map((j) => j.market);
  const { kept, scores } = rescoreCandidates(
    markets,
    found.judged.map((j) => j.scores),
    changed,
    range,
  );
  if (!kept) return undecided(d, leg);
  const judged = found.judged.map((j, i) => (changed.has(i) ? { market: j.market, scores: scores[i], reads: d.reads.readsOf(j.market.addressText) } : j));
  const { key, pairs, low, high } = found;
  const decision = d.keepDecision({
    key,
    kept: new Set(kept.map((m) => m.addressText)),
    markets: kept,
    ...d.upstreamOf(firstLeg),
    pairs,
    low,
    high,
    judged,
    update: true,
  });
  return { ...leg, found: decision, markets: kept };
}

/** The leg without its decision: every pool it judged is read, and it is decided again. */
function undecided(d: LegDecisions, leg: Leg): Leg {
  const markets = leg.found!.judged.map((j) => j.market);
  return { ...leg, found: undefined, markets, bounded: markets.length > d.reads.shared.limits.maxPoolsPerPair };
}
