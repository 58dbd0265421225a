// The two real Jupiter swap-instructions responses (reference/examples) rebuilt from the same inputs.
import { PublicKey } from "@solana/web3.js";
import type { AccountMeta, TransactionInstruction } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import type { AmmAdapter } from "../../../src/core/amm/adapter.js";
import { JUPITER_V6_PROGRAM_ID, NATIVE_MINT, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { MintInfo } from "../../../src/core/solana/token-accounts.js";
import { buildSwapInstructions, withComputeUnitLimit } from "../../../src/core/swap/build.js";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import type { PrioritizationInput } from "../../../src/core/swap/request.js";
import { decodeRoutePools } from "../../../src/core/swap/route-pools.js";
import { readReference } from "../jupiter/anchor-idl.js";
import { accountMap } from "./fixtures.js";

interface JsonInstruction {
  programId: string;
  accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  data: string;
}

function json(ix: TransactionInstruction): JsonInstruction {
  return {
    programId: ix.programId.toBase58(),
    accounts: ix.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(ix.data).toString("base64"),
  };
}

const DLMM = new PublicKey("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo");
const USER = "BXzmfHxfEMcMj8hDccUNdrwXVNeybyfb2iV2nktE1VnJ";
const JUP = new PublicKey("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN");

/** Each DLMM step's accounts in the real instruction: from the DLMM program id to the JUP6 terminator. */
function stepSlices(accounts: JsonInstruction["accounts"]): AccountMeta[][] {
  const slices: AccountMeta[][] = [];
  let current: AccountMeta[] = [];
  for (const a of accounts.slice(13)) {
    current.push({ pubkey: new PublicKey(a.pubkey), isSigner: a.isSigner, isWritable: a.isWritable });
    if (a.pubkey === JUPITER_V6_PROGRAM_ID.toBase58()) {
      slices.push(current);
      current = [];
    }
  }
  expect(current).toEqual([]);
  return slices;
}

/**
 * Test-local stand-in for the Meteora DLMM adapter (it comes with its own issue): the "pool" is
 * the real step's account slice; it reports the slice's mints and returns the slice unchanged.
 */
function standInDlmm(slices: AccountMeta[][]): AmmAdapter<AccountMeta[]> {
  const byPool = new Map(slices.map((s) => [s[1]!.pubkey.toBase58(), s]));
  return {
    programId: DLMM,
    label: "Meteora DLMM",
    supportsExactOut: false,
    poolIsImmutable: false,
    decodePool: (account) => byPool.get(account.address.toBase58())!,
    mints: (slice) => [slice[7]!.pubkey, slice[8]!.pubkey], // token_x_mint, token_y_mint
    dependencies: () => [],
    build: (slice) => ({ swap: { kind: "MeteoraDlmm" }, accounts: slice }),
  };
}

function rebuild(file: string, quotedOut: bigint, prioritization: PrioritizationInput, simulatedUnits: number, fees: number[]) {
  const real = readReference(`examples/${file}`);
  const slices = stepSlices(real.swapInstruction.accounts);
  // The route's mints from the real accounts: each step turns its input into the slice's other mint.
  let input = NATIVE_MINT;
  const steps = slices.map((slice) => {
    const [x, y] = [slice[7]!.pubkey, slice[8]!.pubkey];
    const output = x.equals(input) ? y : x;
    const step = { ammKey: slice[1]!.pubkey, input, output };
    input = output;
    return step;
  });
  expect(input.equals(JUP)).toBe(true);

  const parsed = parseSwapInstructionsRequest({
    userPublicKey: USER,
    quote: {
      inputMint: NATIVE_MINT.toBase58(),
      outputMint: JUP.toBase58(),
      inAmount: "100000",
      outAmount: quotedOut.toString(),
      otherAmountThreshold: ((quotedOut * 9750n) / 10000n).toString(),
      swapMode: "ExactIn",
      slippageBps: 250,
      platformFee: null,
      priceImpactPct: "0",
      routePlan: steps.map((s) => ({
        swapInfo: {
          ammKey: s.ammKey.toBase58(),
          label: "Meteora DLMM",
          inputMint: s.input.toBase58(),
          outputMint: s.output.toBase58(),
          inAmount: "1",
          outAmount: "1",
        },
        percent: 100,
      })),
    },
    prioritization,
  });
  const poolAccounts = steps.map((s) => ({ address: s.ammKey, owner: DLMM, lamports: 1n, data: new Uint8Array(), executable: false }));
  const accounts = accountMap(poolAccounts);
  const adapter = standInDlmm(slices);
  const pools = decodeRoutePools(parsed, accounts, undefined, (owner) => (owner.equals(DLMM) ? adapter : undefined));
  const mints = new Map<string, MintInfo>(
    [NATIVE_MINT, ...steps.map((s) => s.output)].map((m) => [m.toBase58(), { tokenProgram: TOKEN_PROGRAM_ID, decimals: 6 }]),
  );
  const result = buildSwapInstructions(parsed, {
    accounts,
    pools,
    mints,
    prioritizationFees: fees,
    relayTipAccount: new PublicKey("3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT"),
    programAuthorityId: 5,
  });
  return { real, result: withComputeUnitLimit(result, simulatedUnits, 0) };
}

describe("real Jupiter responses rebuilt", () => {
  test("with a relay (Jito) tip of 1000 lamports, 2 Meteora DLMM hops", () => {
    const { real, result } = rebuild("jupiter-go.swapInstructionsWithJito.json", 24266n, { kind: "relayTip", lamports: 1000 }, 247073, []);
    expect(result.computeBudgetInstructions.map(json)).toEqual(real.computeBudgetInstructions);
    expect(result.setupInstructions.map(json)).toEqual(real.setupInstructions);
    expect(json(result.cleanupInstruction!)).toEqual(real.cleanupInstruction);
    expect(result.otherInstructions.map(json)).toEqual(real.otherInstructions);
    const swap = json(result.swapInstruction);
    expect(swap.accounts.slice(0, 13)).toEqual(real.swapInstruction.accounts.slice(0, 13));
    expect(swap).toEqual(real.swapInstruction); // data and, with the stand-in, the step accounts too
    expect(result.computeUnitLimit).toBe(real.computeUnitLimit);
    expect(result.prioritizationFeeLamports).toBe(BigInt(real.prioritizationFeeLamports));
    expect(result.prioritizationType).toEqual({ kind: "relayTip", lamports: BigInt(real.prioritizationType.jito.lamports) });
  });

  test("with a compute-budget price (priorityLevel capped by maxLamports 1000), 3 Meteora DLMM hops", () => {
    // One fee sample: the real response's uncapped estimate.
    const { real, result } = rebuild(
      "jupiter-go.swapInstructionsWithoutJito.json",
      24256n,
      { kind: "priorityLevel", level: "veryHigh", maxLamports: 1000 },
      335433,
      [387211],
    );
    expect(result.computeBudgetInstructions.map(json)).toEqual(real.computeBudgetInstructions);
    expect(result.setupInstructions.map(json)).toEqual(real.setupInstructions);
    expect(json(result.cleanupInstruction!)).toEqual(real.cleanupInstruction);
    expect(result.otherInstructions.map(json)).toEqual(real.otherInstructions);
    const swap = json(result.swapInstruction);
    expect(swap.accounts.slice(0, 13)).toEqual(real.swapInstruction.accounts.slice(0, 13));
    expect(swap).toEqual(real.swapInstruction);
    expect(result.computeUnitLimit).toBe(real.computeUnitLimit);
    expect(result.prioritizationFeeLamports).toBe(BigInt(real.prioritizationFeeLamports));
    expect(result.prioritizationType).toEqual({
      kind: "computeBudget",
      microLamports: BigInt(real.prioritizationType.computeBudget.microLamports),
      estimatedMicroLamports: BigInt(real.prioritizationType.computeBudget.estimatedMicroLamports),
    });
  });
});
