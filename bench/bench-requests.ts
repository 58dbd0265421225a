/**
 * The requests the bench sends, all Connect JSON over HTTP/1.1 on the service's one port:
 * - baseline: `grpc.health.v1.Health/Check` (a no-op unary RPC through the same server stack);
 * - one SwapInstructions request per route (`SWAP_ROUTES`): one hop through each supported AMM's
 *   bench pool (bench/amm-pools.ts) and a 2-hop Whirlpool route, with the demo wallet as user and
 *   every option at its default (priority fee "auto", user accounts read, no simulation), i.e. the
 *   common production call.
 */
import { AccountLayout } from "@solana/spl-token";
import { getRaydiumCpmmPoolCodec } from "../src/core/amm/raydium-cpmm.js";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO_POOLS, DEMO_RAYDIUM_CP_SOL_USDC } from "../src/localnet/demo-pools.js";
import { DEMO } from "../src/localnet/demo-seed.js";
import { BENCH_POOLS, DLMM_PAIR_TOKEN, PUMP_SWAP_TOKEN, SAMO, USDC } from "./amm-pools.js";
import type { LoadRequest } from "./load.js";

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

const SOL = NATIVE_MINT.toBase58();
const SOL_IN = 1_000_000_000n; // 1 SOL
const SLIPPAGE_BPS = 50n;

interface RouteStep {
  readonly ammKey: string;
  readonly label: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

/** The demo Raydium CP pool's output for 1 SOL: constant product with its 0.25 % fee. */
function demoCpStep(): RouteStep {
  const demo = DEMO_RAYDIUM_CP_SOL_USDC;
  const pool = getRaydiumCpmmPoolCodec().decode(demo.pool.data);
  const reserveA = AccountLayout.decode(Buffer.from(demo.vaultA.data)).amount;
  const reserveB = AccountLayout.decode(Buffer.from(demo.vaultB.data)).amount;
  const solIsA = pool.mintA.equals(NATIVE_MINT);
  const [reserveIn, reserveOut] = solIsA ? [reserveA, reserveB] : [reserveB, reserveA];
  const fee = (SOL_IN * 2_500n + 999_999n) / 1_000_000n;
  const out = ((SOL_IN - fee) * reserveOut) / (reserveIn + SOL_IN - fee);
  return {
    ammKey: DEMO_POOLS.raydiumCpSolUsdc.toBase58(),
    label: "Raydium CP",
    inputMint: SOL,
    outputMint: DEMO.usdcMint.toBase58(),
    inAmount: SOL_IN,
    outAmount: out,
  };
}

/** 1 SOL → ~150 USDC through `pool` (SwapInstructions builds from the pool; the amounts only have to be plausible). */
function solUsdcStep(pool: { toBase58(): string }, label: string): RouteStep {
  return { ammKey: pool.toBase58(), label, inputMint: SOL, outputMint: USDC.toBase58(), inAmount: SOL_IN, outAmount: 150_000_000n };
}

export interface SwapRoute {
  /** `--routes` name. */
  readonly id: string;
  readonly description: string;
  readonly steps: readonly RouteStep[];
}

export const SWAP_ROUTES: readonly SwapRoute[] = [
  { id: "raydium-cp", description: "Raydium CP, demo SOL/USDC", steps: [demoCpStep()] },
  { id: "whirlpool", description: "Whirlpool, mainnet SOL/USDC", steps: [solUsdcStep(BENCH_POOLS.whirlpoolSolUsdc, "Whirlpool")] },
  { id: "raydium-clmm", description: "Raydium CLMM SOL/USDC", steps: [solUsdcStep(BENCH_POOLS.raydiumClmmSolUsdc, "Raydium CLMM")] },
  {
    id: "meteora-dlmm",
    description: "Meteora DLMM, mainnet pair",
    steps: [
      {
        ammKey: BENCH_POOLS.meteoraDlmmPair.toBase58(),
        label: "Meteora DLMM",
        inputMint: SOL,
        outputMint: DLMM_PAIR_TOKEN.toBase58(),
        inAmount: SOL_IN,
        outAmount: 1_000_000_000_000n,
      },
    ],
  },
  { id: "raydium-amm-v4", description: "Raydium AMM v4 SOL/USDC", steps: [solUsdcStep(BENCH_POOLS.raydiumAmmV4SolUsdc, "Raydium")] },
  { id: "meteora-damm-v1", description: "Meteora DAMM v1 SOL/USDC", steps: [solUsdcStep(BENCH_POOLS.meteoraDammV1SolUsdc, "Meteora")] },
  { id: "meteora-damm-v2", description: "Meteora DAMM v2, mainnet SOL/USDC", steps: [solUsdcStep(BENCH_POOLS.meteoraDammV2SolUsdc, "Meteora DAMM v2")] },
  {
    id: "pump-swap",
    description: "PumpSwap token/SOL",
    steps: [
      {
        ammKey: BENCH_POOLS.pumpSwapTokenSol.toBase58(),
        label: "Pump.fun Amm",
        inputMint: SOL,
        outputMint: PUMP_SWAP_TOKEN.toBase58(),
        inAmount: SOL_IN,
        outAmount: 30_000_000_000n,
      },
    ],
  },
  {
    id: "whirlpool-2hop",
    description: "Whirlpool 2 hops, SOL→USDC→SAMO",
    steps: [
      solUsdcStep(BENCH_POOLS.whirlpoolSolUsdc, "Whirlpool"),
      {
        ammKey: BENCH_POOLS.whirlpoolSamoUsdc.toBase58(),
        label: "Whirlpool",
        inputMint: USDC.toBase58(),
        outputMint: SAMO.toBase58(),
        inAmount: 150_000_000n,
        outAmount: 20_000_000_000_000n,
      },
    ],
  },
];

/** `health`, or a route's id. */
export type RequestKind = string;
export const HEALTH = "health";

export function routeById(id: string): SwapRoute {
  const route = SWAP_ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`no bench route ${JSON.stringify(id)} (routes: ${SWAP_ROUTES.map((r) => r.id).join(", ")})`);
  return route;
}

