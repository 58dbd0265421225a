// Quotes on curves over the real stack (embedded chain, live account cache over its websocket,
// Raydium CP pools written in Raydium's layout): once the pools' curves are made, quotes at amounts
// never asked before are chosen on the curves and still pay exactly what Raydium CP's formula pays
// for each leg (computed here from the reserves written); after a pool's reserves change on chain,
// the next answers pay what the new reserves pay (the curve made before the change is not used for
// the answer), and the curve is made again.
import client from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_MINT } from "../../src/core/solana/programs.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { writeCpPool } from "../../src/localnet/cp-markets.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { startQuoteApiStack } from "./quote-stack.js";
import type { QuoteApiStack } from "./quote-stack.js";

const SOL = NATIVE_MINT.toBase58();
const USDC = DEMO.usdcMint.toBase58();
const E9 = 1_000_000_000n;
const E6 = 1_000_000n;

/** Raydium CP (CPMM) ExactIn: fee = ceil(in × 2500 / 10⁶), then the constant product, rounded down. */
function cpOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const fee = (amountIn * 2_500n + 999_999n) / 1_000_000n;
  const net = amountIn - fee;
  return (net * reserveOut) / (reserveIn + net);
}

/** Reserves (SOL, USDC) by pool address: the demo pool and two written here. */
const reserves = new Map<string, { sol: bigint; usdc: bigint }>([[DEMO_POOLS.raydiumCpSolUsdc.toBase58(), { sol: 1_000n * E9, usdc: 150_000n * E6 }]]);
const SPECS = [
  { configIndex: 1, sol: 800n * E9, usdc: 119_000n * E6 },
  { configIndex: 2, sol: 300n * E9, usdc: 45_300n * E6 },
];
let changing = "";

function writePool(localnet: Pick<Localnet, "setAccount">, spec: { configIndex: number; sol: bigint; usdc: bigint }): string {
  const pool = writeCpPool(localnet, {
    x: { address: NATIVE_MINT, decimals: 9 },
    y: { address: DEMO.usdcMint, decimals: 6 },
    reserveX: spec.sol,
    reserveY: spec.usdc,
    configIndex: spec.configIndex,
  });
  const address = pool.pool.address.toBase58();
  reserves.set(address, { sol: spec.sol, usdc: spec.usdc });
  return address;
}

async function curvesMade(): Promise<number> {
  const metric = client.register.getSingleMetric("swapd_quote_curves_made_total");
  return metric ? ((await metric.get()).values[0]?.value ?? 0) : 0;
}

/** Polls until `check` holds (bounded): the curves are made between requests, off the request path. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("quotes on curves (embedded chain, live cache, CP pools)", () => {
  let stack: QuoteApiStack;
  beforeAll(async () => {
    stack = await startQuoteApiStack({
      seeders: [
        (localnet) => {
          changing = writePool(localnet, SPECS[0]);
          writePool(localnet, SPECS[1]);
        },
      ],
      quote: { intermediateTokens: [SOL, USDC] },
      live: true,
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  /** A SOL → USDC quote at `amount`, each leg checked against the formula over the reserves now. */
  async function quoteChecked(amount: bigint): Promise<{ outAmount: bigint; legs: number }> {
    const { status, body } = await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${amount}`);
    expect(status, JSON.stringify(body)).toBe(200);
    let inTotal = 0n;
    let outTotal = 0n;
    for (const step of body.routePlan as { swapInfo: { ammKey: string; inputMint: string; inAmount: string; outAmount: string } }[]) {
      const r = reserves.get(step.swapInfo.ammKey)!;
      expect(r, step.swapInfo.ammKey).toBeDefined();
      expect(step.swapInfo.inputMint).toBe(SOL);
      const legIn = BigInt(step.swapInfo.inAmount);
      expect(BigInt(step.swapInfo.outAmount)).toBe(cpOut(legIn, r.sol, r.usdc));
      inTotal += legIn;
      outTotal += BigInt(step.swapInfo.outAmount);
    }
    expect(inTotal).toBe(amount);
    expect(BigInt(body.inAmount)).toBe(amount);
    expect(BigInt(body.outAmount)).toBe(outTotal);
    return { outAmount: outTotal, legs: body.routePlan.length };
  }

  it("fresh amounts after the curves are made: chosen on curves, paid exactly; a reserve change is paid as it is now", async () => {
    const before = await curvesMade();
    await quoteChecked(40n * E9 + 123_457n); // asks for the pools' curves
    await until(async () => (await curvesMade()) >= before + 3, "the three pools' curves");
    // Never-asked amounts across the curves' range: every leg pays the formula's amount.
    let splits = 0;
    for (const amount of [37n * E9 + 987_654_321n, 12n * E9 + 345_678n, 61n * E9 + 1n, 25n * E9 + 424_242_424n]) {
      splits += (await quoteChecked(amount)).legs > 1 ? 1 : 0;
    }
    expect(splits).toBeGreaterThan(0); // the curves chose splits, each share then quoted exactly

    // One pool's reserves move on chain (its curve was made over the old ones).
    const made = await curvesMade();
    const moved = { ...SPECS[0], sol: 700n * E9, usdc: 121_000n * E6 };
    const changed = writePool(stack.localnet, moved);
    expect(changed).toBe(changing);
    const amount = 33n * E9 + 271_828_182n;
    // Until the live cache has the change, answers pay the old reserves' amounts: wait for the new ones.
    const oldReserves = { sol: SPECS[0].sol, usdc: SPECS[0].usdc };
    reserves.set(changed, oldReserves);
    await until(async () => {
      const { body } = await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${amount}&dexes=Raydium%20CP`);
      const leg = (body.routePlan as { swapInfo: { ammKey: string; inAmount: string; outAmount: string } }[]).find((s) => s.swapInfo.ammKey === changed);
      return leg !== undefined && BigInt(leg.swapInfo.outAmount) === cpOut(BigInt(leg.swapInfo.inAmount), moved.sol, moved.usdc);
    }, "the live cache to report the reserve change");
    reserves.set(changed, { sol: moved.sol, usdc: moved.usdc });
    for (const fresh of [amount + 17n, 48n * E9 + 5n, 9n * E9 + 999n]) await quoteChecked(fresh);
    await until(async () => (await curvesMade()) > made, "the changed pool's curve made again");
    await quoteChecked(52n * E9 + 31_415n);
  }, 120_000);
});
