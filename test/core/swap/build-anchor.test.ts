import type { PublicKey } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { findProgramAuthority } from "../../../src/core/jupiter/pdas.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { buildSwapInstructions } from "../../../src/core/swap/build.js";
import { mintsFromAccounts, planAccountReads, routeReadKeys } from "../../../src/core/swap/plan.js";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import type { SwapInstructionsRequest } from "../../../src/core/swap/request.js";
import { resolveRoute } from "../../../src/core/swap/route-accounts.js";
import { decodeRoutePools } from "../../../src/core/swap/route-pools.js";
import { jupiterCoder, jupiterIdl, plain } from "../jupiter/anchor-idl.js";
import { MINTS, MINT_A, MINT_B, MINT_C, USER, accountMap, key, pool, quote, request } from "./fixtures.js";

const coder = jupiterCoder();
const poolAB = pool(MINT_A, MINT_B, 0);
const poolAB2 = pool(MINT_A, MINT_B, 1);
const poolBC = pool(MINT_B, MINT_C, 0);
const FEE_ACCOUNT = key("fee account");
const TRACKING = key("tracking");

function build(raw: SwapInstructionsRequest) {
  const parsed = parseSwapInstructionsRequest(raw);
  const pools = [poolAB, poolAB2, poolBC].map((p) => p.pool);
  const accounts = accountMap(pools);
  // The pools must be among what the planner asks to read.
  const reads = new Set(planAccountReads(parsed, routeReadKeys(parsed)).map((k) => k.toBase58()));
  for (const step of parsed.quote.routePlan) expect(reads.has(step.ammKey.toBase58())).toBe(true);
  const routePools = decodeRoutePools(parsed, accounts);
  return buildSwapInstructions(parsed, { accounts, pools: routePools, mints: MINTS, route: resolveRoute(parsed, MINTS, 3) });
}

const AB = (percent: number, p: PublicKey = poolAB.pool.address) => ({
  pool: p,
  input: MINT_A,
  output: MINT_B,
  percent,
  inAmount: (1_000_000n * BigInt(percent)) / 100n,
  outAmount: (1_900_000n * BigInt(percent)) / 100n,
});
const BC = { pool: poolBC.pool.address, input: MINT_B, output: MINT_C, percent: 100, inAmount: 1_900_000n, outAmount: 3_700_000n };

const cases = [
  {
    name: "route: one step, ExactIn",
    raw: request(quote([AB(100)], { input: MINT_A, output: MINT_B, inAmount: 1_000_000n, outAmount: 1_900_000n, feeBps: 20 }), {
      feeAccount: FEE_ACCOUNT.toBase58(),
      trackingAccount: TRACKING.toBase58(),
    }),
    instruction: "route",
    amounts: { inAmount: "1000000", quotedOutAmount: "1900000" },
    feeBps: 20,
    indices: [[0, 1, 100]],
  },
  {
    name: "route: multi-hop without shared accounts",
    raw: request(quote([AB(100), BC], { input: MINT_A, output: MINT_C, inAmount: 1_000_000n, outAmount: 3_700_000n }), {
      useSharedAccounts: false,
    }),
    instruction: "route",
    amounts: { inAmount: "1000000", quotedOutAmount: "3700000" },
    feeBps: 0,
    indices: [
      [0, 1, 100],
      [1, 2, 100],
    ],
  },
  {
    name: "shared_accounts_route: multi-hop (default shared)",
    raw: request(quote([AB(100), BC], { input: MINT_A, output: MINT_C, inAmount: 1_000_000n, outAmount: 3_700_000n, feeBps: 5 }), {
      feeAccount: FEE_ACCOUNT.toBase58(),
    }),
    instruction: "sharedAccountsRoute",
    amounts: { id: 3, inAmount: "1000000", quotedOutAmount: "3700000" },
    feeBps: 5,
    indices: [
      [0, 1, 100],
      [1, 2, 100],
    ],
  },
  {
    name: "shared_accounts_route: split then hop",
    raw: request(quote([AB(60), AB(40, poolAB2.pool.address), BC], { input: MINT_A, output: MINT_C, inAmount: 1_000_000n, outAmount: 3_700_000n })),
    instruction: "sharedAccountsRoute",
    amounts: { id: 3, inAmount: "1000000", quotedOutAmount: "3700000" },
    feeBps: 0,
    indices: [
      [0, 1, 60],
      [0, 1, 40],
      [1, 2, 100],
    ],
  },
] as const;

