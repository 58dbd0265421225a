/**
 * The scale bench's warm figures and the pools' curves (src/api/quote/curve-store.ts) in them: the
 * curves are made first (fresh amounts asked until a round makes none, the store then idle), so the
 * warm figures are the steady state; warm quotes at the one repeated amount and at never-repeated
 * ones, in alternating blocks; and the curves' heap, measured: heap after full collections with the
 * engine that made them, then with an engine with curves off that asked the same pairs, each alone
 * in the same process.
 */
import type { CurveEvent } from "../src/api/quote/curve-store.js";
import type { QuoteEngine } from "../src/api/quote/quote-engine.js";
import { createQuoteEngine } from "../src/api/quote/quote-engine.js";
import { AccountSource } from "../src/chain/account-source.js";
import { ChainStateCache } from "../src/chain/chain-state-cache.js";
import type { LiveChain } from "../src/chain/live/live-chain.js";
import type { MarketIndex } from "../src/chain/market-index.js";
import type { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import type { ChainChild } from "./scale-chain.js";
import type { StateChangeFeed } from "../src/chain/account-source.js";
import { freshAmounts } from "./fresh-amounts.js";
import { percentile } from "./statistics.js";

/** The repeated amount (the bench's figure since 2026-11). */
export const REPEATED_AMOUNT = "1000000000";
/**
 * Fresh amounts: log-uniform over 1e8–1e10 (0.1–10× the repeated one). Narrower than the venues
 * bench's 0.01–200×: at 5,000 pools each new amount octave (pool-pruning.ts `amountOctave`) costs a
 * candidate decision over every pool, made again after 30 s.
 */
const FRESH_RANGE = [1e8, 1e10] as const;
/** No curve event for this long: the store is idle (its budget can hold a job back up to 1 s). */
const QUIET_MS = 1_500;
/** Fresh quotes per round while the curves are made, and the bounds on making them (ms). */
const MAKING_ROUND = 50;
const MAKING_MAX_MS = 90_000;
const FIRST_QUIET_MAX_MS = 20_000;

export interface Pair {
  readonly x: string;
  readonly y: string;
}

export const quoteAt = (engine: QuoteEngine, pair: Pair, amount: string) => engine.quote({ inputMint: pair.x, outputMint: pair.y, amount, slippageBps: 50 });

/**
 * Fresh quotes that failed, counted and the first kept, so the case's other figures are still
 * reported (the chain's RPC gave up: before the octave decisions, quotes back to back at 5,000 pools
 * starved the live cache's websocket past its bound, and the cache read the pair through the RPC).
 */
export class FreshFailures {
  count = 0;
  first: string | undefined;

  async quote(engine: QuoteEngine, pair: Pair, amount: string): Promise<void> {
    try {
      await quoteAt(engine, pair, amount);
    } catch (error) {
      // Counted and reported with the figures (`freshFailures`), not thrown: see the class comment.
      this.count += 1;
      this.first ??= String((error as Error).message);
    }
  }
}

/** Never-repeated amounts for one case (the same sequence every run). */
export function freshPicker(): () => string {
  const pick = freshAmounts(36);
  return () => pick(...FRESH_RANGE).toString();
}

/** What the store told (its `onCurve`): curves made, their points, the event-loop time it took. */
export class CurveTally {
  made = 0;
  dropped = 0;
  slotChecks = 0;
  /** Points of every curve made (a curve widened is made again: counted again). */
  pointsMade = 0;
  /** Sum of the makes' own times (ms; the reads for further arrays not included). */
  makeMs = 0;
  lastEventAt = performance.now();
  lastMadeAt = 0;
  /** Pool → points of its latest curve (the pair is quoted one way: one curve per pool). */
  private readonly held = new Map<string, number>();

  readonly onCurve = (event: CurveEvent): void => {
    this.lastEventAt = performance.now();
    if (event.kind === "made") {
      this.made += 1;
      this.pointsMade += event.points;
      this.makeMs += event.ms;
      this.lastMadeAt = this.lastEventAt;
      this.held.set(event.pool, event.points);
    } else if (event.kind === "dropped") {
      this.dropped += 1;
      this.held.delete(event.pool);
    } else this.slotChecks += 1;
  };

  /** Pools with a curve, and the points they hold (their latest curves). */
  holding(): { pools: number; points: number } {
    let points = 0;
    for (const n of this.held.values()) points += n;
    return { pools: this.held.size, points };
  }

  /**
   * Resolves once no event came for QUIET_MS since the call (at most `maxMs`). The wait yields to
   * the event loop: the store works in setImmediate turns, which back-to-back in-process quotes
   * from memory (microtasks only, no I/O) never leave room for.
   */
  async quiet(maxMs = 120_000): Promise<void> {
    const from = performance.now();
    while (performance.now() - Math.max(this.lastEventAt, from) < QUIET_MS && performance.now() - from < maxMs) await new Promise((r) => setTimeout(r, 100));
  }
}

export interface CurveFigures {
  /** Curves made since the engine started (cold quotes included), their points, their own time (ms). */
  readonly made: number;
  readonly pointsMade: number;
  readonly makeMs: number;
  /** After the fresh rounds: pools with a curve and the points they hold. */
  readonly pools: number;
  readonly points: number;
  /** Whether a round made no curve before MAKING_MAX_MS; the rounds, their quotes, and the time until the last curve was made (ms). */
  readonly settled: boolean;
  readonly rounds: number;
  readonly quotes: number;
  readonly settleMs: number;
}

/**
 * Fresh amounts asked in rounds until a round makes no curve (the store idle after each), for at
 * most MAKING_MAX_MS (`settled` false then: at 5,000 pools under load, new amount octaves' candidate
 * decisions make a round slow); each round's quotes, time and curves go to `log`.
 */
export async function makeCurves(
  engine: QuoteEngine,
  pair: Pair,
  tally: CurveTally,
  fresh: () => string,
  failures: FreshFailures,
  log: (what: string) => void,
): Promise<CurveFigures> {
  await tally.quiet(FIRST_QUIET_MAX_MS);
  const t0 = performance.now();
  const until = t0 + MAKING_MAX_MS;
  let rounds = 0;
  let quotes = 0;
  let settled = false;
  while (!settled && performance.now() < until) {
    const before = tally.made;
    const roundStart = performance.now();
    let asked = 0;
    for (; asked < MAKING_ROUND && performance.now() < until; asked++) await failures.quote(engine, pair, fresh());
    const quoted = performance.now();
    await tally.quiet(Math.max(0, until - performance.now()));
    rounds += 1;
    quotes += asked;
    log(`round ${rounds}: ${asked} quotes in ${Math.round(quoted - roundStart)} ms, ${tally.made - before} curves made`);
    settled = asked === MAKING_ROUND && tally.made === before;
  }
  return {
    made: tally.made,
    pointsMade: tally.pointsMade,
    makeMs: round(tally.makeMs),
    ...tally.holding(),
    settled,
    rounds,
    quotes,
    settleMs: round(Math.max(0, tally.lastMadeAt - t0)),
  };
}

/**
 * Warm quotes, `quotes` of each kind in four alternating blocks (load on the shared machine hits
 * both alike): the repeated amount and never-repeated ones; p50/p99 wall and CPU.
 */
export async function warmQuotes(engine: QuoteEngine, pair: Pair, quotes: number, fresh: () => string, tally: CurveTally, failures: FreshFailures) {
  for (let i = 0; i < 20; i++) await quoteAt(engine, pair, REPEATED_AMOUNT);
  const kinds = { repeated: () => REPEATED_AMOUNT, fresh };
  const samples = { repeated: { wall: [] as number[], cpu: [] as number[] }, fresh: { wall: [] as number[], cpu: [] as number[] } };
  const made = tally.made;
  const blocks = 4;
  for (let b = 0; b < blocks; b++) {
    for (const kind of b % 2 === 0 ? (["repeated", "fresh"] as const) : (["fresh", "repeated"] as const)) {
      for (let i = 0; i < Math.ceil(quotes / blocks); i++) {
        const amount = kinds[kind]();
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        if (kind === "fresh") await failures.quote(engine, pair, amount);
        else await quoteAt(engine, pair, amount);
        samples[kind].wall.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        samples[kind].cpu.push((c.user + c.system) / 1000);
      }
    }
  }
  const p = (values: number[], at: number) =>
    round(
      percentile(
        [...values].sort((a, b) => a - b),
        at,
      ),
    );
  const { repeated: r, fresh: f } = samples;
  return {
    warmP50Ms: p(r.wall, 50),
    warmP99Ms: p(r.wall, 99),
    warmCpuP50Ms: p(r.cpu, 50),
    warmCpuP99Ms: p(r.cpu, 99),
    freshP50Ms: p(f.wall, 50),
    freshP99Ms: p(f.wall, 99),
    freshCpuP50Ms: p(f.cpu, 50),
    freshCpuP99Ms: p(f.cpu, 99),
    /** Curves made while the figures were measured (0 at the steady state). */
    curvesMadeWhileMeasured: tally.made - made,
    /** Fresh quotes that failed (making the curves and measured), and the first error. */
    freshFailures: failures.count,
    ...(failures.first === undefined ? {} : { freshFirstError: failures.first }),
  };
}

/**
 * An account source whose change feed can be let go of: the engine's curve and candidate stores
 * subscribe to it, so an engine is collected only once its subscriptions are detached.
 */
export class DetachableAccountSource extends AccountSource {
  private readonly subscriptions = new Set<() => void>();

  override get changes(): StateChangeFeed | undefined {
    const feed = super.changes;
    if (!feed) return undefined;
    return {
      following: () => feed.following(),
      onChange: (listener) => {
        const off = feed.onChange(listener);
        this.subscriptions.add(off);
        return () => {
          this.subscriptions.delete(off);
          off();
        };
      },
    };
  }

  detach(): void {
    for (const off of this.subscriptions) off();
    this.subscriptions.clear();
  }
}

/** Heap used after full collections (the process runs with --expose-gc), in bytes. */
export async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Heap after GC with an engine with curves off that asked the same pairs (the curved engine gone). */
export async function heapWithoutCurves(
  chainChild: ChainChild,
  live: LiveChain,
  index: MarketIndex,
  chain: RpcSolanaChain,
  hubs: { intermediateTokens?: string[] },
  freshAsked: number,
): Promise<number> {
  const engine = createQuoteEngine({
    chain,
    accounts: new AccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) }),
    markets: index,
    adapters: ammAdapters,
    ...hubs,
    curves: false,
  });
  const [pair, ...others] = chainChild.pairs;
  // The same fresh amounts as the curved engine asked: the candidate decisions kept per amount range
  // (a 5,000-pool pair's are megabytes each) are then alike in both, and the difference is the curves.
  const fresh = freshPicker();
  const failures = new FreshFailures();
  for (let i = 0; i < freshAsked; i++) await failures.quote(engine, pair, fresh());
  for (const p of chainChild.pairs) await quoteAt(engine, p, REPEATED_AMOUNT);
  const heap = await heapAfterGc();
  await quoteAt(engine, others[0] ?? pair, REPEATED_AMOUNT); // the engine stays alive through the measurement
  return heap;
}
