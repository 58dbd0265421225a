import { describe, expect, it } from "vitest";
import { LangErrorCode } from "@coral-xyz/anchor";
import { LIMIT_ORDER_V2_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { describeTransactionError, programErrorName } from "../../../src/core/trigger/transaction-failure.js";

const createOrderPrograms = [
  COMPUTE_BUDGET_PROGRAM_ID,
  COMPUTE_BUDGET_PROGRAM_ID,
  "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
  SYSTEM_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
  LIMIT_ORDER_V2_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
];

describe("describeTransactionError", () => {
  it("names every Anchor framework error code exactly as @coral-xyz/anchor does", () => {
    for (const [name, code] of Object.entries(LangErrorCode)) {
      expect([code, programErrorName(LIMIT_ORDER_V2_PROGRAM_ID, code)]).toEqual([code, name]);
    }
  });

  it("a Limit Order failure: instruction index, program, code in decimal and hex, Anchor name", () => {
    const described = describeTransactionError({ InstructionError: [6, { Custom: 3012 }] }, { instructionProgramIds: createOrderPrograms });
    expect(described.message).toBe("instruction 6 (Limit Order v2 program) failed: custom program error 3012 (0xbc4): AccountNotInitialized");
    expect(described).toMatchObject({ instructionIndex: 6, customCode: 3012, errorName: "AccountNotInitialized" });
  });

  it("an unknown Limit Order code falls back to the number", () => {
    const described = describeTransactionError({ InstructionError: [6, { Custom: 6001 }] }, { instructionProgramIds: createOrderPrograms });
    expect(described.message).toBe("instruction 6 (Limit Order v2 program) failed: custom program error 6001 (0x1771)");
    expect(described.errorName).toBeNull();
  });

  it("SPL Token and System errors by name", () => {
    expect(describeTransactionError({ InstructionError: [4, { Custom: 1 }] }, { instructionProgramIds: createOrderPrograms }).message).toBe(
      "instruction 4 (Token program) failed: custom program error 1 (0x1): InsufficientFunds",
    );
    expect(describeTransactionError({ InstructionError: [3, { Custom: 1 }] }, { instructionProgramIds: createOrderPrograms }).errorName).toBe(
      "ResultWithNegativeLamports",
    );
  });

  it("the failing CPI callee named in the logs wins over the top-level program", () => {
    const logs = [
      "Program j1o2qRpjcyUwEvwtcfhEQefh773ZgjxcVRry7LDqg5X invoke [1]",
      "Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [2]",
      "Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed: custom program error: 0x1",
      "Program j1o2qRpjcyUwEvwtcfhEQefh773ZgjxcVRry7LDqg5X failed: custom program error: 0x1",
    ];
    // The outer program re-reports the callee's code; the callee (first "failed" line) raised it.
    const described = describeTransactionError({ InstructionError: [6, { Custom: 1 }] }, { instructionProgramIds: createOrderPrograms, logs });
    expect(described.programId).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(described.message).toBe("instruction 6 (Token program) failed: custom program error 1 (0x1): InsufficientFunds");
  });

  it("non-custom instruction errors and transaction-level errors", () => {
    expect(describeTransactionError({ InstructionError: [0, "InvalidAccountData"] }, { instructionProgramIds: createOrderPrograms }).message).toBe(
      "instruction 0 (Compute Budget program) failed: InvalidAccountData",
    );
    expect(describeTransactionError("BlockhashNotFound").message).toBe("transaction failed: BlockhashNotFound");
    expect(describeTransactionError({ InsufficientFundsForRent: { account_index: 2 } }).message).toBe(
      'transaction failed: InsufficientFundsForRent: {"account_index":2}',
    );
    expect(describeTransactionError({ InstructionError: [9, { Custom: 0 }] }).message).toBe("instruction 9 failed: custom program error 0 (0x0)");
  });
});
