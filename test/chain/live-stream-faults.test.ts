// A live account stream that stops delivering never serves stale state silently. The stream goes
// through a real TCP proxy that (a) freezes: the connection stays open and nothing passes, (b)
// accepts new connections and never answers the websocket upgrade / gRPC handshake, (c) answers
// the upgrade and then nothing. While frozen, the pool changes on the chain (Orca's layout, read
// back with Orca's SDK): every response sent more than the staleness bound plus one slot-time
// after the freeze must list the tick arrays of the pool's current state (stale answers = 0), the
// cache reports degraded (what /readyz shows), and once the path heals the stream reconnects and
// memory answers again. For the websocket and Yellowstone sources; and the polling source when
// its RPC reads hang.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { LiveAccountCache } from "../../src/chain/live/live-account-cache.js";
import { PollingAccountStream } from "../../src/chain/live/polling-account-stream.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { liveStreamTimeoutsTotal } from "../../src/chain/live/live-metrics.js";
import type { LiveSource } from "../../src/chain/live/live-chain.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { startTcpProxy } from "../fixtures/tcp-proxy.js";
import type { TcpProxy } from "../fixtures/tcp-proxy.js";
import { SOL_USDC, expectedTickArrays, startLiveStack, swapAccounts, waitFor, whirlpoolOnChain, whirlpoolRequest, writePoolTick } from "./live-harness.js";
import type { LiveStack } from "./live-harness.js";

const HAS_CHAIN_DIR = hasChainDir();
const ARRAY_SPAN = 88 * 64;
/** Mainnet's slot time. */
const SLOT_MS = 400;
const MAX_STALENESS_MS = 500;
const CONNECT_TIMEOUT_MS = 1_000;

async function timeouts(source: string, phase: string): Promise<number> {
  const metric = await liveStreamTimeoutsTotal.get();
  return metric.values.find((v) => v.labels.source === source && v.labels.phase === phase)?.value ?? 0;
}

const sources: { name: string; source: (proxy: TcpProxy) => LiveSource }[] = [
  { name: "websocket", source: (p) => ({ kind: "websocket", url: `ws://127.0.0.1:${p.port}` }) },
  { name: "yellowstone", source: (p) => ({ kind: "yellowstone", url: `http://127.0.0.1:${p.port}` }) },
];

