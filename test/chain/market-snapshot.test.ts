// `npm run markets -- dump` against the localnet's real JSON-RPC through a counting proxy: pools of
// four AMMs on the chain (Raydium CP written in Raydium's layout; Whirlpool, Raydium CLMM and
// Meteora DLMM as real mainnet accounts from the carbon decoder fixtures, copied to several
// addresses), next to other accounts of the same programs. The snapshot must list exactly those
// pools with their mints, one getProgramAccounts per program; the service loaded with it quotes at
// the Raydium SDK's amount without any getProgramAccounts; a rewritten snapshot is picked up
// without a restart; a refusing or slow RPC gives a bounded, named error and leaves the file as it was.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createQuoteEngine } from "../../src/api/quote/quote-engine.js";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { parseMarketsFileContent } from "../../src/core/quote/market-snapshot.js";
import { POOL_MINT_LAYOUTS } from "../../src/core/quote/pool-mint-offsets.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { parseMarketsArgs, runMarkets } from "../../src/markets/markets-command.js";
import { carbonAccount } from "../core/amm/reference-fixtures.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { raydiumCpQuote } from "../onchain/pools/raydium-cp.js";

const LISTABLE = ammAdapters.filter((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()]);
/** Real mainnet pool accounts (carbon fixtures), each placed at this many addresses. */
const FIXTURE_POOLS = [
  "orca-whirlpool-decoder/whirlpool_account.json",
  "raydium-clmm-decoder/pool_state_account.json",
  "meteora-dlmm-decoder/lb_pair_account.json",
];
const COPIES = 3;

