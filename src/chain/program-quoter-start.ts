/**
 * The program quoter as the service runs it: loaded only when an AMM without public math is enabled
 * (`PROGRAM_QUOTED_AMMS`), its binaries and Jupiter v6's read from the chain (disk copies under
 * `DATA_DIR/programs`), re-read periodically so an upgraded program is quoted by its new code.
 */
import type { Logger } from "pino";
import type { AmmAdapter } from "../core/amm/adapter.js";
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { ProgramBinaries } from "./program-binaries.js";
import type { ProgramQuoter } from "./program-quoter.js";
import type { SolanaChain } from "./solana-chain.js";

export interface ProgramQuoterStartOptions {
  readonly chain: SolanaChain;
  /** The AMMs to quote by their programs (labels, e.g. `SolFi V2`); `"auto"`: those whose program is deployed on the chain. */
  readonly amms: readonly string[] | "auto";
  /** Every adapter; those with `quotedByProgram` are candidates. */
  readonly adapters: readonly AmmAdapter<any>[];
  /** Where program binaries are kept between runs. */
  readonly cacheDir?: string;
  /**
   * Also load the programs of the AMMs with math that the chain has (QUOTE_SHADOW_RATE > 0), so
   * that their quotes can be checked against them.
   */
  readonly shadowMathAmms?: boolean;
  /** How often to look for upgraded programs (ms); 0 = never. */
  readonly refreshMs?: number;
  readonly logger: Logger;
}

export interface RunningProgramQuoter {
  readonly quoter: ProgramQuoter;
  /** The labels of the AMMs it quotes. */
  readonly labels: readonly string[];
  /** The labels of the AMMs with math whose programs it holds for shadow checks. */
  readonly shadowLabels: readonly string[];
  close(): void;
}

/** Starts the program quoter, or answers undefined when no program-quoted AMM is enabled or deployed. */
export async function startProgramQuoter(options: ProgramQuoterStartOptions): Promise<RunningProgramQuoter | undefined> {
  const candidates = options.adapters.filter((a) => a.quotedByProgram);
  const wanted = options.amms === "auto" ? candidates : candidates.filter((a) => options.amms.includes(a.label));
  if (options.amms !== "auto") {
    const unknown = options.amms.filter((label) => !candidates.some((a) => a.label === label));
    if (unknown.length > 0) {
      throw new Error(`PROGRAM_QUOTED_AMMS: ${unknown.join(", ")} not quoted by program (choose from ${candidates.map((a) => a.label).join(", ")})`);
    }
  }
  const shadowed = options.shadowMathAmms ? options.adapters.filter((a) => a.quote !== undefined) : [];
  if (wanted.length === 0 && shadowed.length === 0) return undefined;
  const binaries = new ProgramBinaries({ chain: options.chain, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}), logger: options.logger });
  // Loaded only now: LiteSVM is a native addon that a service without program-quoted AMMs never needs.
  const { ProgramQuoter } = await import("./program-quoter.js");
  // Curves of program-quoted pools (ladders of simulations) run in worker threads beside the event loop.
  const { defaultProgramQuoteWorkers } = await import("./program-quote-workers.js");
  const quoter = new ProgramQuoter({ workers: defaultProgramQuoteWorkers() });
  try {
    const jupiter = await binaries.load(JUPITER_V6_PROGRAM_ID);
    quoter.addProgram(JUPITER_V6_PROGRAM_ID, jupiter.elf);
  } catch (error) {
    // No Jupiter v6 on this chain: nothing can be program-quoted (or checked).
    if (options.amms === "auto" || wanted.length === 0) {
      if (shadowed.length > 0) options.logger.warn({ err: String(error) }, "QUOTE_SHADOW_RATE: Jupiter v6 could not be loaded; no quote is checked");
      return undefined;
    }
    throw new Error(`PROGRAM_QUOTED_AMMS: Jupiter v6 could not be loaded: ${String(error)}`);
  }
  /** Loads each adapter's program into the quoter; the labels of those loaded (`failed` decides about the others). */
  const load = async (adapters: readonly AmmAdapter<any>[], failed: (adapter: AmmAdapter<any>, error: unknown) => void): Promise<string[]> => {
    const loaded: string[] = [];
    for (const adapter of adapters) {
      try {
        quoter.addProgram(adapter.programId, (await binaries.load(adapter.programId)).elf);
        loaded.push(adapter.label);
      } catch (error) {
        failed(adapter, error);
      }
    }
    return loaded;
  };
  const labels = await load(wanted, (adapter, error) => {
    if (options.amms !== "auto") throw new Error(`PROGRAM_QUOTED_AMMS: ${adapter.label} could not be loaded: ${String(error)}`);
    // "auto": an AMM whose program this chain does not have is simply not quoted.
  });
  // A math AMM whose program this chain does not have is simply not checked.
  const shadowLabels = await load(shadowed, (adapter, error) => options.logger.debug({ amm: adapter.label, err: String(error) }, "QUOTE_SHADOW_RATE: program not loaded"));
  if (labels.length === 0 && shadowLabels.length === 0) return undefined;
  if (labels.length > 0) options.logger.info({ amms: labels }, "program quoter loaded: these AMMs are quoted by executing their programs");
  if (shadowLabels.length > 0) options.logger.info({ amms: shadowLabels }, "program quoter loaded: sampled quotes through these AMMs are checked against their programs (QUOTE_SHADOW_RATE)");
  const timer =
    options.refreshMs && options.refreshMs > 0
      ? setInterval(() => {
          binaries
            .refresh()
            .then((upgraded) => upgraded.forEach((b) => quoter.addProgram(b.programId, b.elf)))
            .catch((error: unknown) => options.logger.warn({ err: String(error) }, "program quoter: could not look for upgraded programs; keeps the loaded ones"));
        }, options.refreshMs)
      : undefined;
  timer?.unref();
  return {
    quoter,
    labels,
    shadowLabels,
    close: () => {
      clearInterval(timer);
      void quoter.close();
    },
  };
}
