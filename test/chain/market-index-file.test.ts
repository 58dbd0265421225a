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
      const pool = writeCpPool(localnet, { x: mints[i]!, y: mints[i + 1]!, reserveX: 10n ** 9n, reserveY: 10n ** 9n, configIndex: 0 }).pool;
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
      const [x, y] = [mints[i]!.address.toBase58(), mints[i + 1]!.address.toBase58()];
      expect((await index.forPair(y, x)).map((m) => m.addressText).sort()).toEqual([...poolsOfPair[i]!].sort());
    }
    // Not a listed pair (mints 0 and 2 have no pool together): nothing, and no RPC call.
    proxy.resetCalls();
    expect(await index.forPair(mints[0]!.address.toBase58(), mints[2]!.address.toBase58())).toEqual([]);
    expect(proxy.calls()).toBe(0);

    // The operator keeps the first half of the pairs: the rest leave on reload, no restart.
    writeFileSync(file, JSON.stringify(poolsOfPair.slice(0, PAIRS / 2).flat()));
    await index.reloadFile();
    expect((await index.forPair(mints[0]!.address.toBase58(), mints[1]!.address.toBase58())).length).toBe(POOLS_PER_PAIR);
    expect(await index.forPair(mints[999]!.address.toBase58(), mints[1000]!.address.toBase58())).toEqual([]);
    expect(index.known()).toHaveLength((PAIRS / 2) * POOLS_PER_PAIR);
  }, 120_000);
});
