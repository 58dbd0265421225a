// MARKETS_FILE at size: 10,000 CP pools written on the localnet in Raydium's layout, listed in a
// file, loaded through a counting RPC proxy with batched reads, looked up by pair, and reloaded
// without a restart. Expected pools are the ones the test writes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { seededRandom } from "../fixtures/seeded-random.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";

const PAIRS = 1_000;
const POOLS_PER_PAIR = 10;

describe("MARKETS_FILE with 10,000 pools", () => {
  let localnet: Localnet;
  let proxy: JsonRpcProxy;
  const mints: LocalMint[] = [];
  /** Pool addresses of pair i (mints i and i+1). */
  const poolsOfPair: string[][] = [];

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    for (let i = 0; i <= PAIRS; i++) mints.push(writeMint(localnet, `listed market mint ${i}`, 6));
    for (let i = 0; i < PAIRS; i++) {
      // One pool written in full; its account copied to 9 more addresses (the index reads only the
      // pool account: owner and mints), which spares 45,000 PDA derivations.
      const pool = writeCpPool(localnet, { x: mints[i], y: mints[i + 1], reserveX: 10n ** 9n, reserveY: 10n ** 9n, configIndex: 0 }).pool;
      const pools = [pool.address.toBase58()];
      for (let c = 1; c < POOLS_PER_PAIR; c++) {
        const address = Keypair.generate().publicKey;
        localnet.setAccount(address, { lamports: pool.lamports, data: pool.data, owner: pool.owner });
        pools.push(address.toBase58());
      }
      poolsOfPair.push(pools);
    }
    proxy = await startJsonRpcProxy(localnet.url);
  }, 300_000);
  afterAll(async () => {
    await proxy.close();
    await localnet.close();
  });

  it("loads with 100 getMultipleAccounts of 100 keys, answers each pair with its pools, and reloads without a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapd-markets-"));
    const file = join(dir, "markets.json");
    writeFileSync(file, JSON.stringify(poolsOfPair.flat()));
    const index = new MarketIndex({ chain: new RpcSolanaChain({ url: proxy.url }), adapters: ammAdapters, discoveryTtlMs: 0, marketsFile: file });
    proxy.resetCalls();
    const loaded = await index.reloadFile();
    expect(loaded.refused).toEqual([]);
    expect(loaded.added).toHaveLength(PAIRS * POOLS_PER_PAIR);
    expect(proxy.calls("getMultipleAccounts")).toBe((PAIRS * POOLS_PER_PAIR) / 100);
    expect(proxy.calls()).toBe((PAIRS * POOLS_PER_PAIR) / 100);
    for (const i of [0, 1, 499, 999]) {
      const [x, y] = [mints[i].address.toBase58(), mints[i + 1].address.toBase58()];
      expect((await index.forPair(y, x)).map((m) => m.addressText).sort()).toEqual([...poolsOfPair[i]].sort());
    }
    // Not a listed pair (mints 0 and 2 have no pool together): nothing, and no RPC call.
    proxy.resetCalls();
    expect(await index.forPair(mints[0].address.toBase58(), mints[2].address.toBase58())).toEqual([]);
    expect(proxy.calls()).toBe(0);

    // The operator keeps the first half of the pairs: the rest leave on reload, no restart.
    writeFileSync(file, JSON.stringify(poolsOfPair.slice(0, PAIRS / 2).flat()));
    await index.reloadFile();
    expect((await index.forPair(mints[0].address.toBase58(), mints[1].address.toBase58())).length).toBe(POOLS_PER_PAIR);
    expect(await index.forPair(mints[999].address.toBase58(), mints[1000].address.toBase58())).toEqual([]);
    expect(index.known()).toHaveLength((PAIRS / 2) * POOLS_PER_PAIR);
  }, 120_000);
});

describe("MARKETS_FILE snapshots reloaded at random", () => {
  it("after each reload every pair and token answers exactly the file's pools (pairs and tokens holding 0, 1 and many); a reload of the same file changes no pair", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapd-index-tables-"));
    const file = join(dir, "markets.json");
    const program = ammAdapters.find((a) => a.label === "Raydium CP")!.programId.toBase58();
    const tokens = Array.from({ length: 5 }, () => Keypair.generate().publicKey.toBase58());
    // Pools by their tokens' indexes: pair 0/1 has four, token 0 is in six; each pool keeps its
    // mints across reloads (as on chain), which pools the file lists varies.
    const pairsOfPools = [
      [0, 1],
      [1, 0],
      [0, 1],
      [0, 1],
      [0, 2],
      [1, 2],
      [2, 3],
      [3, 4],
      [0, 4],
      [1, 3],
      [2, 4],
      [0, 3],
    ];
    const pools = pairsOfPools.map(() => Keypair.generate().publicKey.toBase58());
    const mintsOf = pairsOfPools.map(([a, b]) => [tokens[a], tokens[b]] as [string, string]);
    // Nothing here reaches the chain: snapshot entries carry their mints, and discovery is off.
    const index = new MarketIndex({ chain: new RpcSolanaChain({ url: "http://127.0.0.1:9" }), adapters: ammAdapters, marketsFile: file, discoveryTtlMs: 0 });
    const next = seededRandom(7);
    try {
      for (let round = 0; round < 40; round++) {
        const listed = pools.map((address, i) => ({ address, mints: mintsOf[i] })).filter(() => next(2) === 0);
        writeFileSync(file, JSON.stringify({ version: 1, writtenAt: "2026-11-25T00:00:00Z", programs: [], markets: listed.map((m) => ({ ...m, program })) }));
        await index.reloadFile();
        for (const x of tokens) {
          const withX = listed
            .filter((m) => m.mints.includes(x))
            .map((m) => m.address)
            .sort();
          expect(
            index
              .knownWith([x])
              .map((m) => m.addressText)
              .sort(),
          ).toEqual(withX);
          for (const y of tokens) {
            if (x === y) continue;
            const expected = listed
              .filter((m) => m.mints.includes(x) && m.mints.includes(y))
              .map((m) => m.address)
              .sort();
            expect((await index.forPair(x, y)).map((m) => m.addressText).sort()).toEqual(expected);
          }
        }
      }
      // The same file again: no pair's pool set changed, so no pair's revision moves (kept candidates stay).
      const revisions = tokens.map((x) => tokens.map((y) => index.pairRevision(x, y)));
      await index.reloadFile();
      expect(tokens.map((x) => tokens.map((y) => index.pairRevision(x, y)))).toEqual(revisions);
    } finally {
      index.close();
    }
  });
});
