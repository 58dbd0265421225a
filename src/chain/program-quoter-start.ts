/**
 * The program quoter as the service runs it (on by default: `PROGRAM_QUOTED_AMMS=auto`), its
 * binaries and Jupiter v6's read from the chain (disk copies under `DATA_DIR/programs`), re-read
 * periodically so an upgraded program is quoted by its new code.
 *
 * An AMM whose program the chain does not have is left out (said once). An AMM whose binary the
 * RPC could not serve (an error, a timeout, a provider that refuses megabyte accounts) is left out
 * too, but said as a warning, in `/readyz` (`leftOut`) and in `swapd_program_quoted_amm_loaded`,
 * and read again with a doubling backoff until it loads: it is then quoted without a restart.
 */
import type { Logger } from "pino";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { ProgramBinaries, ProgramNotDeployedError } from "./program-binaries.js";
import type { ProgramQuoter, ProgramQuoterOptions } from "./program-quoter.js";
import { programQuoteMetrics } from "./program-quoter-metrics.js";
import type { SolanaChain } from "./solana-chain.js";

/** First wait before a binary the RPC did not serve is read again; doubled per failure up to LONGEST_RETRY_MS. */
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 300_000;
const JUPITER_LABEL = "Jupiter v6";

export interface ProgramQuoterStartOptions {
  readonly chain: SolanaChain;
  /** The AMMs to quote by their programs (labels, e.g. `SolFi V2`); `"auto"`: those whose program is deployed on the chain. */
  readonly amms: readonly string[] | "auto";
  /** Every adapter; those with `quotedByProgram` are candidates. */
  readonly adapters: readonly AnyAmmAdapter[];
  /** Where program binaries are kept between runs. */
  readonly cacheDir?: string;
  /**
   * Also load the programs of the AMMs with math that the chain has (QUOTE_SHADOW_RATE > 0), so
   * that their quotes can be checked against them.
   */
  readonly shadowMathAmms?: boolean;
  /** How often to look for upgraded programs (ms); 0 = never. */
  readonly refreshMs?: number;
  /** First wait before reading again a binary the RPC did not serve (doubling). Default 5 s. */
  readonly retryMs?: number;
  readonly logger: Logger;
}

/** A program-quoted AMM that is not quoted now, and why. */
export interface LeftOutAmm {
  readonly amm: string;
  readonly reason: string;
}

export interface RunningProgramQuoter {
  readonly quoter: ProgramQuoter;
  /** The labels of the AMMs whose programs it holds (quoted once Jupiter's is loaded too). */
  readonly labels: readonly string[];
  /** The labels of the AMMs with math whose programs it holds for shadow checks. */
  readonly shadowLabels: readonly string[];
  /** The AMMs left out because the RPC could not serve a binary (read again until they load). */
  leftOut(): readonly LeftOutAmm[];
  close(): void;
}

/** One program to load: Jupiter's, a quoted AMM's, or a shadow-checked AMM's. */
interface Pending {
  readonly label: string;
  readonly adapter: AnyAmmAdapter | undefined;
  readonly role: "jupiter" | "quoted" | "shadow";
  failures: number;
  reason: string;
  nextAt: number;
}

/** Starts the program quoter, or answers undefined when no program-quoted AMM is enabled or deployed. */
export async function startProgramQuoter(options: ProgramQuoterStartOptions): Promise<RunningProgramQuoter | undefined> {
  const { wanted, shadowed, explicit } = selectAmms(options);
  if (wanted.length === 0 && shadowed.length === 0) return undefined;
  const { logger } = options;
  const binaries = new ProgramBinaries({ chain: options.chain, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}), logger });
  const quoter = await newQuoter(explicit, logger);
  if (!quoter) return undefined;
  const loader = new ProgramLoader(quoter, binaries, explicit, options.retryMs ?? FIRST_RETRY_MS, logger);
  try {
    await loader.load(pendingItem(JUPITER_LABEL, undefined, "jupiter"));
  } catch (error) {
    // No Jupiter v6 on this chain (the embedded demo chain): nothing can be program-quoted (or checked).
    // Said plainly, as a fact of the chain, not as an error: a normal demo start logs no `err`.
    if (!explicit) {
      logger.info(
        { program: JUPITER_V6_PROGRAM_ID.toBase58() },
        "program quoter off: this chain has no Jupiter v6 program, so every AMM is quoted by its math",
      );
      return undefined;
    }
    throw error;
  }
  for (const adapter of wanted) await loader.load(pendingItem(adapter.label, adapter, "quoted"));
  // A math AMM whose program this chain does not have is simply not checked.
  for (const adapter of shadowed) await loader.load(pendingItem(adapter.label, adapter, "shadow"));
  const { labels, shadowLabels, pending } = loader;
  if (labels.length === 0 && shadowLabels.length === 0 && pending.size === 0) return undefined;
  if (labels.length > 0) logger.info({ amms: labels }, "program quoter loaded: these AMMs are quoted by executing their programs");
  if (shadowLabels.length > 0)
    logger.info({ amms: shadowLabels }, "program quoter loaded: sampled quotes through these AMMs are checked against their programs (QUOTE_SHADOW_RATE)");
  const stopTimers = startTimers(loader, binaries, options.refreshMs, logger);
  return {
    quoter,
    labels,
    shadowLabels,
    leftOut: () => leftOutOf(wanted, pending),
    close() {
      loader.closed = true;
      stopTimers();
      void quoter.close();
    },
  };
}

