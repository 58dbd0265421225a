/**
 * The program quoter: an in-process SVM (LiteSVM) holding the binaries of AMMs whose math is not
 * public, and Jupiter v6's. A quote writes the pool's state (as the live cache holds it) into the
 * SVM, sets the clock to the current slot, and simulates the step the adapter builds, inside
 * Jupiter's `route`, from a made-up taker whose source token account holds the amount: what arrives
 * in the destination account is the quote. A program is the one exact quoter of itself — and the
 * step runs as the swap will (SolFi V2 prices a call from Jupiter differently from a direct one).
 *
 * Bounded: the route runs under a compute-unit limit (its CPU budget), results are memoised per
 * (state account versions, slot, time, amount, direction), and a state account is copied into the
 * SVM only when its version changed (a 1 MiB program-state account is not copied per quote).
 */
import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "../core/amm/adapter.js";
import type { AmmAdapter, AnyAmmAdapter, PoolQuote, QuoteClock, QuoteParams } from "../core/amm/adapter.js";
import type { AccountData, AccountMap } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { SvmExecutor, TAKER_SOURCE_BALANCE } from "./program-quote-executor.js";
import type { ExecAccount, ExecResult } from "./program-quote-executor.js";
import { QuoteSwaps } from "./program-quote-swaps.js";
import type { CachedSwap, QuoteSwap } from "./program-quote-swaps.js";
import { QuoteTransactions } from "./program-quote-transactions.js";
import { ProgramQuoteWorkers } from "./program-quote-workers.js";
import { SettleRounds } from "./program-quote-rounds.js";
import type { RoundStep } from "./program-quote-rounds.js";
import { programQuoteMetrics } from "./program-quoter-metrics.js";

/** The compute units one program quote may use (a SolFi V2 step through Jupiter takes ~90k). */
export const DEFAULT_PROGRAM_QUOTE_COMPUTE_UNITS = 400_000;
/** Memoised quotes: this many (step, state, clock) entries, each of up to AMOUNTS_PER_MEMO_ENTRY amounts. */
const MEMO_ENTRIES = 256;
const AMOUNTS_PER_MEMO_ENTRY = 64;

export interface ProgramQuoterOptions {
  /** The compute-unit limit of one quote's route. */
  readonly computeUnits?: number;
  /**
   * The compute-unit price (µ-lamports) the quoted swaps will carry: some proprietary AMMs price by
   * it. Default 0, what swapd's swaps carry without a priority fee.
   */
  readonly computeUnitPrice?: number;
  /**
   * Worker threads, each with its own SVM: ladders of quotes (`quoteMany`: the pools' curves) and
   * the quotes of searches run through `settled` run there; 0 (default): everything runs in this thread.
   */
  readonly workers?: number;
}

/** What a quote read: the amounts, and the compute units the route used. */
export interface ProgramQuote extends PoolQuote {
  readonly unitsConsumed: number;
}

/** Quotes of one step over one state at one clock, by amount. */
type AmountQuotes = BoundedLruMap<bigint, ProgramQuote>;

/** A pool's quote in one direction over one state, whatever the amount. */
interface PreparedQuote {
  /** The state's accounts as `accounts` held them (`null`: read and missing), in `stateKeys` order. */
  readonly versions: readonly (AccountData | null)[];
  /** What is written into the SVM: the existing ones. */
  readonly state: readonly AccountData[];
  /** The step's shape and the state's versions. */
  readonly memoStem: string;
  /** The memo at the clock last asked for (`clock` = its slot and time). */
  quotes?: { readonly clock: string; readonly byAmount: AmountQuotes };
}

/** A quote's step for the workers between `settled` rounds. */
interface WorkerStep extends RoundStep {
  readonly swap: QuoteSwap;
  readonly prepared: PreparedQuote;
  readonly clock: QuoteClock;
}

