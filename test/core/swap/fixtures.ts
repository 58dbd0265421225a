// Shared test fixtures: deterministic keys, mints, Raydium CP demo pools and quotes.
import { createHash } from "node:crypto";
import { Keypair, PublicKey } from "@solana/web3.js";
import { demoRaydiumCpmmPool } from "../../../src/localnet/raydium-cpmm-demo-pool.js";
import type { DemoRaydiumCpmmPool } from "../../../src/localnet/raydium-cpmm-demo-pool.js";
import type { AccountData, AccountMap } from "../../../src/core/solana/account.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { MintInfo } from "../../../src/core/solana/token-accounts.js";
import type { QuoteInput, SwapInstructionsRequest } from "../../../src/core/swap/request.js";

export function keypair(label: string): Keypair {
  return Keypair.fromSeed(createHash("sha256").update(label).digest());
}
export function key(label: string): PublicKey {
  return keypair(label).publicKey;
}

export const USER = keypair("user");
export const MINT_A = key("mint A");
export const MINT_B = key("mint B");
export const MINT_C = key("mint C");
export const MINT_T22 = key("mint token-2022");

export const MINTS = new Map<string, MintInfo>([
  [NATIVE_MINT.toBase58(), { tokenProgram: TOKEN_PROGRAM_ID, decimals: 9 }],
  [MINT_A.toBase58(), { tokenProgram: TOKEN_PROGRAM_ID, decimals: 6 }],
  [MINT_B.toBase58(), { tokenProgram: TOKEN_PROGRAM_ID, decimals: 6 }],
  [MINT_C.toBase58(), { tokenProgram: TOKEN_PROGRAM_ID, decimals: 9 }],
  [MINT_T22.toBase58(), { tokenProgram: TOKEN_2022_PROGRAM_ID, decimals: 6 }],
]);

export function pool(mintA: PublicKey, mintB: PublicKey, configIndex = 0): DemoRaydiumCpmmPool {
  const info = (m: PublicKey) => MINTS.get(m.toBase58())!;
  return demoRaydiumCpmmPool({
    mintA,
    mintB,
    tokenProgramA: info(mintA).tokenProgram,
    tokenProgramB: info(mintB).tokenProgram,
    decimalsA: info(mintA).decimals,
    decimalsB: info(mintB).decimals,
    reserveA: 1_000_000_000n,
    reserveB: 2_000_000_000n,
    configIndex,
  });
}

export function accountMap(accounts: readonly AccountData[], missing: readonly PublicKey[] = []): AccountMap {
  const map = new Map<string, AccountData | null>(accounts.map((a) => [a.address.toBase58(), a]));
  for (const m of missing) map.set(m.toBase58(), null);
  return map;
}

export interface StepSpec {
  readonly pool: PublicKey;
  readonly input: PublicKey;
  readonly output: PublicKey;
  readonly percent: number;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

export function quote(
  steps: readonly StepSpec[],
  options: { input: PublicKey; output: PublicKey; inAmount: bigint; outAmount: bigint; swapMode?: "ExactIn" | "ExactOut"; feeBps?: number },
): QuoteInput {
  return {
    inputMint: options.input.toBase58(),
    outputMint: options.output.toBase58(),
    inAmount: options.inAmount.toString(),
    outAmount: options.outAmount.toString(),
    otherAmountThreshold: (options.swapMode === "ExactOut" ? (options.inAmount * 101n) / 100n : (options.outAmount * 99n) / 100n).toString(),
    swapMode: options.swapMode ?? "ExactIn",
    slippageBps: 100,
    platformFee: options.feeBps ? { amount: "10", feeBps: options.feeBps } : null,
    priceImpactPct: "0.001",
    routePlan: steps.map((s) => ({
      swapInfo: {
        ammKey: s.pool.toBase58(),
        label: "Raydium CP",
        inputMint: s.input.toBase58(),
        outputMint: s.output.toBase58(),
        inAmount: s.inAmount.toString(),
        outAmount: s.outAmount.toString(),
        feeAmount: "0",
        feeMint: s.input.toBase58(),
      },
      percent: s.percent,
      bps: s.percent * 100,
    })),
    contextSlot: 1,
    timeTaken: 0.01,
  };
}

export function request(q: QuoteInput, extra: Partial<SwapInstructionsRequest> = {}): SwapInstructionsRequest {
  return { userPublicKey: USER.publicKey.toBase58(), quote: q, ...extra };
}
