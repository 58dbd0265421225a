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
import { ComputeBudgetProgram, Keypair, PublicKey, Transaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { getTransactionDecoder } from "@solana/kit";
import type { Transaction as KitTransaction } from "@solana/kit";
import { AmmError } from "../core/amm/adapter.js";
import type { AmmAdapter, PoolQuote, QuoteClock, QuoteParams, SwapParams } from "../core/amm/adapter.js";
import { getRouteInstruction } from "../core/jupiter/instructions/route.js";
import type { AccountData, AccountMap } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../core/solana/programs.js";
import { SvmExecutor, TAKER_SOURCE_BALANCE } from "./program-quote-executor.js";
import type { ExecAccount, ExecJob, ExecResult } from "./program-quote-executor.js";
import { ProgramQuoteWorkers } from "./program-quote-workers.js";
import { programQuoteMetrics } from "./program-quoter-metrics.js";

/** The compute units one program quote may use (a SolFi V2 step through Jupiter takes ~90k). */
export const DEFAULT_PROGRAM_QUOTE_COMPUTE_UNITS = 400_000;
/** Memoised quotes: this many (step, state, clock) entries, each of up to AMOUNTS_PER_MEMO_ENTRY amounts. */
const MEMO_ENTRIES = 256;
const AMOUNTS_PER_MEMO_ENTRY = 64;
/** Any 64 bytes but zeros (which read as "not signed"): the quoter's SVM does not verify signatures. */
const PLACEHOLDER_SIGNATURE = Buffer.alloc(64, 1);
/** Jupiter's `route` data ends with in_amount (u64), quoted_out_amount (u64), slippage_bps (u16), platform_fee_bps (u8). */
const ROUTE_DATA_AMOUNTS_SIZE = 19;

export interface ProgramQuoterOptions {
  /** The compute-unit limit of one quote's route. */
  readonly computeUnits?: number;
  /**
   * The compute-unit price (µ-lamports) the quoted swaps will carry: some proprietary AMMs price by
   * it. Default 0, what swapd's swaps carry without a priority fee.
   */
  readonly computeUnitPrice?: number;
  /**
   * Worker threads for ladders of quotes (`quoteMany`: the pools' curves), each with its own SVM;
   * 0 (default): they run in this thread. Single quotes run in this thread.
   */
  readonly workers?: number;
}

/** What a quote read: the amounts, and the compute units the route used. */
export interface ProgramQuote extends PoolQuote {
  readonly unitsConsumed: number;
}

/** The made-up taker: fixed keys no real chain holds a token account for. */
const TAKER = Keypair.fromSeed(new Uint8Array(32).fill(7));
/** One key object (`Keypair.publicKey` makes a new one per use, whose base58 text is then computed anew). */
const TAKER_KEY = TAKER.publicKey;
const TAKER_SOURCE = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
const TAKER_DESTINATION = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey;
const TAKER_TEXT = TAKER_KEY.toBase58();
const TAKER_SOURCE_TEXT = TAKER_SOURCE.toBase58();
const TAKER_DESTINATION_TEXT = TAKER_DESTINATION.toBase58();
/** The taker's accounts and the instructions sysvar, which the runtime makes per transaction. */
const NOT_STATE = new Set([TAKER_KEY.toBase58(), TAKER_SOURCE.toBase58(), TAKER_DESTINATION.toBase58(), "Sysvar1nstructions1111111111111111111111111"]);


/** The swap a quote makes: the taker's step for `params` and the Jupiter route around it. */
interface QuoteSwap {
  readonly route: TransactionInstruction;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  /** The route's keys and its data up to the amounts: equal for every amount of one step. */
  readonly shape: string;
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

/** A quote's swap, and the versions of the accounts its build read (`undefined`: not read yet). */
interface CachedSwap {
  readonly reads: readonly (AccountData | null | undefined)[];
  readonly tokenProgram: PublicKey;
  readonly swap: QuoteSwap;
  /** The accounts the quote writes into the SVM, and their base58 text. */
  readonly stateKeys: readonly PublicKey[];
  readonly stateKeyTexts: readonly string[];
  /** Over the state last quoted. */
  prepared?: PreparedQuote;
}

export class ProgramQuoter {
  private readonly executor = new SvmExecutor();
  private readonly workers: ProgramQuoteWorkers | undefined;
  /** The workers' programs loaded (awaited before their first job). */
  private workersReady: Promise<void> = Promise.resolve();
  private readonly programs = new Set<string>();
  /** Each account version (object identity: the live cache hands out one object per version) as the executor takes it. */
  private readonly execAccounts = new WeakMap<AccountData, ExecAccount>();
  private memo = new BoundedLruMap<string, AmountQuotes>(MEMO_ENTRIES);
  private readonly versionIds = new WeakMap<AccountData, number>();
  private readonly resident = new Map<string, boolean>();
  private readonly templates = new BoundedLruMap<string, { readonly transaction: KitTransaction; readonly amountOffset: number }>(MEMO_ENTRIES);
  private nextVersionId = 1;
  /**
   * Per pool (decoded per account version), by direction: its swap for any amount. Route search
   * asks each pool for up to ~13 amounts per request, and building the step, encoding Jupiter's route and
   * printing its keys per amount was a third of a six-venue quote's CPU.
   */
  private swaps = new WeakMap<object, [CachedSwap | undefined, CachedSwap | undefined]>();
  private readonly computeUnits: number;
  private readonly computeUnitPrice: number;

  constructor(options: ProgramQuoterOptions = {}) {
    this.computeUnits = options.computeUnits ?? DEFAULT_PROGRAM_QUOTE_COMPUTE_UNITS;
    this.computeUnitPrice = options.computeUnitPrice ?? 0;
    this.workers = options.workers ? new ProgramQuoteWorkers(options.workers) : undefined;
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await this.workers?.close();
  }

  /** Loads (or replaces, after an upgrade) a program's binary. */
  addProgram(programId: PublicKey, elf: Uint8Array): void {
    this.executor.addProgram(programId.toBase58(), elf);
    if (this.workers) {
      const workers = this.workers;
      const loading = workers.addProgram(programId.toBase58(), elf);
      const before = this.workersReady;
      this.workersReady = Promise.all([before, loading]).then(() => undefined);
    }
    this.programs.add(base58Of(programId));
    this.memo = new BoundedLruMap<string, AmountQuotes>(MEMO_ENTRIES);
    this.swaps = new WeakMap(); // which accounts are resident changed
  }

  hasProgram(programId: PublicKey): boolean {
    return this.programs.has(base58Of(programId));
  }

  /** Whether `adapter`'s pools can be quoted: its program and Jupiter's are loaded. */
  canQuote(adapter: AmmAdapter<any>): boolean {
    return this.hasProgram(adapter.programId) && this.hasProgram(JUPITER_V6_PROGRAM_ID);
  }

  /**
   * Accounts a quote of `params` through `pool` needs that `accounts` lacks: every account of the
   * step and the two mints, except programs and sysvars (the SVM has them) and the taker's own.
   */
  accountsNeeded<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
    // What the build reads (tick/bin arrays, markets) first: the step's accounts depend on them.
    const dependencies = adapter.dependencies(pool, this.swapParams(adapter, pool, params)).filter((key) => !accounts.has(base58Of(key)));
    if (dependencies.length > 0) return dependencies;
    return this.swapOf(adapter, pool, params, accounts).stateKeys.filter((key) => !accounts.has(base58Of(key)));
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
    const swap = this.swapOf(adapter, pool, params, accounts);
    const prepared = this.prepared(adapter, swap, accounts);
    const memo = this.quotesAt(prepared, clock);
    const known = memo.get(params.amount);
    if (known) {
      programQuoteMetrics.memoHits.inc();
      return known;
    }
    if (params.amount > TAKER_SOURCE_BALANCE) throw new AmmError(`program quote: amount ${params.amount} is over ${TAKER_SOURCE_BALANCE}`);
    const started = process.hrtime.bigint();
    const job = this.jobOf(swap.swap, prepared.state, clock);
    this.executor.write(this.execState(prepared.state));
    const result = this.quoteOf(swap.swap, params.amount, this.executor.run(job, [params.amount])[0]!);
    programQuoteMetrics.quoteSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    memo.set(params.amount, result);
    return result;
  }

  /**
   * Quotes of `amounts` through `pool` in `params`' direction at `clock` (a pool's curve), in a
   * worker thread when there are workers; not memoised (a ladder's amounts are asked once).
   */
  async quoteMany<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock, amounts: readonly bigint[]): Promise<ProgramQuote[]> {
    if (params.swapMode !== "ExactIn") throw new AmmError(`${adapter.label} is quoted by its program, ExactIn only`);
    for (const program of [adapter.programId, JUPITER_V6_PROGRAM_ID]) {
      if (!this.programs.has(base58Of(program))) throw new AmmError(`program ${base58Of(program)} is not loaded in the program quoter`);
    }
    for (const amount of amounts) if (amount > TAKER_SOURCE_BALANCE) throw new AmmError(`program quote: amount ${amount} is over ${TAKER_SOURCE_BALANCE}`);
    const swap = this.swapOf(adapter, pool, params, accounts);
    const prepared = this.prepared(adapter, swap, accounts);
    const job = this.jobOf(swap.swap, prepared.state, clock);
    const state = this.execState(prepared.state);
    let results: ExecResult[];
    if (this.workers) {
      await this.workersReady;
      results = await this.workers.run(state, job, amounts);
    } else {
      this.executor.write(state);
      results = this.executor.run(job, amounts);
    }
    return results.map((r, i) => this.quoteOf(swap.swap, amounts[i]!, r));
  }

  private execState(state: readonly AccountData[]): ExecAccount[] {
    return state.map((account) => {
      let exec = this.execAccounts.get(account);
      if (exec === undefined) {
        exec = { address: base58Of(account.address), owner: base58Of(account.owner), lamports: account.lamports, data: account.data, executable: account.executable };
        this.execAccounts.set(account, exec);
      }
      return exec;
    });
  }

  /** What the executor runs for `swap` over `state` at `clock` (amounts apart). */
  private jobOf(swap: QuoteSwap, state: readonly AccountData[], clock: QuoteClock): ExecJob {
    const byAddress = new Map(state.map((a) => [base58Of(a.address), a]));
    const tokenProgram = (mint: PublicKey) => {
      const account = byAddress.get(base58Of(mint));
      if (!account) throw new AmmError(`program quote: mint ${base58Of(mint)} does not exist`);
      return base58Of(account.owner);
    };
    const template = this.templateOf(swap);
    return {
      messageBytes: template.transaction.messageBytes as unknown as Uint8Array,
      signatures: template.transaction.signatures as unknown as Record<string, Uint8Array | null>,
      amountOffset: template.amountOffset,
      taker: TAKER_TEXT,
      source: { address: TAKER_SOURCE_TEXT, mint: base58Of(swap.sourceMint), tokenProgram: tokenProgram(swap.sourceMint) },
      destination: { address: TAKER_DESTINATION_TEXT, mint: base58Of(swap.destinationMint), tokenProgram: tokenProgram(swap.destinationMint) },
      slot: clock.slot,
      unixTimestamp: clock.unixTimestamp,
    };
  }

  private quoteOf(swap: QuoteSwap, amount: bigint, r: ExecResult): ProgramQuote {
    const feeMint = swap.sourceMint;
    if (!r.complete) {
      programQuoteMetrics.refusals.inc();
      return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, ...(r.reason !== undefined ? { reason: r.reason } : {}), unitsConsumed: r.unitsConsumed };
    }
    // The program does not say which part of the price is its fee.
    return { inAmount: amount, outAmount: r.outAmount, feeAmount: 0n, feeMint, complete: true, unitsConsumed: r.unitsConsumed };
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
  private prepared(adapter: AmmAdapter<any>, cached: CachedSwap, accounts: AccountMap): PreparedQuote {
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

  private swapParams<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams): SwapParams {
    const [first, second] = adapter.mints(pool);
    const [sourceMint, destinationMint] = params.aToB ? [first, second] : [second, first];
    return {
      sourceMint,
      destinationMint,
      sourceTokenAccount: TAKER_SOURCE,
      destinationTokenAccount: TAKER_DESTINATION,
      tokenTransferAuthority: TAKER_KEY,
      user: TAKER_KEY,
      inAmount: params.amount,
      outAmount: 0n,
      swapMode: "ExactIn",
    };
  }

  /**
   * The quote's swap through `pool` in `params`' direction (for any amount: the route's amounts are
   * written per quote) and the state accounts it reads, built again only when what the build read
   * changed: the adapter's dependencies, and the route's token program (the source mint's owner).
   */
  private swapOf<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams, accounts: AccountMap): CachedSwap {
    const swapParams = this.swapParams(adapter, pool, params);
    const reads = adapter.dependencies(pool, swapParams).map((key) => accounts.get(base58Of(key)));
    const tokenProgram = this.tokenProgramOf(swapParams.sourceMint, accounts);
    if (typeof pool !== "object" || pool === null) return this.cachedSwap(adapter, pool, swapParams, tokenProgram, accounts, reads);
    let byDirection = this.swaps.get(pool);
    if (byDirection === undefined) {
      byDirection = [undefined, undefined];
      this.swaps.set(pool, byDirection);
    }
    const direction = params.aToB ? 1 : 0;
    const cached = byDirection[direction];
    if (cached && cached.tokenProgram.equals(tokenProgram) && cached.reads.length === reads.length && cached.reads.every((account, i) => account === reads[i])) {
      return cached;
    }
    return (byDirection[direction] = this.cachedSwap(adapter, pool, swapParams, tokenProgram, accounts, reads));
  }

  private cachedSwap<Pool>(
    adapter: AmmAdapter<Pool>,
    pool: Pool,
    swapParams: SwapParams,
    tokenProgram: PublicKey,
    accounts: AccountMap,
    reads: CachedSwap["reads"],
  ): CachedSwap {
    const swap = this.swapFor(adapter, pool, swapParams, tokenProgram, accounts);
    const stateKeys = this.stateKeys(swap);
    return { reads, tokenProgram, swap, stateKeys, stateKeyTexts: stateKeys.map(base58Of) };
  }

  private swapFor<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, swapParams: SwapParams, tokenProgram: PublicKey, accounts: AccountMap): QuoteSwap {
    const { sourceMint, destinationMint } = swapParams;
    const step = adapter.build(pool, swapParams, accounts);
    const route = getRouteInstruction(
      {
        tokenProgram,
        userTransferAuthority: TAKER_KEY,
        userSourceTokenAccount: TAKER_SOURCE,
        userDestinationTokenAccount: TAKER_DESTINATION,
        destinationMint,
        remainingAccounts: step.accounts,
      },
      { routePlan: [{ swap: step.swap, percent: 100, inputIndex: 0, outputIndex: 1 }], inAmount: swapParams.inAmount, quotedOutAmount: 0n, slippageBps: 0, platformFeeBps: 0 },
    );
    const data = Buffer.from(route.data);
    // The route's data ends with in_amount (u64), quoted_out_amount (u64), slippage_bps (u16), platform_fee_bps (u8).
    const shape = `${route.keys.map((k) => base58Of(k.pubkey)).join(",")}|${data.subarray(0, data.length - ROUTE_DATA_AMOUNTS_SIZE).toString("hex")}`;
    return { route, sourceMint, destinationMint, shape };
  }

  /** A mint's token program, from its account (SPL Token until the mint has been read). */
  private tokenProgramOf(mint: PublicKey, accounts: AccountMap): PublicKey {
    return accounts.get(base58Of(mint))?.owner ?? TOKEN_PROGRAM_ID;
  }

  /** The accounts a quote writes into the SVM: the route's, less programs, sysvars and the taker's. */
  private stateKeys(swap: QuoteSwap): PublicKey[] {
    const keys = new Map<string, PublicKey>();
    for (const { pubkey } of swap.route.keys) {
      const text = base58Of(pubkey);
      if (NOT_STATE.has(text) || keys.has(text) || this.isResident(text)) continue;
      keys.set(text, pubkey);
    }
    for (const mint of [swap.sourceMint, swap.destinationMint]) keys.set(base58Of(mint), mint);
    return [...keys.values()];
  }

  /** Programs and sysvars the SVM holds itself (loaded programs, builtins, sysvars, Jupiter's PDAs are not). */
  private isResident(address: string): boolean {
    if (this.programs.has(address)) return true;
    let resident = this.resident.get(address);
    if (resident === undefined) {
      resident = this.executor.isResident(address);
      this.resident.set(address, resident);
    }
    return resident;
  }

  private versionId(account: AccountData): number {
    let id = this.versionIds.get(account);
    if (id === undefined) {
      id = this.nextVersionId++;
      this.versionIds.set(account, id);
    }
    return id;
  }

  /**
   * The quote's transaction, for any amount. Compiled once per route shape, then only the amount is
   * written into it (by the executor, at `amountOffset`): compiling (base58 of every key) and signing were most of a quote's cost.
   * Signatures are not checked here, so the taker's is a placeholder.
   */
  private templateOf(swap: QuoteSwap): { readonly transaction: KitTransaction; readonly amountOffset: number } {
    const data = Buffer.from(swap.route.data);
    const shape = swap.shape;
    let template = this.templates.get(shape);
    if (!template) {
      const tx = new Transaction({ feePayer: TAKER_KEY, blockhash: PublicKey.default.toBase58(), lastValidBlockHeight: 0 });
      // Both compute-budget instructions, as swapd's swaps carry them: SolFi V2 prices by the
      // transaction's compute-unit price (0, 1,000 and 1,000,000 µ-lamports and no price at all
      // give four different outputs for 1 SOL), so a quote assumes the swap's own.
      tx.add(ComputeBudgetProgram.setComputeUnitLimit({ units: this.computeUnits }));
      tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: this.computeUnitPrice }));
      tx.add(swap.route);
      tx.addSignature(TAKER_KEY, PLACEHOLDER_SIGNATURE);
      const transaction = getTransactionDecoder().decode(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
      const at = Buffer.from(transaction.messageBytes).indexOf(data);
      if (at < 0) throw new Error("program quote: the route's data is not in its compiled message");
      template = { transaction, amountOffset: at + data.length - ROUTE_DATA_AMOUNTS_SIZE };
      this.templates.set(shape, template);
    }
    return template;
  }
}
