// The one account source of the quote and swap paths, against the localnet over its real JSON-RPC
// port: concurrent reads of the same accounts are joined (one request reaches the node), what is
// read matches the node's accounts, user accounts are kept only while CHAIN_STATE_TTL_MS allows,
// and with the live cache a second read of followed accounts is served from memory.
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import type { LiveChain } from "../../src/chain/live/live-chain.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { writeMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

describe("AccountSource against the localnet", () => {
  let localnet: Localnet;
  let chain: RpcSolanaChain;
  let live: LiveChain | undefined;
  const mints: PublicKey[] = [];

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    for (let i = 0; i < 3; i++) mints.push(writeMint(localnet, `account source test mint ${i}`, 6).address);
    chain = new RpcSolanaChain({ url: localnet.url });
  });
  afterAll(async () => {
    await live?.close();
    await localnet.close();
  });

  const missing = new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
  const nodeData = (key: PublicKey) => {
    const account = localnet.getAccount(key);
    return account ? Buffer.from(account.data).toString("hex") : null;
  };
  const dataOf = (state: { account: { data: Uint8Array } | null } | undefined) => (state?.account ? Buffer.from(state.account.data).toString("hex") : null);

  it("two concurrent reads of the same accounts: one request reaches the node; both get the node's accounts (a missing one as null)", async () => {
    const source = new AccountSource({ chain, shortLived: new ChainStateCache(0) });
    localnet.resetStats();
    const keys = [...mints, missing];
    const [a, b] = await Promise.all([source.ensure(keys), source.ensure([...keys].reverse())]);
    expect(localnet.stats().httpRequests).toBe(1);
    for (const read of [a, b]) {
      for (const key of keys) expect(dataOf(read.get(key.toBase58()))).toBe(nodeData(key));
      expect(read.get(missing.toBase58())).toMatchObject({ account: null });
    }
    // Nothing is kept without live state: the next call reads again.
    localnet.resetStats();
    await source.ensure(keys);
    expect(localnet.stats().httpRequests).toBe(1);
  });

  it("user accounts: kept for the TTL and joined while copies are kept; with TTL 0 every call reads them", async () => {
    let now = 1_000;
    const kept = new AccountSource({ chain, shortLived: new ChainStateCache(500, () => now) });
    localnet.resetStats();
    await Promise.all([kept.read({ accounts: [], userAccounts: [mints[0]] }), kept.read({ accounts: [], userAccounts: [mints[0]] })]);
    expect(localnet.stats().httpRequests).toBe(1);
    await kept.read({ accounts: [], userAccounts: [mints[0]] });
    expect(localnet.stats().httpRequests).toBe(1); // fresh copy
    now += 500;
    await kept.read({ accounts: [], userAccounts: [mints[0]] });
    expect(localnet.stats().httpRequests).toBe(2); // lapsed

    const never = new AccountSource({ chain, shortLived: new ChainStateCache(0) });
    localnet.resetStats();
    await Promise.all([never.read({ accounts: [], userAccounts: [mints[1]] }), never.read({ accounts: [], userAccounts: [mints[1]] })]);
    expect(localnet.stats().httpRequests).toBe(2);
  });

  it("with the live cache: the first read enters it, the next is served from memory with the slot it was seen at", async () => {
    // The live cache's own reads (confirmations, background refreshes) go through another client,
    // so this client's counter sees only what the source sends.
    live = await startLiveChain({ chain: new RpcSolanaChain({ url: localnet.url }), source: { kind: "websocket", url: localnet.websocketUrl } });
    const source = new AccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) });
    let before = chain.stats().roundTrips;
    const first = await source.ensure(mints);
    expect(chain.stats().roundTrips - before).toBe(1);
    before = chain.stats().roundTrips;
    const again = await source.ensure(mints);
    expect(chain.stats().roundTrips - before).toBe(0);
    for (const key of mints) {
      expect(dataOf(again.get(key.toBase58()))).toBe(nodeData(key));
      expect(again.get(key.toBase58())!.slot).toBe(first.get(key.toBase58())!.slot);
    }
    expect(source.oldestSlot(mints.map((k) => k.toBase58()))).toBe(Math.min(...mints.map((k) => first.get(k.toBase58())!.slot)));
  });
});
