/**
 * The venues bench's chain and service, shared by `npm run bench:venues` and its on-chain test: the
 * chain (`venues-localnet-child.ts`: the bench's pools, the 2026 snapshots, the clock at SolFi V2's
 * slot) and the service configured as `npm start` runs it with a program-quoted AMM, each its own
 * process. Needs SWAPD_CHAIN_DIR.
 */
import { fileURLToPath } from "node:url";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { USDC } from "./amm-pools.js";
import { startLocalnetProcess } from "./localnet-process.js";
import type { LocalnetProcess } from "./localnet-process.js";
import { startServiceProcess } from "./service-process.js";
import type { ServiceProcess } from "./service-process.js";

const CHILD = fileURLToPath(new URL("./venues-localnet-child.ts", import.meta.url));

/** The labels of the bench chain's SOL/USDC venues: five math-quoted, SolFi V2 program-quoted. */
export const SOL_USDC_VENUES = ["Whirlpool", "Raydium CLMM", "Raydium", "Meteora", "Meteora DAMM v2", "SolFi V2"] as const;

/** The service's settings besides the chain: SolFi V2 quoted by its program (binaries read over RPC). */
export const VENUES_SERVICE_ENV = { PROGRAM_QUOTED_AMMS: "SolFi V2" } as const;

/**
 * The bench chain's venues by the date of its proprietary ones: `jan-2026` (the default: SolFi V2),
 * `mar-2026` (pmm-2026: SolFi V2, HumidiFi, Tessera V and BisonFi, all program-quoted by default; and the
 * Manifest order book of manifest-2026, math-quoted).
 */
export const VENUE_SETS = {
  "jan-2026": { venues: SOL_USDC_VENUES, env: VENUES_SERVICE_ENV },
  "mar-2026": { venues: [...SOL_USDC_VENUES, "HumidiFi", "TesseraV", "BisonFi", "Manifest"], env: {} },
} as const satisfies Record<string, { venues: readonly string[]; env: Record<string, string> }>;
export type VenueSet = keyof typeof VENUE_SETS;

/** `GET /swap/v1/quote` parameters of 1 SOL → USDC. */
export const ONE_SOL_TO_USDC = `inputMint=${NATIVE_MINT.toBase58()}&outputMint=${USDC.toBase58()}&amount=1000000000`;

export function startVenuesChain(set: VenueSet = "jan-2026"): Promise<LocalnetProcess> {
  return startLocalnetProcess(60_000, CHILD, [set]);
}

export function startVenuesService(chain: LocalnetProcess, cpuProfileDir?: string, set: VenueSet = "jan-2026"): Promise<ServiceProcess> {
  // A loaded shared machine compiles the service slowly.
  const env = VENUE_SETS[set].env;
  return startServiceProcess({ solanaRpcUrl: chain.url, env, startTimeoutMs: 180_000, ...(cpuProfileDir ? { cpuProfileDir } : {}) });
}

export interface VenueQuote {
  readonly venue: string;
  /** The venue's own output for the amount, or undefined with `error` when it gave no quote. */
  readonly outAmount?: bigint;
  readonly labels?: readonly string[];
  readonly error?: string;
}

/** One `dexes=<venue>` quote per venue. */
export async function quoteEachVenue(serviceUrl: string, query = ONE_SOL_TO_USDC, venues: readonly string[] = SOL_USDC_VENUES): Promise<VenueQuote[]> {
  const out: VenueQuote[] = [];
  for (const venue of venues) {
    const res = await fetch(`${serviceUrl}/swap/v1/quote?${query}&dexes=${encodeURIComponent(venue)}`);
    const body = (await res.json()) as { outAmount?: string; routePlan?: { swapInfo: { label: string } }[]; error?: string; errorCode?: string };
    out.push(
      res.status === 200 && body.outAmount !== undefined
        ? { venue, outAmount: BigInt(body.outAmount), labels: (body.routePlan ?? []).map((s) => s.swapInfo.label) }
        : { venue, error: `HTTP ${res.status} ${body.errorCode ?? ""} ${body.error ?? ""}`.trim() },
    );
  }
  return out;
}
