/**
 * Rounds of a synchronous search whose program quotes are made in the worker threads
 * (program-quoter.ts `settled`): a quote the search asks for that is not made yet is recorded and
 * refused for this round (AmmError: the search leaves the pool out at that amount); between rounds
 * the recorded ones are made, all at once, and the search runs again, until it asks for none not
 * made or SETTLE_ROUNDS ran. Every quote a round used is exact, so any round's route pays what it
 * says; a later round only sees more pools.
 */
import { AmmError } from "../core/amm/adapter.js";
import type { PoolQuote } from "../core/amm/adapter.js";

/** A search on curves, its route's exact legs, a search again on exact quotes, its splits. */
export const SETTLE_ROUNDS = 4;

/** One pool's step in one direction, over one state, at one clock: what the workers run at several amounts. */
export interface RoundStep {
  /** The step, its state's versions and the clock. */
  readonly key: string;
}

interface Session<Step extends RoundStep, Quote extends PoolQuote> {
  round: number;
  readonly missing: Map<string, { step: Step; amounts: Set<bigint> }>;
  /** Made for this session (kept here too: the quoter's memo may drop them). */
  readonly made: Map<string, Quote>;
  /** What the workers could not make (a thread died), and why: left out at that amount. */
  readonly failed: Map<string, string>;
}

export class SettleRounds<Step extends RoundStep, Quote extends PoolQuote> {
  private session: Session<Step, Quote> | undefined;

  /** `make`: the step's quotes at `amounts`, in the workers. */
  constructor(private readonly make: (step: Step, amounts: readonly bigint[]) => Promise<Quote[]>) {}

  /** Whether a `settled` search is running now (its quotes are then asked, not run). */
  get active(): boolean {
    return this.session !== undefined;
  }

  /** Whether the running round refused quotes that will be made for another round. */
  waiting(): boolean {
    return this.session !== undefined && this.session.missing.size > 0 && this.session.round < SETTLE_ROUNDS;
  }

  /** A quote made for the running search, if it was. */
  known(step: Step, amount: bigint): Quote | undefined {
    return this.session?.made.get(`${step.key}|${amount}`);
  }

  /** Records the quote for the workers and refuses it for this round (or says why the workers could not make it). */
  ask(step: Step, amount: bigint): never {
    const session = this.session!;
    const failed = session.failed.get(`${step.key}|${amount}`);
    if (failed !== undefined) throw new AmmError(failed);
    let missing = session.missing.get(step.key);
    if (!missing) session.missing.set(step.key, (missing = { step, amounts: new Set() }));
    missing.amounts.add(amount);
    throw new AmmError("program quote not made yet (made in the worker threads for the next round)");
  }

  async settled<T>(work: () => T): Promise<T> {
    const session: Session<Step, Quote> = { round: 0, missing: new Map(), made: new Map(), failed: new Map() };
    for (;;) {
      session.round += 1;
      session.missing.clear();
      const outer = this.session;
      this.session = session;
      let result: T;
      try {
        result = work();
      } finally {
        this.session = outer;
      }
      if (session.missing.size === 0 || session.round >= SETTLE_ROUNDS) return result;
      await this.makeMissing(session);
    }
  }

  /** The session's missing quotes, one job per step, the jobs in parallel. */
  private async makeMissing(session: Session<Step, Quote>): Promise<void> {
    await Promise.all(
      [...session.missing.values()].map(async ({ step, amounts }) => {
        const list = [...amounts];
        try {
          const quotes = await this.make(step, list);
          quotes.forEach((quote, i) => session.made.set(`${step.key}|${list[i]}`, quote));
        } catch (error) {
          // A worker that died: these amounts are left out of this request (a new thread serves the next).
          for (const amount of list) session.failed.set(`${step.key}|${amount}`, `program quote worker failed: ${String(error)}`);
        }
      }),
    );
  }
}
