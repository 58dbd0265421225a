import type { AddressLookupTableAccount } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { ChainUnavailableError } from "../../chain/chain-errors.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { assembleTransactionMessage } from "../../core/swap/assemble.js";
import type { SwapInstructionsResult } from "../../core/swap/build.js";
import { explainTransactionFailure } from "../../landing/index.js";

/** Why the simulation for `dynamicComputeUnitLimit` did not give a unit count (Jupiter's `simulationError`). */
export interface SimulationFailure {
  readonly errorCode: string;
  readonly error: string;
}

/**
 * Simulates the assembled transaction once. A transaction that fails (or that the node refuses to
 * simulate, or that cannot even be assembled, e.g. too large) is a result, not an error: Jupiter
 * returns it as `simulationError`. Only an unreachable RPC is an error.
 */
export async function simulateSwap(
  chain: SolanaChain,
  result: SwapInstructionsResult,
  blockhash: string,
  lookupTables: readonly AddressLookupTableAccount[],
): Promise<{ units: number } | SimulationFailure> {
  try {
    const chosen = new Set(result.addressLookupTableAddresses.map((k) => base58Of(k)));
    const tables = lookupTables.filter((t) => chosen.has(base58Of(t.key)));
    const tx = assembleTransactionMessage(result, result.payer, blockhash, tables);
    const simulation = await chain.simulateTransaction(tx);
    if (simulation.err !== null) {
      // One readable line, as Execute gives: instruction, program, error name, and the program
      // that is not deployed when that is why (e.g. Jupiter's on a fresh embedded chain).
      const message = tx.message;
      const instructionProgramIds = message.compiledInstructions.map((ix) => message.staticAccountKeys[ix.programIdIndex]);
      const error = await explainTransactionFailure(chain, simulation.err, {
        instructionProgramIds,
        logs: simulation.logs,
      });
      return { errorCode: "TRANSACTION_SIMULATION_FAILED", error };
    }
    if (simulation.unitsConsumed === null) {
      return { errorCode: "TRANSACTION_SIMULATION_FAILED", error: "the simulation reported no consumed compute units" };
    }
    return { units: simulation.unitsConsumed };
  } catch (error) {
    if (error instanceof ChainUnavailableError) throw error;
    return { errorCode: "TRANSACTION_SIMULATION_FAILED", error: (error as Error).message ?? String(error) };
  }
}
