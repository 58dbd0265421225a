import type { PublicKey } from "@solana/web3.js";
import { jupiterErrorName } from "../jupiter/errors.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  JUPITER_V6_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  LIMIT_ORDER_V2_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "../solana/programs.js";

/**
 * Readable text for a failed transaction: which instruction, which program, the custom error
 * code and, where known, the program's error name. Input is the `err` value of the JSON-RPC
 * (`getSignatureStatuses` / `getTransaction` meta.err), e.g. `{"InstructionError":[6,{"Custom":3012}]}`.
 */

/** The JSON-RPC form of a TransactionError: a string for fieldless variants, else a one-key object. */
export type RpcTransactionError = string | { readonly [variant: string]: unknown };

const SYSTEM_ERRORS: readonly string[] = [
  "AccountAlreadyInUse",
  "ResultWithNegativeLamports",
  "InvalidProgramId",
  "InvalidAccountDataLength",
  "MaxSeedLengthExceeded",
  "AddressWithSeedMismatch",
  "NonceNoRecentBlockhashes",
  "NonceBlockhashNotExpired",
  "NonceUnexpectedBlockhashValue",
];

/** spl-token `TokenError` (Token-2022 shares 0–19 and adds more after). */
const TOKEN_ERRORS: readonly string[] = [
  "NotRentExempt",
  "InsufficientFunds",
  "InvalidMint",
  "MintMismatch",
  "OwnerMismatch",
  "FixedSupply",
  "AlreadyInUse",
  "InvalidNumberOfProvidedSigners",
  "InvalidNumberOfRequiredSigners",
  "UninitializedState",
  "NativeNotSupported",
  "NonNativeHasBalance",
  "InvalidInstruction",
  "InvalidState",
  "Overflow",
  "AuthorityTypeNotSupported",
  "MintCannotFreeze",
  "AccountFrozen",
  "MintDecimalsMismatch",
  "NonNativeNotSupported",
];

const ASSOCIATED_TOKEN_ERRORS: readonly string[] = ["InvalidOwner"];

/** Anchor framework errors (anchor-lang `ErrorCode`), shared by every Anchor program. */
const ANCHOR_ERRORS: ReadonlyMap<number, string> = new Map<number, string>([
  [100, "InstructionMissing"],
  [101, "InstructionFallbackNotFound"],
  [102, "InstructionDidNotDeserialize"],
  [103, "InstructionDidNotSerialize"],
  [1000, "IdlInstructionStub"],
  [1001, "IdlInstructionInvalidProgram"],
  [1002, "IdlAccountNotEmpty"],
  [1500, "EventInstructionStub"],
  [2000, "ConstraintMut"],
  [2001, "ConstraintHasOne"],
  [2002, "ConstraintSigner"],
  [2003, "ConstraintRaw"],
  [2004, "ConstraintOwner"],
  [2005, "ConstraintRentExempt"],
  [2006, "ConstraintSeeds"],
  [2007, "ConstraintExecutable"],
  [2008, "ConstraintState"],
  [2009, "ConstraintAssociated"],
  [2010, "ConstraintAssociatedInit"],
  [2011, "ConstraintClose"],
  [2012, "ConstraintAddress"],
  [2013, "ConstraintZero"],
  [2014, "ConstraintTokenMint"],
  [2015, "ConstraintTokenOwner"],
  [2016, "ConstraintMintMintAuthority"],
  [2017, "ConstraintMintFreezeAuthority"],
  [2018, "ConstraintMintDecimals"],
  [2019, "ConstraintSpace"],
  [2020, "ConstraintAccountIsNone"],
  [2021, "ConstraintTokenTokenProgram"],
  [2022, "ConstraintMintTokenProgram"],
  [2023, "ConstraintAssociatedTokenTokenProgram"],
  [2024, "ConstraintMintGroupPointerExtension"],
  [2025, "ConstraintMintGroupPointerExtensionAuthority"],
  [2026, "ConstraintMintGroupPointerExtensionGroupAddress"],
  [2027, "ConstraintMintGroupMemberPointerExtension"],
  [2028, "ConstraintMintGroupMemberPointerExtensionAuthority"],
  [2029, "ConstraintMintGroupMemberPointerExtensionMemberAddress"],
  [2030, "ConstraintMintMetadataPointerExtension"],
  [2031, "ConstraintMintMetadataPointerExtensionAuthority"],
  [2032, "ConstraintMintMetadataPointerExtensionMetadataAddress"],
  [2033, "ConstraintMintCloseAuthorityExtension"],
  [2034, "ConstraintMintCloseAuthorityExtensionAuthority"],
  [2035, "ConstraintMintPermanentDelegateExtension"],
  [2036, "ConstraintMintPermanentDelegateExtensionDelegate"],
  [2037, "ConstraintMintTransferHookExtension"],
  [2038, "ConstraintMintTransferHookExtensionAuthority"],
  [2039, "ConstraintMintTransferHookExtensionProgramId"],
  [2500, "RequireViolated"],
  [2501, "RequireEqViolated"],
  [2502, "RequireKeysEqViolated"],
  [2503, "RequireNeqViolated"],
  [2504, "RequireKeysNeqViolated"],
  [2505, "RequireGtViolated"],
  [2506, "RequireGteViolated"],
  [3000, "AccountDiscriminatorAlreadySet"],
  [3001, "AccountDiscriminatorNotFound"],
  [3002, "AccountDiscriminatorMismatch"],
  [3003, "AccountDidNotDeserialize"],
  [3004, "AccountDidNotSerialize"],
  [3005, "AccountNotEnoughKeys"],
  [3006, "AccountNotMutable"],
  [3007, "AccountOwnedByWrongProgram"],
  [3008, "InvalidProgramId"],
  [3009, "InvalidProgramExecutable"],
  [3010, "AccountNotSigner"],
  [3011, "AccountNotSystemOwned"],
  [3012, "AccountNotInitialized"],
  [3013, "AccountNotProgramData"],
  [3014, "AccountNotAssociatedTokenAccount"],
  [3015, "AccountSysvarMismatch"],
  [3016, "AccountReallocExceedsLimit"],
  [3017, "AccountDuplicateReallocs"],
  [4100, "DeclaredProgramIdMismatch"],
  [4101, "TryingToInitPayerAsProgramAccount"],
  [4102, "InvalidNumericConversion"],
  [5000, "Deprecated"],
]);

