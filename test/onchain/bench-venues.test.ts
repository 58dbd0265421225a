// The venues bench's chain (bench/venues-chain.ts, as `npm run bench:venues` starts it: the chain
// and the service as `npm start` runs it, each its own process): each of its six SOL/USDC venues
// gives a quote of its own for 1 SOL → USDC through `dexes=<label>` — five by swapd's math, SolFi
// V2 by executing its program — and with no filter the quote pays at least the best of them. The
// SolFi V2 figure is the one the chain folder's README records for this pool, slot and amount
// through the real Jupiter program (128.219184 USDC). Without the venues the bench would measure
// a quote over fewer pools than it says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOLFI_V2_PROGRAM_ID } from "../../src/core/amm/solfi-v2.js";
import { JUPITER_V6_PROGRAM_ID } from "../../src/core/solana/programs.js";
import type { LocalnetProcess } from "../../bench/localnet-process.js";
import type { ServiceProcess } from "../../bench/service-process.js";
import { ONE_SOL_TO_USDC, SOL_USDC_VENUES, quoteEachVenue, startVenuesChain, startVenuesService } from "../../bench/venues-chain.js";
import type { VenueQuote } from "../../bench/venues-chain.js";
import { hasPrograms } from "../fixtures/chain-dir.js";

const available = hasPrograms([JUPITER_V6_PROGRAM_ID.toBase58(), SOLFI_V2_PROGRAM_ID.toBase58()]);
if (!available) console.warn("bench venues test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and SolFi V2 binaries and accounts-2026/");

describe.skipIf(!available)("the venues bench's chain: six SOL/USDC venues quote", () => {
  let chain: LocalnetProcess;
  let service: ServiceProcess;
  let venues: VenueQuote[];

  beforeAll(async () => {
    chain = await startVenuesChain();
    service = await startVenuesService(chain);
    venues = await quoteEachVenue(service.url);
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await chain?.stop();
  });

  it.each(SOL_USDC_VENUES)("%s: quotes 1 SOL → USDC through itself alone", (label) => {
    const venue = venues.find((v) => v.venue === label)!;
    expect(venue.error, `${label} gave no quote`).toBeUndefined();
    expect(venue.outAmount).toBeGreaterThan(0n);
    expect(venue.labels!.length).toBeGreaterThan(0);
    for (const step of venue.labels!) expect(step).toBe(label);
  });

  it("SolFi V2: the program's own output for 1 SOL at the pool's slot", () => {
    expect(venues.find((v) => v.venue === "SolFi V2")!.outAmount).toBe(128_219_184n);
  });

  it("with no filter: at least every venue's own output", async () => {
    const res = await fetch(`${service.url}/swap/v1/quote?${ONE_SOL_TO_USDC}`);
    expect(res.status).toBe(200);
    const best = BigInt(((await res.json()) as { outAmount: string }).outAmount);
    for (const v of venues) expect(best, v.venue).toBeGreaterThanOrEqual(v.outAmount!);
  });
});