/** An execution's result as a quote (a refusal counted). */
function quoteOf(swap: QuoteSwap, amount: bigint, r: ExecResult): ProgramQuote {
  const feeMint = swap.sourceMint;
  if (!r.complete) {
    programQuoteMetrics.refusals.inc();
    return {
      inAmount: 0n,
      outAmount: 0n,
      feeAmount: 0n,
      feeMint,
      complete: false,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      unitsConsumed: r.unitsConsumed,
    };
  }
  // The program does not say which part of the price is its fee.
  return { inAmount: amount, outAmount: r.outAmount, feeAmount: 0n, feeMint, complete: true, unitsConsumed: r.unitsConsumed };
}

export class ProgramQuoter {
  /** The SVM in this thread: made only when a quote runs here (no workers, or a caller outside `settled`). */
  private inThread: SvmExecutor | undefined;
  /** An SVM without programs that only says which accounts are resident (made when first asked, unless `inThread` is). */
  private residents: SvmExecutor | undefined;
  private readonly elves = new Map<string, Uint8Array>();
  private readonly rounds = new SettleRounds<WorkerStep, ProgramQuote>((step, amounts) => this.runInWorkers(step, amounts));
  /** Simulations run in this thread (each amount counts): none while every quote runs in the workers. */
  inThreadRuns = 0;
  private readonly workers: ProgramQuoteWorkers | undefined;
  /** The workers' programs loaded (awaited before their first job). */
  private workersReady: Promise<void> = Promise.resolve();
  private readonly programs = new Set<string>();
  /** Each account version (object identity: the live cache hands out one object per version) as the executor takes it. */
  private readonly execAccounts = new WeakMap<AccountData, ExecAccount>();
  private memo = new BoundedLruMap<string, AmountQuotes>(MEMO_ENTRIES);
  private readonly versionIds = new WeakMap<AccountData, number>();
  private nextVersionId = 1;
  /** Each pool's swap for any amount, per direction (program-quote-swaps.ts). */
  private readonly swaps = new QuoteSwaps<PreparedQuote>(this.programs, (address) => this.programs.has(address) || this.residentCheck().isResident(address));
  private readonly transactions: QuoteTransactions;

  constructor(options: ProgramQuoterOptions = {}) {
    this.transactions = new QuoteTransactions(options.computeUnits ?? DEFAULT_PROGRAM_QUOTE_COMPUTE_UNITS, options.computeUnitPrice ?? 0, MEMO_ENTRIES);
    this.workers = options.workers ? new ProgramQuoteWorkers(options.workers) : undefined;
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await this.workers?.close();
  }

  /** Loads (or replaces, after an upgrade) a program's binary. */
  addProgram(programId: PublicKey, elf: Uint8Array): void {
    this.elves.set(programId.toBase58(), elf);
    this.inThread?.addProgram(programId.toBase58(), elf);
    if (this.workers) {
      const workers = this.workers;
      const loading = workers.addProgram(programId.toBase58(), elf);
      const before = this.workersReady;
      this.workersReady = Promise.all([before, loading]).then(() => undefined);
    }
    this.programs.add(base58Of(programId));
    this.memo = new BoundedLruMap<string, AmountQuotes>(MEMO_ENTRIES);
    this.swaps.reset(); // which accounts are resident changed
  }

  hasProgram(programId: PublicKey): boolean {
    return this.programs.has(base58Of(programId));
  }

  /** Whether `adapter`'s pools can be quoted: its program and Jupiter's are loaded. */
  canQuote(adapter: AnyAmmAdapter): boolean {
    return this.hasProgram(adapter.programId) && this.hasProgram(JUPITER_V6_PROGRAM_ID);
  }

