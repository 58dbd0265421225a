// The math = program check, shared by the on-chain tests that set up an AMM's pool: the adapter's
// quote (its math) and the program quoter's (the adapter's own step executed by the AMM's real
// program inside Jupiter's route, on the same state and clock) for the same amount and direction.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PublicKey } from "@solana/web3.js";
import { expect } from "vitest";
import { ProgramQuoter } from "../../src/chain/program-quoter.js";
import type { AmmAdapter } from "../../src/core/amm/adapter.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { JUPITER_V6_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { clockOf, quoteFromChain } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

/** A program quoter holding Jupiter v6 and `programs` from the chain folder. */
export function programQuoterFor(chainDir: string, programs: readonly PublicKey[]): ProgramQuoter {
  const quoter = new ProgramQuoter({ computeUnits: 1_400_000 });
  for (const program of [JUPITER_V6_PROGRAM_ID, ...programs]) {
    quoter.addProgram(program, new Uint8Array(readFileSync(join(chainDir, "programs", `${program.toBase58()}.so`))));
  }
  return quoter;
}

/** A deterministic stream of amounts between `min` and `max` (log-uniform: small and large trades). */
export function amounts(seed: number, count: number, min: bigint, max: bigint): bigint[] {
  let s = seed;
  const out: bigint[] = [];
  const span = Math.log(Number(max) / Number(min));
  for (let i = 0; i < count; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out.push(BigInt(Math.floor(Number(min) * Math.exp((s / 2 ** 31) * span))));
  }
  return out;
}

/** Both quotes of an ExactIn; 1 when the math fills it in full (and the program pays the same), else 0. */
function compare<Pool>(stack: OnchainStack, quoter: ProgramQuoter, adapter: AmmAdapter<Pool>, address: PublicKey, amount: bigint, aToB: boolean): number {
  const params = { amount, swapMode: "ExactIn", aToB } as const;
  const { pool, quote: math } = quoteFromChain(stack.localnet, adapter, address, params);
  const accounts = new Map<string, AccountData | null>();
  for (let round = 0; round < 4; round++) {
    const keys = quoter.accountsNeeded(adapter, pool, params, accounts);
    if (keys.length === 0) break;
    for (const key of keys) accounts.set(key.toBase58(), stack.localnet.getAccount(key));
  }
  const program = quoter.quote(adapter, pool, params, accounts, clockOf(stack.localnet));
  const what = `${adapter.label} ${aToB ? "A→B" : "B→A"} ${amount}`;
  if (!math.complete) {
    // The math says the step cannot fill it: the program must not pay more than it says.
    expect(program.complete && program.outAmount > math.outAmount, `${what}: ${math.reason}`).toBe(false);
    return 0;
  }
  expect(program.complete, `${what}: ${program.reason}`).toBe(true);
  expect(program.outAmount, what).toBe(math.outAmount);
  return 1;
}

/** Compares every amount; at least `min` of them must be filled in full by both (not only pools out of range). */
export function expectMathEqualsProgram<Pool>(
  stack: OnchainStack,
  quoter: ProgramQuoter,
  adapter: AmmAdapter<Pool>,
  address: PublicKey,
  aToB: boolean,
  list: readonly bigint[],
  min: number,
): void {
  const filled = list.reduce((n, amount) => n + compare(stack, quoter, adapter, address, amount, aToB), 0);
  expect(filled, `${adapter.label} ${aToB ? "A→B" : "B→A"}: amounts both quoted in full`).toBeGreaterThanOrEqual(min);
}