// ExactOut through these Raydium CP pools is refused (Jupiter's exact_out_route rejects RaydiumCP
// steps); exact_out_route's encoding is proven by test/core/jupiter and executed on the real
// program through Whirlpool steps in test/onchain.
describe("ExactOut through a Raydium CP step", () => {
  test("is refused before anything is built, naming the step", () => {
    const raw = request(
      quote([AB(70), AB(30, poolAB2.pool.address)], { input: MINT_A, output: MINT_B, inAmount: 1_000_000n, outAmount: 1_900_000n, swapMode: "ExactOut" }),
    );
    expect(() => build(raw)).toThrow(/routePlan\[0\] \(ammKey \w+, label "Raydium CP"\).*ExactOut/);
  });
});

describe("Jupiter instructions decoded by Anchor's BorshCoder over the IDL", () => {
  for (const c of cases) {
    test(c.name, () => {
      const result = build(c.raw);
      const decoded = plain(coder.instruction.decode(result.swapInstruction.data));
      expect(decoded.name).toBe(c.instruction);
      expect(decoded.data).toMatchObject({ ...c.amounts, slippageBps: 100, platformFeeBps: c.feeBps });
      expect(decoded.data.routePlan).toEqual(
        c.indices.map(([inputIndex, outputIndex, percent]) => ({ swap: { RaydiumCP: {} }, percent, inputIndex, outputIndex })),
      );
      expect(result.swapInstruction.programId.equals(JUPITER_V6_PROGRAM_ID)).toBe(true);

      // Accounts by the IDL's names: the platform-fee slot holds feeAccount (else JUP6, read-only).
      const idlAccounts = (jupiterIdl() as any).instructions.find((i: any) => i.name === c.instruction).accounts as { name: string }[];
      const byName = Object.fromEntries(idlAccounts.map((a, i) => [a.name, result.swapInstruction.keys[i]]));
      const fee = byName.platformFeeAccount;
      if (c.feeBps > 0) expect([fee.pubkey.toBase58(), fee.isWritable]).toEqual([FEE_ACCOUNT.toBase58(), true]);
      else expect([fee.pubkey.toBase58(), fee.isWritable]).toEqual([JUPITER_V6_PROGRAM_ID.toBase58(), false]);
      expect(byName.userTransferAuthority.pubkey.equals(USER.publicKey)).toBe(true);
      expect(byName.userTransferAuthority.isSigner).toBe(true);
      if (c.instruction.startsWith("shared")) {
        expect(byName.programAuthority.pubkey.equals(findProgramAuthority(3))).toBe(true);
        expect(byName.tokenProgram.pubkey.equals(TOKEN_PROGRAM_ID)).toBe(true);
      }
      // Each step contributes 14 Raydium CP accounts after the fixed ones.
      const steps = c.indices.length;
      const tail = c.raw.trackingAccount ? 1 : 0;
      expect(result.swapInstruction.keys.length).toBe(idlAccounts.length + 14 * steps + tail);
      if (tail) {
        const last = result.swapInstruction.keys.at(-1)!;
        expect([last.pubkey.toBase58(), last.isSigner, last.isWritable]).toEqual([TRACKING.toBase58(), false, false]);
      }
    });
  }

  test("mintsFromAccounts reads the mints the planner asked for", () => {
    const parsed = parseSwapInstructionsRequest(cases[0].raw);
    expect(() => mintsFromAccounts(routeReadKeys(parsed).mints, accountMap([]))).toThrow(/mint .* not found/);
  });
});