describe("npm run markets -- dump", () => {
  let localnet: Localnet;
  let proxy: JsonRpcProxy;
  let dir: string;
  const mints: LocalMint[] = [];
  /** address → "program mint mint" (mints sorted), as written on the chain. */
  const written = new Map<string, string>();
  const entry = (program: PublicKey, a: string, b: string) => `${program.toBase58()} ${[a, b].sort().join(" ")}`;
  const cpPool = (x: LocalMint, y: LocalMint, configIndex: number, reserve = 10n ** 12n) => {
    const pool = writeCpPool(localnet, { x, y, reserveX: reserve, reserveY: reserve * 3n, configIndex }).pool;
    written.set(pool.address.toBase58(), entry(pool.owner, x.address.toBase58(), y.address.toBase58()));
    return pool;
  };
  const dump = (out: string, extra: string[] = []) => runMarkets(parseMarketsArgs(["dump", "--rpc", proxy.url, "--out", out, ...extra], {}), () => {});

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    for (let i = 0; i < 4; i++) mints.push(writeMint(localnet, `snapshot test mint ${i}`, 6));
    // Two pools of m0/m1 (the quoted pair) with different depths, one of m1/m2; each CP pool comes
    // with its config and observation accounts, owned by the same program (other sizes).
    cpPool(mints[0], mints[1], 0);
    cpPool(mints[0], mints[1], 1, 10n ** 10n);
    cpPool(mints[1], mints[2], 0);
    for (const path of FIXTURE_POOLS) {
      for (let i = 0; i < COPIES; i++) {
        const account = carbonAccount(path, Keypair.generate().publicKey);
        localnet.setAccount(account.address, { lamports: account.lamports, data: account.data, owner: account.owner });
        // The pool's mints by its adapter's full-account decoder (held to the AMMs' SDKs in pool-mint-layouts.test.ts).
        const adapter = ammAdapters.find((a) => a.programId.equals(account.owner))!;
        const [a, b] = adapter.mints(adapter.decodePool(account));
        written.set(account.address.toBase58(), entry(account.owner, a.toBase58(), b.toBase58()));
      }
    }
    proxy = await startJsonRpcProxy(localnet.url);
    dir = mkdtempSync(join(tmpdir(), "swapd-snapshot-"));
  });
  afterAll(async () => {
    await proxy.close();
    await localnet.close();
  });

  it("lists exactly the pools on the chain with their mints, one getProgramAccounts per program", async () => {
    const out = join(dir, "markets.json");
    proxy.resetCalls();
    const lines: string[] = [];
    const result = await runMarkets(parseMarketsArgs(["dump", "--rpc", proxy.url, "--out", out], {}), (line) => lines.push(line));
    expect(proxy.byMethod()).toEqual({ getProgramAccounts: LISTABLE.length });
    expect(result.failed).toEqual([]);
    // A progress line per program as it is listed, and a summary.
    for (const a of LISTABLE) expect(lines.some((l) => l.startsWith(`${a.label}: `))).toBe(true);
    expect(lines.at(-1)).toBe(`${out}: ${written.size} pools of 5 pairs, ${LISTABLE.length} programs`);
    const content = parseMarketsFileContent(out, readFileSync(out, "utf8"));
    expect(content.addresses).toEqual([]);
    expect(new Map(content.markets.map((m) => [m.address, entry(new PublicKey(m.program), m.mints[0], m.mints[1])]))).toEqual(written);
    expect(content.completePrograms.sort()).toEqual(LISTABLE.map((a) => a.programId.toBase58()).sort());
    // The programs discovery trusts to keep a pair's mints in byte order do so in the real mainnet
    // pools here (Whirlpool, Raydium CLMM) and in Raydium's layout (CP).
    const sorted = content.markets.filter((m) => POOL_MINT_LAYOUTS[m.program].sortedMints);
    expect(new Set(sorted.map((m) => m.program)).size).toBe(3);
    for (const m of sorted) expect(Buffer.compare(new PublicKey(m.mints[0]).toBuffer(), new PublicKey(m.mints[1]).toBuffer())).toBe(-1);
  });

  it("the service loaded with the snapshot quotes a cold pair without any getProgramAccounts, at the Raydium SDK's amount", async () => {
    const file = join(dir, "quoted.json");
    await dump(file);
    const chain = new RpcSolanaChain({ url: proxy.url });
    // Discovery on (its default TTL), default intermediate tokens: the snapshot leaves nothing to search.
    const index = new MarketIndex({ chain, adapters: ammAdapters, marketsFile: file });
    await index.start();
    try {
      const engine = createQuoteEngine({
        chain,
        accounts: new AccountSource({ chain, shortLived: new ChainStateCache(0) }),
        markets: index,
        adapters: ammAdapters,
      });
      const [x, y] = [mints[0].address, mints[1].address];
      proxy.resetCalls();
      const quote = await engine.quote({ inputMint: x.toBase58(), outputMint: y.toBase58(), amount: "1000000000", slippageBps: 50 });
      const calls = proxy.byMethod();
      expect(calls["getProgramAccounts"]).toBeUndefined();
      // Only account reads: the pools, then what they depend on (vaults, config, mints).
      expect(Object.keys(calls).sort()).toEqual(["getMultipleAccounts"]);
      // Measured: 3 getMultipleAccounts (the pools, then what they depend on).
      expect(proxy.calls()).toBeLessThanOrEqual(10);
      const [best] = [...written.keys()]
        .filter((a) => written.get(a) === entry(new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C"), x.toBase58(), y.toBase58()))
        .map((pool) => raydiumCpQuote(localnet, new PublicKey(pool), x, 1_000_000_000n, "ExactIn").outAmount)
        .sort((p, q) => (p > q ? -1 : 1));
      expect(quote.response.outAmount).toBe(String(best));
    } finally {
      index.close();
    }
  });

  it("a snapshot rewritten while the service runs is read without a restart", async () => {
    const file = join(dir, "reloaded.json");
    await dump(file);
    const index = new MarketIndex({ chain: new RpcSolanaChain({ url: proxy.url }), adapters: ammAdapters, marketsFile: file });
    await index.start();
    try {
      const [x, y] = [mints[2].address.toBase58(), mints[3].address.toBase58()];
      expect(await index.forPair(x, y)).toEqual([]);
      const pool = cpPool(mints[2], mints[3], 0);
      await dump(file);
      await vi.waitFor(async () => expect((await index.forPair(y, x)).map((m) => m.addressText)).toEqual([pool.address.toBase58()]), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      index.close();
    }
  });

  it("an RPC that refuses getProgramAccounts: each program named with the provider's answer, nothing written", async () => {
    const file = join(dir, "refused.json");
    writeFileSync(file, "[]");
    const refusal = {
      code: -32010,
      message: "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C excluded from account secondary indexes; this RPC method unavailable for key",
    };
    proxy.refuse("getProgramAccounts", refusal);
    try {
      proxy.resetCalls();
      await expect(dump(file)).rejects.toThrow(`no program listed: nothing written to ${file}`);
      // One call per program, none retried.
      expect(proxy.calls("getProgramAccounts")).toBe(LISTABLE.length);
      expect(readFileSync(file, "utf8")).toBe("[]");
    } finally {
      proxy.refuse("getProgramAccounts", undefined);
    }
    const lines: string[] = [];
    proxy.refuse("getProgramAccounts", refusal);
    try {
      await runMarkets(parseMarketsArgs(["dump", "--rpc", proxy.url, "--out", file, "--programs", "Raydium CP"], {}), (l) => lines.push(l)).catch(() => {});
    } finally {
      proxy.refuse("getProgramAccounts", undefined);
    }
    expect(lines.join("\n")).toContain("Raydium CP: not listed");
    expect(lines.join("\n")).toContain("excluded from account secondary indexes");
  });

  it("a getProgramAccounts slower than --timeout-ms fails after one attempt of that budget", async () => {
    const file = join(dir, "slow.json");
    proxy.delay("getProgramAccounts", 3_000);
    try {
      proxy.resetCalls();
      const started = Date.now();
      const lines: string[] = [];
      await expect(
        runMarkets(parseMarketsArgs(["dump", "--rpc", proxy.url, "--out", file, "--programs", "Raydium CP,whirlpool", "--timeout-ms", "1000"], {}), (l) =>
          lines.push(l),
        ),
      ).rejects.toThrow(/nothing written/);
      expect(Date.now() - started).toBeLessThan(2 * 1_000 + 1_500);
      expect(proxy.calls("getProgramAccounts")).toBe(2);
      expect(lines.filter((l) => l.includes("not listed")).join("\n")).toMatch(/1000 ms/);
    } finally {
      proxy.delay("getProgramAccounts", 0);
    }
  });

  it("usage errors name the option and the rule", () => {
    expect(() => parseMarketsArgs(["load"], {})).toThrow('the command must be dump, got "load"');
    expect(() => parseMarketsArgs(["dump"], {})).toThrow("--rpc: needed (or SOLANA_RPC_URL)");
    expect(() => parseMarketsArgs(["dump", "--rpc", "x", "--programs", "Uniswap"], {})).toThrow(/--programs: "Uniswap" is not one of Raydium CP/);
    expect(() => parseMarketsArgs(["dump", "--rpc", "http://x", "--timeout-ms", "5"], {})).toThrow("--timeout-ms: must be an integer 1000–3600000");
    expect(parseMarketsArgs(["dump"], { SOLANA_RPC_URL: "http://node", MARKETS_FILE: "/m.json" })).toMatchObject({ rpcUrl: "http://node", out: "/m.json" });
  });
});
