/**
 * Candidate decisions kept across requests: which pools of a pair with more than
 * `MAX_POOLS_PER_PAIR` pools can matter for a range of amounts (pool-pruning.ts `candidatesOver`).
 * Made by the planner over all the pair's pools, and handed back to later plans as data by a
 * store at the edge (api/quote/candidate-store.ts), which marks the pools whose accounts changed
 * (and drops a decision when the pair's pool set changes). A plan given a decision reads and
 * prices only the kept pools, and the marked ones again: a quote's cost grows with what changed,
 * not with the pair's pool count.
 *
 * Legs: a pair touching the side the amount is known on (the input for ExactIn, the output for
 * ExactOut) is decided for the amount's octave (`amountOctave`), else its bucket (`amountBucket`),
 * else the exact amount; the other leg of a 2-hop route
 * (intermediate → far side) for the range of amounts the first leg's best pool reaches over that
 * bucket, so its decision also depends on the first leg's state.
 */
import type { SwapMode } from "../amm/adapter.js";
import type { Market } from "./market.js";
import { groupByPair, pairKey } from "./market.js";
import { amountBucket, amountOctave } from "./pool-pruning.js";
import type { PoolScores } from "./pool-pruning.js";

/** A pool a decision judged, with what it was judged by. */
export interface JudgedPool {
  readonly market: Market;
  readonly scores: PoolScores;
  /** The accounts its scores read (the pool, its mints, what its quote needs): a change to one re-prices this pool alone. */
  readonly reads: readonly string[];
}

export interface CandidateDecision {
  /** Pair, direction, label filter, amount range (and for a second leg, its first leg's key). */
  readonly key: string;
  /** Addresses of the pools kept. */
  readonly kept: ReadonlySet<string>;
  /** The pools kept. */
  readonly markets: readonly Market[];
  /**
   * A second leg's: what its range came from besides a kept decision — the accounts of a first leg
   * without one (a few pools, all read); empty otherwise. A change to one has it checked again.
   */
  readonly upstream: readonly string[];
  /** A second leg's first leg's decision key (when it has one): a change to that decision has it checked again. */
  readonly after?: string;
  /** The pairs whose pool sets it was made over (its own pair last): a pool entering or leaving one undoes it. */
  readonly pairs: readonly (readonly [string, string])[];
  /** The amounts it holds for (a second leg's: a margin around what its first leg reached). */
  readonly low: bigint;
  readonly high: bigint;
  /**
   * Every pool of the pair it judged, in the pair's order, with its scores: after a change to some
   * of them the next plan re-prices those alone and selects again (pool-pruning.ts rescoreCandidates).
   */
  readonly judged: readonly JudgedPool[];
  /** The store's marks: pools whose accounts changed since it was made. */
  readonly stale?: ReadonlySet<string>;
  /** A second leg whose first leg's state changed since: valid while what the first leg reaches stays in [low, high]. */
  readonly recheck?: boolean;
  /** Made from the store's earlier decision of the same key (its age is that decision's). */
  readonly update?: boolean;
}

/** Every account a decision read: its pools', and what its range came from. */
export function accountsOf(d: CandidateDecision): string[] {
  const out = new Set(d.upstream);
  for (const j of d.judged) for (const a of j.reads) out.add(a);
  return [...out];
}

/** Decisions a plan may use (the edge's store; it answers only ones still valid). */
export interface CandidateDecisions {
  get(key: string): CandidateDecision | undefined;
  /**
   * False when no decision of the pair (by `pairKey`) is kept at all: its legs' keys need not be
   * looked up (most pairs have at most MAX_POOLS_PER_PAIR pools and are never decided).
   */
  decides?(pair: string): boolean;
}

/** One pair's pools in a plan, and how they are chosen. */
export interface Leg {
  readonly pair: readonly [string, string];
  readonly key: string;
  /** The pair's markets (label filter applied). */
  readonly markets: readonly Market[];
  /** The pools' input mint in this leg's routes (their quotes are asked from it). */
  readonly from: string;
  /** A second leg: the pair key of its first leg. */
  readonly after?: string;
  /** Whether more pools than MAX_POOLS_PER_PAIR: then a decision bounds them. */
  readonly bounded: boolean;
  /** Decision keys: for the amount's octave, its bucket, and the exact amount (when the wider ranges are too wide for the pair). */
  readonly octaveKey: string;
  readonly bucketKey: string;
  readonly exactKey: string;
  /** The decision the store had, if any. */
  found: CandidateDecision | undefined;
}

export interface LegRequest {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly swapMode: SwapMode;
  /** The request's label filter, as text (part of every key: it changes the pool set). */
  readonly labels: string;
  readonly maxPerPair: number;
  /** The amount's part of a first leg's keys (`amountKeys`): its octave, its bucket, and the exact amount. */
  readonly octaveText: string;
  readonly bucketText: string;
  readonly exactText: string;
}

/** `LegRequest`'s amount texts, made once per request (bigint to text is not free). */
export function amountKeys(amount: bigint): Pick<LegRequest, "octaveText" | "bucketText" | "exactText"> {
  const [low, high] = amountBucket(amount);
  const [from, to] = amountOctave(amount);
  return { octaveText: `${from}-${to}`, bucketText: `${low}-${high}`, exactText: `${amount}-${amount}` };
}

/** A leg as its pair alone says (no markets): its role, direction and keys. */
type LegShape = Omit<Leg, "markets" | "bounded" | "found">;

