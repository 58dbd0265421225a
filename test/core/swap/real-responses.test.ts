// The two real Jupiter swap-instructions responses (reference/examples) rebuilt end to end: the
// request parsed, the planned reads served from pair accounts consistent with the responses, the
// pools decoded by the real registered adapters, dependencies planned, instructions built.
import { PublicKey } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { meteoraDlmmAdapter } from "../../../src/core/amm/meteora-dlmm.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { buildSwapInstructions, withComputeUnitLimit } from "../../../src/core/swap/build.js";
import { mintsFromAccounts, planAccountReads, planDependencies, routeReadKeys } from "../../../src/core/swap/plan.js";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import type { PrioritizationInput } from "../../../src/core/swap/request.js";
import { resolveRoute } from "../../../src/core/swap/route-accounts.js";
import { decodeRoutePools } from "../../../src/core/swap/route-pools.js";
import { JUP_USDC, SOL_USDC, USDS_JUP, USDS_USDC, dlmm, realPairAccount } from "../amm/meteora-dlmm-fixtures.js";
import type { RealPair } from "../amm/meteora-dlmm-fixtures.js";
import { readReference } from "../jupiter/anchor-idl.js";
import { encodeMintAccount } from "../../../src/core/solana/token-accounts.js";

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

const USER = "BXzmfHxfEMcMj8hDccUNdrwXVNeybyfb2iV2nktE1VnJ";
const JUP = new PublicKey("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN");
/** The route's mints with their real (mainnet) decimals; all classic SPL Token mints. */
const DECIMALS: Record<string, number> = {
  [NATIVE_MINT.toBase58()]: 9,
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: 6, // USDC
  [JUP.toBase58()]: 6,
  USDSwr9ApdHk5bvJKMjzff41FfuX8bSxdKcR81vTwcA: 6, // USDS
};

/** A mint account as spl-token lays it out (MintLayout), owned by the Token program. */
function mintAccount(address: string): AccountData {
  const data = encodeMintAccount(DECIMALS[address], null, 1_000_000_000_000n);
  return { address: new PublicKey(address), owner: TOKEN_PROGRAM_ID, lamports: 1_461_600n, data: Uint8Array.from(data), executable: false };
}

/** The user's accounts the response creates in its setup (created = read and found missing). */
function createdAccounts(real: { setupInstructions: JsonInstruction[] }): string[] {
  return real.setupInstructions.filter((ix) => ix.programId === "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL").map((ix) => ix.accounts[1].pubkey);
}

async function rebuild(file: string, route: RealPair[], quotedOut: bigint, prioritization: PrioritizationInput, simulatedUnits: number, fees: number[]) {
  const real = readReference(`examples/${file}`);
  // The route's mints from the pairs: each step turns its input into the pair's other mint.
  let input = NATIVE_MINT.toBase58();
  const steps = route.map((p) => {
    const output = p.x === input ? p.y : p.x;
    const step = { ammKey: p.pair, input, output };
    input = output;
    return step;
  });
  expect(input).toBe(JUP.toBase58());

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
        swapInfo: { ammKey: s.ammKey, label: "Meteora DLMM", inputMint: s.input, outputMint: s.output, inAmount: "1", outAmount: "1" },
        percent: 100,
      })),
    },
    prioritization,
  });

  // The chain as the responses imply it: the pairs and the mints exist, the user's accounts that
  // the setup creates do not (every other planned read is one of those).
  const chain = new Map<string, AccountData>();
  for (const p of route) chain.set(p.pair, await realPairAccount(p));
  for (const mint of Object.keys(DECIMALS)) chain.set(mint, mintAccount(mint));
  const keys = routeReadKeys(parsed);
  const reads = planAccountReads(parsed, keys);
  const accounts = new Map<string, AccountData | null>(reads.map((k) => [k.toBase58(), chain.get(k.toBase58()) ?? null]));
  const routeMints = [NATIVE_MINT.toBase58(), ...steps.map((s) => s.output)];
  const found = [...accounts].filter(([, a]) => a !== null).map(([k]) => k);
  expect(found.sort()).toEqual([...steps.map((s) => s.ammKey), ...routeMints].sort());
  const missing = [...accounts].filter(([, a]) => a === null).map(([k]) => k);
  expect(missing).toEqual(expect.arrayContaining(createdAccounts(real)));

  const pools = decodeRoutePools(parsed, accounts); // the real registry (adapterForOwner)
  expect(pools.map((p) => p.adapter)).toEqual(route.map(() => meteoraDlmmAdapter));
  const mints = mintsFromAccounts(keys.mints, accounts);
  expect(Object.fromEntries([...mints].map(([k, m]) => [k, m.decimals]))).toEqual(Object.fromEntries(routeMints.map((m) => [m, DECIMALS[m]])));

  // Second read: each pair's bin-array bitmap extension (the SDK's PDA); none exists.
  const programAuthorityId = 5;
  const resolved = resolveRoute(parsed, mints, programAuthorityId);
  const dependencies = planDependencies({ accounts, pools, route: resolved });
  expect(dependencies.map((k) => k.toBase58())).toEqual(
    route.map((p) => (dlmm.deriveBinArrayBitmapExtension(new PublicKey(p.pair), meteoraDlmmAdapter.programId)[0] as PublicKey).toBase58()),
  );
  for (const key of dependencies) accounts.set(key.toBase58(), null);

  const result = buildSwapInstructions(parsed, {
    accounts,
    pools,
    mints,
    prioritizationFees: fees,
    relayTipAccount: new PublicKey("3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT"),
    route: resolved,
  });
  return { real, result: withComputeUnitLimit(result, simulatedUnits, 0) };
}

describe("real Jupiter responses rebuilt end to end (real Meteora DLMM adapter)", () => {
  test("with a relay (Jito) tip of 1000 lamports, 2 Meteora DLMM hops", async () => {
    const { real, result } = await rebuild(
      "jupiter-go.swapInstructionsWithJito.json",
      [SOL_USDC, JUP_USDC],
      24266n,
      { kind: "relayTip", lamports: 1000 },
      247073,
      [],
    );
    expect(result.computeBudgetInstructions.map(json)).toEqual(real.computeBudgetInstructions);
    expect(result.setupInstructions.map(json)).toEqual(real.setupInstructions);
    expect(json(result.cleanupInstruction!)).toEqual(real.cleanupInstruction);
    expect(result.otherInstructions.map(json)).toEqual(real.otherInstructions);
    const swap = json(result.swapInstruction);
    expect(swap.accounts.slice(0, 13)).toEqual(real.swapInstruction.accounts.slice(0, 13));
    expect(swap).toEqual(real.swapInstruction); // program, data, every account with its flags (steps included)
    expect(result.computeUnitLimit).toBe(real.computeUnitLimit);
    expect(result.prioritizationFeeLamports).toBe(BigInt(real.prioritizationFeeLamports));
    expect(result.prioritizationType).toEqual({ kind: "relayTip", lamports: BigInt(real.prioritizationType.jito.lamports) });
  });

  test("with a compute-budget price (priorityLevel capped by maxLamports 1000), 3 Meteora DLMM hops", async () => {
    // One fee sample: the real response's uncapped estimate.
    const { real, result } = await rebuild(
      "jupiter-go.swapInstructionsWithoutJito.json",
      [SOL_USDC, USDS_USDC, USDS_JUP],
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
