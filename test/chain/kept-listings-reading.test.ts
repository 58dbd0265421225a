// A start with kept market listings of mainnet's size reads them in the background: the index's
// start returns before they are in, the event loop keeps turning while they are read (health checks
// and quotes are answered meanwhile), the progress (pools, programs, bytes, time left) is told per
// program and asked at any time, and once read every pool answers by pair. A kept listing of 50,000
// Raydium CP pools written in the kept format, the rest of the programs listed from the embedded chain.
import { mkdtemp, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepListing } from "../../src/chain/kept-listings.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import type { KeptListingsProgress } from "../../src/chain/market-listing-source.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { base58OfBytes } from "../../src/core/solana/base58-strings.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

const POOLS = 50_000;
const SOL = "So11111111111111111111111111111111111111112";
const RAYDIUM_CP = ammAdapters.find((a) => a.label === "Raydium CP")!;

describe("kept market listings read in the background at start", () => {
  let localnet: Localnet;
  let dir: string;
  const markets = Array.from({ length: POOLS }, () => ({
    address: base58OfBytes(randomBytes(32)),
    program: RAYDIUM_CP.programId.toBase58(),
    mints: [base58OfBytes(randomBytes(32)), SOL] as [string, string],
  }));

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), "swapd-kept-reading-"));
    await keepListing(dir, RAYDIUM_CP, { markets, withoutMints: 0 }, Date.now());
  });
  afterAll(async () => {
    await localnet?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("starts at once, keeps the event loop turning, tells the progress, and then answers every pair", async () => {
    const told: { amm: string; pools: number; progress: KeptListingsProgress }[] = [];
    const index = new MarketIndex({
      chain: new RpcSolanaChain({ url: localnet.url }),
      adapters: ammAdapters,
      hubTokens: [SOL],
      discoveryTtlMs: 0,
      listing: { refreshMs: 0, timeoutMs: 30_000, keepDir: dir },
      onKeptRead: (amm, pools, _ms, progress) => told.push({ amm, pools, progress }),
    });
    try {
      let turns = 0;
      const ticker = setInterval(() => turns++, 1);
      await index.start();
      // Returned before the pools are in.
      expect(index.keptListingsProgress()?.done ?? false).toBe(false);
      expect([...(await index.forPair(markets[POOLS - 1].mints[0], SOL))]).toEqual([]);
      await index.whenListed();
      clearInterval(ticker);
      // Reading 50,000 pools gave the event loop back: timers ran while it went on.
      expect(turns).toBeGreaterThan(0);

      const progress = index.keptListingsProgress()!;
      expect(progress).toMatchObject({ programs: 1, programsRead: 1, pools: POOLS, done: true, etaMs: undefined });
      expect(progress.bytesRead).toBe(progress.bytes);
      expect(told).toEqual([{ amm: "Raydium CP", pools: POOLS, progress: expect.objectContaining({ pools: POOLS, programsRead: 1 }) }]);
      for (const m of [markets[0], markets[POOLS / 2], markets[POOLS - 1]]) {
        expect([...(await index.forPair(m.mints[0], SOL))].map((x) => x.addressText)).toEqual([m.address]);
      }
    } finally {
      index.close();
    }
  }, 120_000);
});