/** A Jupiter-shaped quote response over the route's steps. */
function quoteOf(route: SwapRoute): Record<string, unknown> {
  const first = route.steps[0];
  const last = route.steps[route.steps.length - 1];
  return {
    inputMint: first.inputMint,
    inAmount: first.inAmount.toString(),
    outputMint: last.outputMint,
    outAmount: last.outAmount.toString(),
    otherAmountThreshold: ((last.outAmount * (10_000n - SLIPPAGE_BPS)) / 10_000n).toString(),
    swapMode: "ExactIn",
    slippageBps: Number(SLIPPAGE_BPS),
    priceImpactPct: "0",
    routePlan: route.steps.map((s) => ({
      swapInfo: {
        ammKey: s.ammKey,
        label: s.label,
        inputMint: s.inputMint,
        outputMint: s.outputMint,
        inAmount: s.inAmount.toString(),
        outAmount: s.outAmount.toString(),
        feeAmount: "0",
        feeMint: s.inputMint,
      },
      percent: 100,
    })),
    contextSlot: "1",
    timeTaken: 0.001,
  };
}

/** The SwapInstructions request message in its JSON form (Connect JSON; grpc-js takes the same object). */
export function swapInstructionsMessage(routeId: string): Record<string, unknown> {
  return { userPublicKey: DEMO.wallet.toBase58(), quoteResponse: quoteOf(routeById(routeId)) };
}

export function swapInstructionsRequest(serviceUrl: string, routeId: string): LoadRequest {
  return {
    url: `${serviceUrl}/swapd.swap.v1.SwapService/SwapInstructions`,
    method: "POST",
    headers: JSON_HEADERS,
    body: Buffer.from(JSON.stringify(swapInstructionsMessage(routeId))),
    accept: (status, res) => status === 200 && res.includes('"swapInstruction"'),
  };
}

export function requestFor(kind: RequestKind, serviceUrl: string): LoadRequest {
  return kind === HEALTH ? healthCheckRequest(serviceUrl) : swapInstructionsRequest(serviceUrl, kind);
}

/** The Connect procedure of a request kind, as `swapd_calls_total{procedure}` names it. */
export function procedureOf(kind: RequestKind): string {
  return kind === HEALTH ? "/grpc.health.v1.Health/Check" : "/swapd.swap.v1.SwapService/SwapInstructions";
}