interface KnownProgram {
  readonly label: string;
  readonly errorName: (code: number) => string | undefined;
}

const KNOWN_PROGRAMS: ReadonlyMap<string, KnownProgram> = new Map<string, KnownProgram>([
  [SYSTEM_PROGRAM_ID.toBase58(), { label: "System program", errorName: (code) => SYSTEM_ERRORS[code] }],
  [TOKEN_PROGRAM_ID.toBase58(), { label: "Token program", errorName: (code) => TOKEN_ERRORS[code] }],
  [TOKEN_2022_PROGRAM_ID.toBase58(), { label: "Token-2022 program", errorName: (code) => TOKEN_ERRORS[code] }],
  [ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(), { label: "Associated Token program", errorName: (code) => ASSOCIATED_TOKEN_ERRORS[code] }],
  [COMPUTE_BUDGET_PROGRAM_ID.toBase58(), { label: "Compute Budget program", errorName: () => undefined }],
  [JUPITER_V6_PROGRAM_ID.toBase58(), { label: "Jupiter v6 program", errorName: (code) => jupiterErrorName(code) ?? ANCHOR_ERRORS.get(code) }],
  [
    LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    // The program's own error list (6000+) is not public; Anchor's framework codes are known.
    { label: "Limit Order v2 program", errorName: (code) => ANCHOR_ERRORS.get(code) },
  ],
]);

/** The name of a custom error code of a given program, where this module knows it. */
export function programErrorName(programId: PublicKey | string, code: number): string | undefined {
  const key = typeof programId === "string" ? programId : programId.toBase58();
  return KNOWN_PROGRAMS.get(key)?.errorName(code);
}

export interface TransactionFailureContext {
  /** Program id of each top-level instruction of the message, by index. */
  readonly instructionProgramIds?: readonly (PublicKey | string)[];
  /**
   * Log lines of the failed transaction. The first "Program X failed" line names the program
   * that raised the error (possibly a CPI callee); callers up the stack re-report the same code.
   */
  readonly logs?: readonly string[];
}

export interface DescribedTransactionFailure {
  /** One readable line, e.g. "instruction 6 (Limit Order v2 program) failed: custom program error 3012 (0xbc4): AccountNotInitialized". */
  readonly message: string;
  readonly instructionIndex: number | null;
  readonly customCode: number | null;
  readonly errorName: string | null;
  readonly programId: string | null;
}

const FAILED_LOG_LINE = /^Program (\w{32,44}) failed: /;

function failingProgramFromLogs(logs: readonly string[] | undefined): string | undefined {
  if (logs === undefined) return undefined;
  for (const line of logs) {
    const match = FAILED_LOG_LINE.exec(line);
    if (match !== null) return match[1];
  }
  return undefined;
}

function variantText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") {
    const [variant, detail] = Object.entries(value as Record<string, unknown>)[0] ?? ["unknown error", undefined];
    return detail === undefined || detail === null ? variant : `${variant}: ${JSON.stringify(detail)}`;
  }
  return String(value);
}

export function describeTransactionError(err: RpcTransactionError, context: TransactionFailureContext = {}): DescribedTransactionFailure {
  if (typeof err === "object" && err !== null && "InstructionError" in err) {
    const [index, instructionError] = err["InstructionError"] as [number, unknown];
    const topLevel = context.instructionProgramIds?.[index];
    const programId = failingProgramFromLogs(context.logs) ?? (topLevel === undefined ? undefined : String(topLevel));
    const program = programId === undefined ? undefined : KNOWN_PROGRAMS.get(programId);
    const who = program?.label ?? programId;
    const prefix = `instruction ${index}${who === undefined ? "" : ` (${who})`} failed: `;
    const custom = instructionError !== null && typeof instructionError === "object" && "Custom" in instructionError ? Number(instructionError.Custom) : null;
    if (custom !== null) {
      const errorName = programId === undefined ? undefined : programErrorName(programId, custom);
      const codeText = `custom program error ${custom} (0x${custom.toString(16)})`;
      return {
        message: prefix + codeText + (errorName === undefined ? "" : `: ${errorName}`),
        instructionIndex: index,
        customCode: custom,
        errorName: errorName ?? null,
        programId: programId ?? null,
      };
    }
    const text = variantText(instructionError);
    return { message: prefix + text, instructionIndex: index, customCode: null, errorName: text, programId: programId ?? null };
  }
  const text = variantText(err);
  return { message: `transaction failed: ${text}`, instructionIndex: null, customCode: null, errorName: text, programId: null };
}