/** The program-quoted AMMs to load, and the math AMMs to load for shadow checks; an unknown label named is a start error. */
function selectAmms(options: ProgramQuoterStartOptions): { wanted: AnyAmmAdapter[]; shadowed: AnyAmmAdapter[]; explicit: boolean } {
  const candidates = options.adapters.filter((a) => a.quotedByProgram);
  const explicit = options.amms !== "auto";
  const wanted = options.amms === "auto" ? candidates : candidates.filter((a) => options.amms.includes(a.label));
  if (options.amms !== "auto") {
    const unknown = options.amms.filter((label) => !candidates.some((a) => a.label === label));
    if (unknown.length > 0) {
      throw new Error(`PROGRAM_QUOTED_AMMS: ${unknown.join(", ")} not quoted by program (choose from ${candidates.map((a) => a.label).join(", ")})`);
    }
  }
  const shadowed = options.shadowMathAmms ? options.adapters.filter((a) => a.quote !== undefined) : [];
  return { wanted, shadowed, explicit };
}

/** The quoter with its worker threads, or undefined (said once) where LiteSVM does not load and no AMM was named. */
async function newQuoter(explicit: boolean, logger: Logger): Promise<ProgramQuoter | undefined> {
  // Loaded only now: LiteSVM is a native addon that a service without program-quoted AMMs never needs.
  let ProgramQuoterClass: new (options: ProgramQuoterOptions) => ProgramQuoter;
  try {
    ({ ProgramQuoter: ProgramQuoterClass } = await import("./program-quoter.js"));
  } catch (error) {
    // A platform LiteSVM has no binary for: "auto" serves the other venues (said once), a named AMM cannot be quoted.
    if (explicit) throw new Error(`PROGRAM_QUOTED_AMMS: the program quoter cannot run here (LiteSVM did not load: ${String(error)})`);
    logger.warn({ reason: String(error) }, "program quoter off: LiteSVM (its native binary) did not load on this platform; program-quoted AMMs are not quoted");
    return undefined;
  }
  // Curves of program-quoted pools (ladders of simulations) run in worker threads beside the event loop.
  const { defaultProgramQuoteWorkers } = await import("./program-quote-workers.js");
  return new ProgramQuoterClass({ workers: defaultProgramQuoteWorkers() });
}

function pendingItem(label: string, adapter: AnyAmmAdapter | undefined, role: Pending["role"]): Pending {
  return { label, adapter, role, failures: 0, reason: "", nextAt: 0 };
}

/** Loads programs into the quoter; what the RPC could not serve stays pending and is read again with a doubling backoff. */
class ProgramLoader {
  readonly labels: string[] = [];
  readonly shadowLabels: string[] = [];
  readonly pending = new Map<string, Pending>();
  closed = false;
  private retrying = false;

  constructor(
    readonly quoter: ProgramQuoter,
    private readonly binaries: ProgramBinaries,
    private readonly explicit: boolean,
    readonly retryMs: number,
    private readonly logger: Logger,
  ) {}

