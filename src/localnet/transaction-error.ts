import type { FailedTransactionMetadata } from "litesvm";

/**
 * Solana's JSON shape of a `TransactionError`, as validators return it
 * (`"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`, ...).
 */
export type TransactionErrorJson = string | Record<string, unknown>;

// Names of LiteSVM's fieldless enums, in their numeric order (litesvm 1.5 internal.d.ts, which
// follows solana-transaction-error's enum order with the data-carrying variants removed).
const TRANSACTION_ERROR_NAMES = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
] as const;

const INSTRUCTION_ERROR_NAMES = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
] as const;

type LiteSvmTransactionError = ReturnType<FailedTransactionMetadata["err"]>;

function instructionErrorJson(err: unknown): unknown {
  if (typeof err === "number") return INSTRUCTION_ERROR_NAMES[err] ?? "GenericError";
  if (err !== null && typeof err === "object") {
    if ("code" in err) return { Custom: Number((err as { code: number }).code) };
    if ("msg" in err) return { BorshIoError: String((err as { msg: string }).msg) };
  }
  return "GenericError";
}

/** Converts LiteSVM's error object into the validator's JSON form. */
export function transactionErrorJson(err: LiteSvmTransactionError): TransactionErrorJson {
  if (typeof err === "number") return TRANSACTION_ERROR_NAMES[err] ?? "SanitizeFailure";
  const e = err as unknown as Record<string, unknown> & { err?: () => unknown };
  if (typeof e.err === "function" && typeof e.index === "number") {
    return { InstructionError: [e.index, instructionErrorJson(e.err())] };
  }
  const name = err.constructor?.name ?? "";
  if (name.includes("DuplicateInstruction")) return { DuplicateInstruction: Number(e.index) };
  if (name.includes("InsufficientFundsForRent")) {
    return { InsufficientFundsForRent: { account_index: Number(e.accountIndex) } };
  }
  if (name.includes("ProgramExecutionTemporarilyRestricted")) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: Number(e.accountIndex) } };
  }
  return "SanitizeFailure";
}

/**
 * Errors raised before execution: a validator drops such a transaction (no fee, no record);
 * everything else (instruction errors and the like) lands in a block and costs the fee.
 */
export function isDroppedBeforeExecution(err: TransactionErrorJson): err is string {
  return typeof err === "string";
}

/** A human-readable description in the style of the validator's preflight messages. */
export function describeTransactionError(err: TransactionErrorJson): string {
  if (typeof err === "string") return err;
  const ix = err.InstructionError as [number, unknown] | undefined;
  if (ix) {
    const [index, detail] = ix;
    if (detail !== null && typeof detail === "object" && "Custom" in detail) {
      const code = Number((detail as { Custom: number }).Custom);
      return `Error processing Instruction ${index}: custom program error: 0x${code.toString(16)}`;
    }
    return `Error processing Instruction ${index}: ${JSON.stringify(detail)}`;
  }
  return JSON.stringify(err);
}