describe.skipIf(!HAS_CHAIN_DIR).each(sources)("a frozen $name stream", ({ name, source }) => {
  let stack: LiveStack;
  let proxy: TcpProxy;
  beforeAll(async () => {
    stack = await startLiveStack(
      async (localnet) => {
        const url = new URL(name === "websocket" ? localnet.websocketUrl : localnet.url);
        proxy = await startTcpProxy(url.hostname, Number(url.port));
        return source(proxy);
      },
      { maxStalenessMs: MAX_STALENESS_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS },
    );
    await waitFor("the stream to connect", () => stack.live.accounts.status().connected);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  /** Sends requests for `ms` while the pool has moved one tick array up; counts stale answers. */
  async function quoteWhileFrozen(frozenAt: number, ms: number) {
    const current = expectedTickArrays(stack.localnet, SOL_USDC, true);
    const result = { total: 0, late: 0, stale: 0, current: 0, degradedSeen: false };
    while (Date.now() - frozenAt < ms) {
      const sentAt = Date.now();
      const res = await stack.swap(whirlpoolRequest(1));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const isCurrent = current.every((a) => swapAccounts(res.body).includes(a));
      result.total++;
      if (isCurrent) result.current++;
      if (sentAt - frozenAt > MAX_STALENESS_MS + SLOT_MS) {
        result.late++;
        if (!isCurrent) result.stale++;
        if (stack.live.accounts.status().degraded) result.degradedSeen = true;
      }
    }
    return result;
  }

  test("answers from the current chain state within the bound, and recovers when the path heals", async () => {
    const warm = await stack.swap(whirlpoolRequest(1));
    expect(warm.status).toBe(200);
    await waitFor("live", () => stack.live.accounts.status().detail === "live");
    const silenceBefore = await timeouts(name, "silence");
    const connectBefore = await timeouts(name, "connect");

    const pool = whirlpoolOnChain(stack.localnet, SOL_USDC);
    proxy.blackhole();
    const frozenAt = Date.now();
    writePoolTick(stack.localnet, SOL_USDC, pool.tickCurrentIndex + ARRAY_SPAN);
    // Long enough for the frozen connection to be given up and a reconnect into the blackhole
    // (accepted, never answered) to time out.
    const seen = await quoteWhileFrozen(frozenAt, 3 * MAX_STALENESS_MS + CONNECT_TIMEOUT_MS + 1_500);
    expect(seen.late).toBeGreaterThan(5);
    expect(seen.stale).toBe(0);
    expect(seen.degradedSeen).toBe(true);
    expect(await timeouts(name, "silence")).toBeGreaterThan(silenceBefore);
    expect(await timeouts(name, "connect")).toBeGreaterThan(connectBefore);

    // Healed: the stream reconnects, resyncs, and memory answers with what the stream brings.
    proxy.restore();
    await waitFor("the stream to be live again", () => stack.live.accounts.status().detail === "live", 15_000);
    const changed = new Promise<void>((resolve) => {
      const stop = stack.live.accounts.onChange((c) => {
        if (c.address === SOL_USDC.toBase58()) {
          stop();
          resolve();
        }
      });
    });
    writePoolTick(stack.localnet, SOL_USDC, pool.tickCurrentIndex + 2 * ARRAY_SPAN);
    await changed;
    const reads = stack.localnet.stats().calls.getMultipleAccounts ?? 0;
    const after = await stack.swap(whirlpoolRequest(1));
    expect(swapAccounts(after.body)).toEqual(expect.arrayContaining(expectedTickArrays(stack.localnet, SOL_USDC, true)));
    expect(stack.localnet.stats().calls.getMultipleAccounts ?? 0).toBe(reads); // from memory again
  });

  test("a reconnect that gets the upgrade (or handshake) answered and then nothing times out and retries", async () => {
    await waitFor("live", () => stack.live.accounts.status().detail === "live", 15_000);
    const connectBefore = await timeouts(name, "connect");
    const pool = whirlpoolOnChain(stack.localnet, SOL_USDC);
    proxy.cut();
    proxy.stallAfterReply();
    const frozenAt = Date.now();
    writePoolTick(stack.localnet, SOL_USDC, pool.tickCurrentIndex - ARRAY_SPAN);
    const seen = await quoteWhileFrozen(frozenAt, CONNECT_TIMEOUT_MS * 2 + 500);
    expect(seen.stale).toBe(0);
    expect(await timeouts(name, "connect")).toBeGreaterThan(connectBefore);
    expect(stack.live.accounts.status().connected).toBe(false);

    proxy.restore();
    await waitFor("the stream to be live again", () => stack.live.accounts.status().detail === "live", 15_000);
    const reads = stack.localnet.stats().calls.getMultipleAccounts ?? 0;
    const after = await stack.swap(whirlpoolRequest(1));
    expect(swapAccounts(after.body)).toEqual(expect.arrayContaining(expectedTickArrays(stack.localnet, SOL_USDC, true)));
    expect(stack.localnet.stats().calls.getMultipleAccounts ?? 0).toBe(reads);
  });
});

// The polling source's liveness is its own lag: its RPC reads go through a proxy that blackholes
// (they hang until the chain's timeout), while the cache's own reads go straight to the chain.
// Past interval + staleness bound with no completed round, the cache reads through; once rounds
// complete again, memory answers.
describe.skipIf(!HAS_CHAIN_DIR)("a polling source whose reads hang", () => {
  let localnet: Localnet;
  let proxy: TcpProxy;
  let direct: RpcSolanaChain;
  let proxied: RpcSolanaChain;
  let cache: LiveAccountCache;
  const POLL_MS = 100;
  beforeAll(async () => {
    localnet = await startLocalnet({ accountsDir: join(CHAIN_DIR!, "accounts") });
    const url = new URL(localnet.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port));
    direct = new RpcSolanaChain({ url: localnet.url });
    proxied = new RpcSolanaChain({ url: `http://127.0.0.1:${proxy.port}`, timeoutMs: 1_500, attemptTimeoutMs: 1_500, maxRetries: 0 });
    cache = new LiveAccountCache({ chain: direct, stream: new PollingAccountStream(proxied, POLL_MS, MAX_STALENESS_MS), maxStalenessMs: MAX_STALENESS_MS });
  });
  afterAll(async () => {
    await cache?.close();
    direct?.close();
    proxied?.close();
    await proxy?.close();
    await localnet?.close();
  });

  const poolBytes = () => Buffer.from(localnet.getAccount(SOL_USDC)!.data);
  /** As a request reads the pool: from memory when the cache answers, else from the chain (then adopted). */
  const readPool = async () => {
    const hit = cache.get(SOL_USDC);
    if (hit !== undefined) return hit;
    const read = await direct.readBatch({ accounts: [SOL_USDC] });
    cache.adopt(SOL_USDC, read.accounts[0] ?? null, read.contextSlot ?? 0);
    return { account: read.accounts[0] ?? null, slot: read.contextSlot ?? 0 };
  };

  test("no answer from memory older than the bound; memory again once rounds complete", async () => {
    await readPool();
    await waitFor("memory answers", () => cache.get(SOL_USDC) !== undefined && cache.status().detail === "live");
    const pool = whirlpoolOnChain(localnet, SOL_USDC);
    proxy.blackhole();
    const frozenAt = Date.now();
    writePoolTick(localnet, SOL_USDC, pool.tickCurrentIndex + ARRAY_SPAN);
    const current = poolBytes();
    let late = 0;
    let stale = 0;
    let degradedSeen = false;
    while (Date.now() - frozenAt < 2_500) {
      const sentAt = Date.now();
      const got = await readPool();
      if (sentAt - frozenAt > POLL_MS + MAX_STALENESS_MS + SLOT_MS) {
        late++;
        if (!Buffer.from(got.account!.data).equals(current)) stale++;
        if (cache.status().degraded) degradedSeen = true;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(late).toBeGreaterThan(5);
    expect(stale).toBe(0);
    expect(degradedSeen).toBe(true);

    proxy.restore();
    await waitFor("memory answering again", () => cache.get(SOL_USDC) !== undefined, 10_000);
    expect(Buffer.from(cache.get(SOL_USDC)!.account!.data).equals(poolBytes())).toBe(true);
  });
});
