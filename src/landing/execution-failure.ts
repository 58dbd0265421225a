import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import { describeTransactionError } from "../core/trigger/index.js";
import type { RpcTransactionError } from "../core/trigger/index.js";

/** Transaction-level errors that mean "an instruction's program is missing or not executable". */
const PROGRAM_LOAD_ERRORS: ReadonlySet<string> = new Set(["InvalidProgramForExecution", "ProgramAccountNotFound"]);

/**
 * One readable line for a failed transaction (core `describeTransactionError`: instruction index,
 * program, custom code and name). A program-load error carries no instruction index, so the
 * instructions' programs are read to name the one that is not deployed.
 */
export async function explainTransactionFailure(
  chain: SolanaChain,
  err: RpcTransactionError,
  context: { readonly instructionProgramIds: readonly PublicKey[]; readonly logs?: readonly string[] },
): Promise<string> {
  if (typeof err === "string" && PROGRAM_LOAD_ERRORS.has(err)) {
    // Naming the missing program only sharpens the text; without the read the failure is still described.
    const programs = await chain.getMultipleAccounts(context.instructionProgramIds).catch(() => null);
    const index = programs?.findIndex((account) => account === null || !account.executable) ?? -1;
    if (index >= 0) {
      const programId = context.instructionProgramIds[index].toBase58();
      const described = describeTransactionError({ InstructionError: [index, err] }, { instructionProgramIds: context.instructionProgramIds });
      return `${described.message}: program ${programId} is not deployed on this chain`;
    }
  }
  return describeTransactionError(err, {
    instructionProgramIds: context.instructionProgramIds,
    ...(context.logs === undefined ? {} : { logs: context.logs }),
  }).message;
}