  /**
   * Accounts a quote of `params` through `pool` needs that `accounts` lacks: every account of the
   * step and the two mints, except programs and sysvars (the SVM has them) and the taker's own.
   */
  accountsNeeded<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
    // What the build reads (tick/bin arrays, markets) first: the step's accounts depend on them.
    const dependencies = adapter.dependencies(pool, this.swaps.swapParams(adapter, pool, params)).filter((key) => !accounts.has(base58Of(key)));
    if (dependencies.length > 0) return dependencies;
    return this.swaps.swapOf(adapter, pool, params, accounts).stateKeys.filter((key) => !accounts.has(base58Of(key)));
  }

  /**
   * Quotes an ExactIn of `params.amount` through `pool` by executing its step at `clock`. Throws
   * AmmError when a state account is missing or a program is not loaded; a swap the program
   * refuses is an incomplete quote (the pool cannot fill this amount now) with the program's error.
   */
  quote<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): ProgramQuote {
    if (params.swapMode !== "ExactIn") throw new AmmError(`${adapter.label} is quoted by its program, ExactIn only`);
    for (const program of [adapter.programId, JUPITER_V6_PROGRAM_ID]) {
      if (!this.programs.has(base58Of(program))) throw new AmmError(`program ${base58Of(program)} is not loaded in the program quoter`);
    }
    const swap = this.swaps.swapOf(adapter, pool, params, accounts);
    const prepared = this.prepared(adapter, swap, accounts);
    const memo = this.quotesAt(prepared, clock);
    const step = this.rounds.active ? { key: `${prepared.memoStem}|${clock.slot}|${clock.unixTimestamp}`, swap: swap.swap, prepared, clock } : undefined;
    const known = memo.get(params.amount) ?? (step && this.rounds.known(step, params.amount));
    if (known) {
      programQuoteMetrics.memoHits.inc();
      return known;
    }
    if (params.amount > TAKER_SOURCE_BALANCE) throw new AmmError(`program quote: amount ${params.amount} is over ${TAKER_SOURCE_BALANCE}`);
    if (step) return this.rounds.ask(step, params.amount);
    const started = process.hrtime.bigint();
    const job = this.transactions.jobOf(swap.swap, prepared.state, clock);
    const executor = this.executorInThread();
    executor.write(this.execState(prepared.state));
    this.inThreadRuns += 1;
    const result = quoteOf(swap.swap, params.amount, executor.run(job, [params.amount])[0]);
    programQuoteMetrics.quoteSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    memo.set(params.amount, result);
    return result;
  }

  /**
   * Quotes of `amounts` through `pool` in `params`' direction at `clock` (a pool's curve), in a
   * worker thread when there are workers; not memoised (a ladder's amounts are asked once).
   */
  async quoteMany<Pool>(
    adapter: AmmAdapter<Pool>,
    pool: Pool,
    params: QuoteParams,
    accounts: AccountMap,
    clock: QuoteClock,
    amounts: readonly bigint[],
  ): Promise<ProgramQuote[]> {
    if (params.swapMode !== "ExactIn") throw new AmmError(`${adapter.label} is quoted by its program, ExactIn only`);
    for (const program of [adapter.programId, JUPITER_V6_PROGRAM_ID]) {
      if (!this.programs.has(base58Of(program))) throw new AmmError(`program ${base58Of(program)} is not loaded in the program quoter`);
    }
    for (const amount of amounts) if (amount > TAKER_SOURCE_BALANCE) throw new AmmError(`program quote: amount ${amount} is over ${TAKER_SOURCE_BALANCE}`);
    const swap = this.swaps.swapOf(adapter, pool, params, accounts);
    const prepared = this.prepared(adapter, swap, accounts);
    const job = this.transactions.jobOf(swap.swap, prepared.state, clock);
    const state = this.execState(prepared.state);
    let results: ExecResult[];
    if (this.workers) {
      await this.workersReady;
      results = await this.workers.run(state, job, amounts);
    } else {
      const executor = this.executorInThread();
      executor.write(state);
      this.inThreadRuns += amounts.length;
      results = executor.run(job, amounts);
    }
    return results.map((r, i) => quoteOf(swap.swap, amounts[i], r));
  }

  /**
   * Runs `work` (synchronous: a route search) with its program quotes made in the worker threads:
   * a quote not made yet is recorded and refused (AmmError: the work leaves the pool out at that
   * amount), the recorded ones are made in the workers, all at once, and `work` runs again, until
   * it asks for none not made or SETTLE_ROUNDS ran. Every quote `work` used is exact either way;
   * the last round's result is returned. Without workers `work` runs once, quoting in this thread.
   */
  async settled<T>(work: () => T): Promise<T> {
    return this.workers ? this.rounds.settled(work) : work();
  }

  waiting(): boolean {
    return this.rounds.waiting();
  }

  /** A step's quotes at `amounts`, made in the workers (between `settled` rounds), kept in the memo. */
  private async runInWorkers(step: WorkerStep, amounts: readonly bigint[]): Promise<ProgramQuote[]> {
    await this.workersReady;
    const started = process.hrtime.bigint();
    const job = this.transactions.jobOf(step.swap, step.prepared.state, step.clock);
    const results = await this.workers!.run(this.execState(step.prepared.state), job, amounts);
    programQuoteMetrics.quoteSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    const memo = this.quotesAt(step.prepared, step.clock);
    return results.map((r, i) => {
      const quote = quoteOf(step.swap, amounts[i], r);
      memo.set(amounts[i], quote);
      return quote;
    });
  }

  /** The SVM in this thread, made (with every program) when first needed. */
  private executorInThread(): SvmExecutor {
    if (!this.inThread) {
      this.inThread = this.residents ?? new SvmExecutor();
      this.residents = undefined;
      for (const [programId, elf] of this.elves) this.inThread.addProgram(programId, elf);
    }
    return this.inThread;
  }

  /** Which accounts the SVM holds itself (builtins, sysvars): asked of the in-thread SVM, or one without programs. */
  private residentCheck(): SvmExecutor {
    return this.inThread ?? (this.residents ??= new SvmExecutor());
  }

  /** Whether an SVM runs in this thread (none while every quote runs in the workers). */
  get hasInThreadSvm(): boolean {
    return this.inThread !== undefined;
  }

  private execState(state: readonly AccountData[]): ExecAccount[] {
    return state.map((account) => {
      let exec = this.execAccounts.get(account);
      if (exec === undefined) {
        exec = {
          address: base58Of(account.address),
          owner: base58Of(account.owner),
          lamports: account.lamports,
          data: account.data,
          executable: account.executable,
        };
        this.execAccounts.set(account, exec);
      }
      return exec;
    });
  }

  /** The memo of `prepared`'s quotes at `clock`: a quote depends on the step, the state's versions, the slot and time, and the amount. */
  private quotesAt(prepared: PreparedQuote, clock: QuoteClock): AmountQuotes {
    const at = `${clock.slot}|${clock.unixTimestamp}`;
    if (prepared.quotes?.clock === at) return prepared.quotes.byAmount;
    const key = `${prepared.memoStem}|${at}`;
    let byAmount = this.memo.get(key);
    if (byAmount === undefined) {
      byAmount = new BoundedLruMap(AMOUNTS_PER_MEMO_ENTRY);
      this.memo.set(key, byAmount);
    }
    prepared.quotes = { clock: at, byAmount };
    return byAmount;
  }

  /** The swap's state in `accounts` and its memo stem; kept while every state account is the same version. */
  private prepared(adapter: AnyAmmAdapter, cached: CachedSwap<PreparedQuote>, accounts: AccountMap): PreparedQuote {
    const versions: (AccountData | null)[] = [];
    for (const text of cached.stateKeyTexts) {
      const account = accounts.get(text);
      if (account === undefined) throw new AmmError(`${adapter.label} program quote needs account ${text}, which was not read`);
      versions.push(account);
    }
    const last = cached.prepared;
    if (last !== undefined && last.versions.every((account, i) => account === versions[i])) return last;
    // `null`: read and found missing (e.g. an event-authority PDA), as on the chain.
    const state = versions.filter((account): account is AccountData => account !== null);
    const memoStem = `${cached.swap.shape}|${versions.map((account) => (account === null ? "-" : this.versionId(account))).join(",")}`;
    return (cached.prepared = { versions, state, memoStem });
  }

  private versionId(account: AccountData): number {
    let id = this.versionIds.get(account);
    if (id === undefined) {
      id = this.nextVersionId++;
      this.versionIds.set(account, id);
    }
    return id;
  }
}