/** `key`: the pair's `pairKey`. */
function shapeOf(a: string, b: string, key: string, request: LegRequest): LegShape | undefined {
  const { inputMint, outputMint, swapMode, labels } = request;
  const known = swapMode === "ExactIn" ? inputMint : outputMint;
  const far = swapMode === "ExactIn" ? outputMint : inputMint;
  if (a === known || b === known) {
    const other = a === known ? b : a;
    const from = swapMode === "ExactIn" ? known : other;
    const base = `${key}|${from}|${swapMode}|${labels}`;
    return {
      pair: [a, b],
      key,
      from,
      octaveKey: `${base}|${request.octaveText}`,
      bucketKey: `${base}|${request.bucketText}`,
      exactKey: `${base}|${request.exactText}`,
    };
  }
  if (a === far || b === far) {
    const middle = a === far ? b : a;
    const from = swapMode === "ExactIn" ? middle : far;
    return { pair: [a, b], key, from, after: pairKey(known, middle), octaveKey: "", bucketKey: "", exactKey: "" };
  }
  return undefined; // a pair touching neither end carries no route of at most two hops
}

/** First legs' decisions, then second legs keyed by them (found, or to be made: the bucket's). */
function lookUp<T extends LegShape & { found?: CandidateDecision | undefined }>(legs: T[], amount: bigint, decisions: CandidateDecisions | undefined): T[] {
  const first = legs.filter((l) => l.after === undefined);
  for (const leg of first)
    if (mayBeDecided(leg, decisions)) leg.found = decisions.get(leg.octaveKey) ?? decisions.get(leg.bucketKey) ?? decisions.get(leg.exactKey);
  const firstByPair = new Map(first.map((l) => [l.key, l]));
  const later = legs
    .filter((l) => l.after !== undefined)
    .map((leg) => {
      const firstLeg = firstByPair.get(leg.after!);
      // A second leg's keys are for its look-up only (the planner makes its own from the first leg's choice).
      if (!firstLeg || !mayBeDecided(leg, decisions)) return leg;
      const out = { ...leg, ...secondLegKeys(leg, firstLeg.found?.key ?? firstLeg.bucketKey, amount) };
      out.found = decisions.get(out.bucketKey) ?? decisions.get(out.exactKey);
      return out;
    });
  return [...first, ...later];
}

function mayBeDecided(leg: LegShape, decisions: CandidateDecisions | undefined): decisions is CandidateDecisions {
  return decisions !== undefined && decisions.decides?.(leg.key) !== false;
}

/**
 * The decisions that cover the request's pairs, by pair key: for those pairs the edge need not
 * even list the markets (the decision's kept ones are all the plan reads).
 */
export function decidedPairs(
  pairs: readonly (readonly [string, string])[],
  request: LegRequest,
  decisions: CandidateDecisions,
): Map<string, CandidateDecision> {
  if (decisions.decides && !pairs.some(([x, y]) => decisions.decides!(pairKey(x, y)))) return new Map();
  const shapes = pairs.map(([x, y]) => shapeOf(x, y, pairKey(x, y), request)).filter((l): l is LegShape => l !== undefined);
  const out = new Map<string, CandidateDecision>();
  for (const leg of lookUp(
    shapes.map((l) => ({ ...l, found: undefined as CandidateDecision | undefined })),
    request.amount,
    decisions,
  ))
    if (leg.found) out.set(leg.key, leg.found);
  return out;
}

/** The legs of a plan's markets, first legs (from the known side) before the others, with the decisions found. */
export function planLegs(markets: readonly Market[], request: LegRequest, decisions: CandidateDecisions | undefined): Leg[] {
  const byPair = groupByPair(markets);
  const legs: Leg[] = [];
  for (const [key, group] of byPair) {
    const shape = shapeOf(group[0].mints[0], group[0].mints[1], key, request);
    // Named fields, not a spread of the shape: the spread was most of a warm quote's planning (V8 copies it slowly).
    if (shape) {
      const { pair, from, after, octaveKey, bucketKey, exactKey } = shape;
      legs.push({ pair, key, from, after, octaveKey, bucketKey, exactKey, markets: group, bounded: group.length > request.maxPerPair, found: undefined });
    }
  }
  return lookUp(legs, request.amount, decisions);
}

/**
 * A second leg's keys, by its first leg's decision key (`via`): over the range its first leg
 * reaches, or (when that range is too wide for the pair) for the request's exact amount.
 */
export function secondLegKeys(leg: Pick<Leg, "key" | "from">, via: string, amount: bigint): Pick<Leg, "bucketKey" | "exactKey"> {
  const base = `${leg.key}|${leg.from}|via|${via}`;
  return { bucketKey: base, exactKey: `${base}|exact|${amount}` };
}

/** The markets a plan reads: a decided leg's kept pools (and the changed ones, to price again), every pool of the others. */
export function marketsToRead(legs: readonly Leg[]): Market[] {
  return legs.flatMap((leg) => {
    const found = leg.found;
    if (!found) return leg.markets;
    const kept = leg.markets.filter((m) => found.kept.has(m.addressText));
    const stale = found.stale;
    return stale
      ? [...kept, ...found.judged.filter((j) => stale.has(j.market.addressText) && !found.kept.has(j.market.addressText)).map((j) => j.market)]
      : kept;
  });
}

/** Whether a decided leg must be brought up to date before its pools are chosen. */
export function needsUpdate(leg: Leg): boolean {
  return leg.found !== undefined && ((leg.found.stale?.size ?? 0) > 0 || leg.found.recheck === true);
}

/** The request's label filter as key text. */
export function labelsKey(dexes: ReadonlySet<string> | undefined, excludeDexes: ReadonlySet<string>): string {
  return `${dexes ? [...dexes].sort().join(",") : "*"}!${[...excludeDexes].sort().join(",")}`;
}