  /** Reads one program; true when loaded, false when left out (pending when the RPC failed). */
  async load(item: Pending): Promise<boolean> {
    const programId = item.adapter?.programId ?? JUPITER_V6_PROGRAM_ID;
    try {
      this.quoter.addProgram(programId, (await this.binaries.load(programId)).elf);
    } catch (error) {
      if (error instanceof ProgramNotDeployedError) return this.notDeployed(item, error);
      this.failed(item, error);
      return false;
    }
    this.pending.delete(item.label);
    if (item.role === "quoted") this.labels.push(item.label);
    if (item.role === "shadow") this.shadowLabels.push(item.label);
    if (item.role !== "shadow") programQuoteMetrics.ammLoaded.set({ amm: item.label }, 1);
    if (item.failures > 0) this.logger.info({ amm: item.label, failures: item.failures }, `program quoter: ${item.label} loaded after all`);
    return true;
  }

  /** A program the chain does not have: Jupiter's, or a named AMM's, is an error; under "auto" the AMM is left out. */
  private notDeployed(item: Pending, error: ProgramNotDeployedError): false {
    this.pending.delete(item.label);
    if (item.role === "jupiter" || (item.role === "quoted" && this.explicit)) throw new Error(`PROGRAM_QUOTED_AMMS: ${item.label}: ${error.message}`);
    // "auto": an AMM whose program this chain does not have is simply not quoted (or checked).
    if (item.role === "quoted") this.logger.info({ amm: item.label }, `program quoter: ${item.label} left out: ${error.message}`);
    return false;
  }

  /** The RPC did not serve the binary: left out for now (said, counted), read again later. */
  private failed(item: Pending, error: unknown): void {
    item.failures++;
    item.reason = `its binary could not be read from the RPC: ${String(error)}`;
    item.nextAt = Date.now() + Math.min(this.retryMs * 2 ** (item.failures - 1), LONGEST_RETRY_MS);
    this.pending.set(item.label, item);
    programQuoteMetrics.binaryLoadFailures.inc({ amm: item.label });
    if (item.role !== "shadow") programQuoteMetrics.ammLoaded.set({ amm: item.label }, 0);
    this.logger.warn(
      { amm: item.label, failures: item.failures, retryInMs: item.nextAt - Date.now(), err: String(error) },
      `program quoter: ${item.label} left out for now: ${item.reason}; read again later`,
    );
  }

  /** Reads again, Jupiter first, what is due; a program whose retry fails waits longer. */
  async retryDue(): Promise<void> {
    if (this.retrying || this.closed) return;
    this.retrying = true;
    try {
      const jupiter = this.pending.get(JUPITER_LABEL);
      if (jupiter && jupiter.nextAt <= Date.now())
        await this.load(jupiter).catch((error: unknown) => this.logger.warn({ err: String(error) }, "program quoter: Jupiter v6 is gone from the chain"));
      for (const p of [...this.pending.values()]) {
        if (p.role === "jupiter" || p.nextAt > Date.now()) continue;
        // `load` throws only for a named AMM whose program is now gone from the chain: it stays left out, said here.
        await this.load(p).catch((error: unknown) =>
          this.logger.warn({ amm: p.label, err: String(error) }, `program quoter: ${p.label} left out: its program is gone from the chain`),
        );
      }
    } finally {
      this.retrying = false;
    }
  }
}

/** The retry timer, and the upgrade check every `refreshMs` (none when 0); returns what stops them. */
function startTimers(loader: ProgramLoader, binaries: ProgramBinaries, refreshMs: number | undefined, logger: Logger): () => void {
  const retryTimer = setInterval(() => void loader.retryDue(), Math.min(loader.retryMs, 1_000));
  retryTimer.unref();
  const refreshTimer =
    refreshMs && refreshMs > 0
      ? setInterval(() => {
          binaries
            .refresh()
            .then((upgraded) => upgraded.forEach((b) => loader.quoter.addProgram(b.programId, b.elf)))
            .catch((error: unknown) => logger.warn({ err: String(error) }, "program quoter: could not look for upgraded programs; keeps the loaded ones"));
        }, refreshMs)
      : undefined;
  refreshTimer?.unref();
  return () => {
    clearInterval(retryTimer);
    clearInterval(refreshTimer);
  };
}

/** The wanted AMMs not quoted now, and why: without Jupiter's binary each is left out for that reason, unless its own. */
function leftOutOf(wanted: readonly AnyAmmAdapter[], pending: ReadonlyMap<string, Pending>): LeftOutAmm[] {
  const jupiter = pending.get(JUPITER_LABEL);
  return wanted.flatMap((adapter) => {
    const own = pending.get(adapter.label);
    if (own) return [{ amm: adapter.label, reason: own.reason }];
    return jupiter ? [{ amm: adapter.label, reason: `Jupiter v6: ${jupiter.reason}` }] : [];
  });
}
