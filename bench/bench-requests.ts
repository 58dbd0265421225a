/**
 * The two requests the bench compares, both Connect JSON over HTTP/1.1 on the service's one port:
 * - baseline: `grpc.health.v1.Health/Check` (a no-op unary RPC through the same server stack);
 * - target: `SwapService/SwapInstructions` for a 1 SOL → USDC Raydium CP quote over the demo pool,
 *   with the demo wallet as user and every option at its default (priority fee "auto", user
 *   accounts read), i.e. the common production call.
 */
import { AccountLayout } from "@solana/spl-token";
import { getRaydiumCpmmPoolCodec } from "../src/core/amm/raydium-cpmm.js";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO_POOLS, DEMO_RAYDIUM_CP_SOL_USDC } from "../src/localnet/demo-pools.js";
import { DEMO } from "../src/localnet/demo-seed.js";
import type { LoadRequest } from "./load.js";

export type RequestKind = "health" | "swap";

const JSON_HEADERS = { "content-type": "application/json" } as const;

export function healthCheckRequest(serviceUrl: string): LoadRequest {
  return {
    url: `${serviceUrl}/grpc.health.v1.Health/Check`,
    method: "POST",
    headers: JSON_HEADERS,
    body: Buffer.from("{}"),
    accept: (status, body) => status === 200 && body.includes("SERVING"),
  };
}

const SOL_IN = 1_000_000_000n; // 1 SOL
const TRADE_FEE_RATE = 2_500n; // the demo pool's config: 0.25 % (Raydium's unit is 1e-6)
const SLIPPAGE_BPS = 50n;

/** A Jupiter-shaped quote of the demo pool, priced with the constant-product formula. */
function demoQuote(): Record<string, unknown> {
  const demo = DEMO_RAYDIUM_CP_SOL_USDC;
  const pool = getRaydiumCpmmPoolCodec().decode(demo.pool.data);
  const reserveA = AccountLayout.decode(Buffer.from(demo.vaultA.data)).amount;
  const reserveB = AccountLayout.decode(Buffer.from(demo.vaultB.data)).amount;
  const solIsA = pool.mintA.equals(NATIVE_MINT);
  const reserveIn = solIsA ? reserveA : reserveB;
  const reserveOut = solIsA ? reserveB : reserveA;
  const fee = (SOL_IN * TRADE_FEE_RATE + 999_999n) / 1_000_000n;
  const inAfterFee = SOL_IN - fee;
  const out = (inAfterFee * reserveOut) / (reserveIn + inAfterFee);
  const inputMint = NATIVE_MINT.toBase58();
  const outputMint = DEMO.usdcMint.toBase58();
  return {
    inputMint,
    inAmount: SOL_IN.toString(),
    outputMint,
    outAmount: out.toString(),
    otherAmountThreshold: ((out * (10_000n - SLIPPAGE_BPS)) / 10_000n).toString(),
    swapMode: "ExactIn",
    slippageBps: Number(SLIPPAGE_BPS),
    priceImpactPct: "0",
    routePlan: [
      {
        swapInfo: {
          ammKey: DEMO_POOLS.raydiumCpSolUsdc.toBase58(),
          label: "Raydium CP",
          inputMint,
          outputMint,
          inAmount: SOL_IN.toString(),
          outAmount: out.toString(),
          feeAmount: fee.toString(),
          feeMint: inputMint,
        },
        percent: 100,
      },
    ],
    contextSlot: "1",
    timeTaken: 0.001,
  };
}

/** The SwapInstructions request message in its JSON form (Connect JSON; grpc-js takes the same object). */
export function swapInstructionsMessage(): Record<string, unknown> {
  return { userPublicKey: DEMO.wallet.toBase58(), quoteResponse: demoQuote() };
}

export function swapInstructionsRequest(serviceUrl: string): LoadRequest {
  const body = swapInstructionsMessage();
  return {
    url: `${serviceUrl}/swapd.swap.v1.SwapService/SwapInstructions`,
    method: "POST",
    headers: JSON_HEADERS,
    body: Buffer.from(JSON.stringify(body)),
    accept: (status, res) => status === 200 && res.includes('"swapInstruction"'),
  };
}

export function requestFor(kind: RequestKind, serviceUrl: string): LoadRequest {
  return kind === "health" ? healthCheckRequest(serviceUrl) : swapInstructionsRequest(serviceUrl);
}

/** The Connect procedure of a request kind, as `swapd_calls_total{procedure}` names it. */
export function procedureOf(kind: RequestKind): string {
  return kind === "health" ? "/grpc.health.v1.Health/Check" : "/swapd.swap.v1.SwapService/SwapInstructions";
}
