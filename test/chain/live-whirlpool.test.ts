// Live chain state on the embedded chain with the real mainnet Whirlpool snapshots, for each of the
// three sources: after warm-up, SwapInstructions through 1-hop and 2-hop Whirlpool routes make no
// RPC HTTP request of their own (the chain's own request counter: everything it received is the
// background keeper's and the poller's); a tick written into the pool, and a real swap landing through
// it (with the chain folder's programs), reach the next response (new tick arrays, as Orca's SDK
// derives them) within one notification; after a stream outage the
// cache resyncs and the first request after it uses the current state; past the staleness bound
// requests read the chain instead of serving old state.
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LiveSource } from "../../src/chain/live/live-chain.js";
import { DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { jupiterQuote } from "../api/swap-stack.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { executeSwapAnswer } from "../onchain/onchain-stack.js";
import { whirlpoolQuote } from "../onchain/pools/whirlpool.js";
import {
  SAMO_USDC,
  SOL,
  SOL_USDC,
  USDC,
  expectedTickArrays,
  startLiveStack,
  swapAccounts,
  waitFor,
  whirlpoolOnChain,
  whirlpoolRequest,
  writePoolTick,
} from "./live-harness.js";
import type { LiveStack } from "./live-harness.js";

const sources: { name: string; source: (localnet: Localnet) => LiveSource }[] = [
  { name: "websocket", source: (l) => ({ kind: "websocket", url: l.websocketUrl }) },
  { name: "yellowstone", source: (l) => ({ kind: "yellowstone", url: l.url }) },
  { name: "polling", source: () => ({ kind: "polling", intervalMs: 100 }) },
];

/** Checked once: without the chain folder the file says so in one line. */
const HAS_CHAIN_DIR = hasChainDir();

/** Ticks per Whirlpool tick array with tick spacing 64. */
const ARRAY_SPAN = 88 * 64;

describe.skipIf(!HAS_CHAIN_DIR).each(sources)("live chain state over $name", ({ name, source }) => {
  let stack: LiveStack;
  beforeAll(async () => {
    stack = await startLiveStack(source);
    await waitFor("the stream to connect", () => stack.live.accounts.status().connected);
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** HTTP requests the chain received, and the background's own share of them; taken between background requests. */
  async function counters() {
    await waitFor("no background request in flight", () => !stack.live.background.busy && !(stack.live.stream as { busy?: boolean }).busy);
    const stats = stack.localnet.stats();
    const poller = stack.live.stream as { pollRounds?: number };
    return {
      http: stats.httpRequests,
      accountReads: (stats.calls.getMultipleAccounts ?? 0) + (stats.calls.getAccountInfo ?? 0),
      background: stack.live.background.refreshes + (poller.pollRounds ?? 0),
      polls: poller.pollRounds ?? 0,
    };
  }

  test("after warm-up, 1-hop and 2-hop Whirlpool routes make no RPC request of their own", async () => {
    for (const hops of [1, 2] as const) {
      const cold = await stack.swap(whirlpoolRequest(hops));
      expect(cold.status, JSON.stringify(cold.body)).toBe(200);
    }
    // Warm-up done when the confirming reads after subscribing are in and the keeper has the fees.
    await new Promise((r) => setTimeout(r, 300));
    // A request and a background refresh may overlap; count in a window where the background's
    // requests are known exactly.
    const before = await counters();
    const N = 20;
    for (let i = 0; i < N; i++) {
      const res = await stack.swap(whirlpoolRequest(i % 2 === 0 ? 1 : 2));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Number(res.body.contextSlot)).toBeGreaterThan(0);
    }
    const after = await counters();
    const own = after.http - before.http - (after.background - before.background);
    expect(own).toBe(0);
    // No account was read on the request path: the only account reads are the poller's rounds.
    expect(after.accountReads - before.accountReads).toBe(after.polls - before.polls);
  });

  test("a tick written into the pool reaches the next response within one notification (new tick arrays)", async () => {
    const pool = whirlpoolOnChain(stack.localnet, SOL_USDC);
    const before = await stack.swap(whirlpoolRequest(1));
    const oldArrays = expectedTickArrays(stack.localnet, SOL_USDC, true);
    expect(swapAccounts(before.body)).toEqual(expect.arrayContaining(oldArrays));

    // One tick array up: an a→b swap walks down from one array higher, so the lowest old array drops out.
    const changed = new Promise<number>((resolve) => {
      const stop = stack.live.accounts.onChange((c) => {
        if (c.address === SOL_USDC.toBase58()) {
          stop();
          resolve(c.slot);
        }
      });
    });
    writePoolTick(stack.localnet, SOL_USDC, pool.tickCurrentIndex + ARRAY_SPAN);
    await changed;
    const after = await stack.swap(whirlpoolRequest(1));
    const newArrays = expectedTickArrays(stack.localnet, SOL_USDC, true);
    expect(newArrays[0]).not.toBe(oldArrays[0]);
    expect(swapAccounts(after.body)).toEqual(expect.arrayContaining(newArrays));
    expect(swapAccounts(after.body)).not.toContain(oldArrays[2]);

    // The 2-hop route's second pool too (b→a through SAMO/USDC).
    const samo = whirlpoolOnChain(stack.localnet, SAMO_USDC);
    const seen = new Promise<void>((resolve) => {
      const stop = stack.live.accounts.onChange((c) => {
        if (c.address === SAMO_USDC.toBase58()) {
          stop();
          resolve();
        }
      });
    });
    writePoolTick(stack.localnet, SAMO_USDC, samo.tickCurrentIndex - ARRAY_SPAN);
    await seen;
    const twoHop = await stack.swap(whirlpoolRequest(2));
    expect(swapAccounts(twoHop.body)).toEqual(expect.arrayContaining(expectedTickArrays(stack.localnet, SAMO_USDC, false)));
  });

  test.skipIf(name === "polling")("after a stream outage the cache resyncs; past the staleness bound requests read the chain", async () => {
    const pool = whirlpoolOnChain(stack.localnet, SOL_USDC);
    await stack.swap(whirlpoolRequest(1));
    stack.localnet.setStreamsDown(true);
    await waitFor("the disconnect", () => !stack.live.accounts.status().connected);
    // A change no notification can bring.
    writePoolTick(stack.localnet, SOL_USDC, pool.tickCurrentIndex - ARRAY_SPAN);
    await waitFor("the staleness bound to pass", () => stack.live.accounts.status().degraded);

    // Degraded: the request reads the pool itself and answers from the current state.
    const reads = stack.localnet.stats().calls.getMultipleAccounts ?? 0;
    const degraded = await stack.swap(whirlpoolRequest(1));
    expect(degraded.status).toBe(200);
    expect((stack.localnet.stats().calls.getMultipleAccounts ?? 0) - reads).toBeGreaterThan(0);
    expect(swapAccounts(degraded.body)).toEqual(expect.arrayContaining(expectedTickArrays(stack.localnet, SOL_USDC, true)));

    // Another change while down, then the stream comes back: resync, and the first request after it is current.
    writePoolTick(stack.localnet, SOL_USDC, pool.tickCurrentIndex + 2 * ARRAY_SPAN);
    stack.localnet.setStreamsDown(false);
    await waitFor("the resync", () => stack.live.accounts.status().detail === "live", 10_000);
    const http = stack.localnet.stats().calls.getMultipleAccounts ?? 0;
    const resynced = await stack.swap(whirlpoolRequest(1));
    expect(stack.localnet.stats().calls.getMultipleAccounts ?? 0).toBe(http); // from memory again
    expect(swapAccounts(resynced.body)).toEqual(expect.arrayContaining(expectedTickArrays(stack.localnet, SOL_USDC, true)));
  });
});

// A real swap (swapd's own answer, executed on the real Jupiter and Whirlpool programs) moves the
// SOL/USDC pool's price across a tick-array boundary; the stream's notification brings the new
// state, and the next response lists the tick arrays Orca's SDK derives from it.
describe.skipIf(!HAS_CHAIN_DIR)("live chain state when a real swap lands through the pool", () => {
  let stack: LiveStack;
  beforeAll(async () => {
    stack = await startLiveStack((l) => ({ kind: "websocket", url: l.websocketUrl }), { programs: true });
    await waitFor("the stream to connect", () => stack.live.accounts.status().connected);
    stack.localnet.airdrop(DEMO_WALLET.publicKey, 50_000n * 1_000_000_000n);
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** swapd's answer for `lamports` SOL → USDC through SOL/USDC from the demo wallet, at the Orca SDK's price. */
  async function answerFor(lamports: bigint) {
    const sdk = whirlpoolQuote(stack.localnet, SOL_USDC, new PublicKey(SOL), lamports, "ExactIn");
    const step = {
      ammKey: SOL_USDC.toBase58(),
      label: "Whirlpool",
      inputMint: SOL,
      outputMint: USDC,
      inAmount: String(sdk.inAmount),
      outAmount: String(sdk.outAmount),
    };
    const res = await stack.swap({
      userPublicKey: DEMO_WALLET.publicKey.toBase58(),
      quoteResponse: jupiterQuote([step], { inputMint: SOL, outputMint: USDC, inAmount: step.inAmount, outAmount: step.outAmount }),
      useSharedAccounts: false,
      prioritizationFeeLamports: 0,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  test("the next response uses the state the swap left, within one notification", async () => {
    const oldArrays = expectedTickArrays(stack.localnet, SOL_USDC, true);
    expect(swapAccounts(await answerFor(1_000_000_000n))).toEqual(expect.arrayContaining(oldArrays));
    const startTick = whirlpoolOnChain(stack.localnet, SOL_USDC).tickCurrentIndex;

    // 40,000 SOL: the price falls past the lower edge of the current tick array (Orca's SDK: ≈ tick −34220).
    const big = await answerFor(40_000n * 1_000_000_000n);
    const notified = new Promise<number>((resolve) => {
      const stop = stack.live.accounts.onChange((c) => {
        if (c.address === SOL_USDC.toBase58()) {
          stop();
          resolve(c.slot);
        }
      });
    });
    const executed = executeSwapAnswer(stack.localnet, big);
    expect(executed.record.err, executed.record.logs.join("\n")).toBeNull();
    const endTick = whirlpoolOnChain(stack.localnet, SOL_USDC).tickCurrentIndex;
    expect(Math.floor(endTick / ARRAY_SPAN)).toBeLessThan(Math.floor(startTick / ARRAY_SPAN)); // another tick array now
    const slot = await notified;

    const after = await answerFor(1_000_000_000n);
    const newArrays = expectedTickArrays(stack.localnet, SOL_USDC, true);
    expect(newArrays[0]).not.toBe(oldArrays[0]);
    expect(swapAccounts(after)).toEqual(expect.arrayContaining(newArrays));
    expect(swapAccounts(after)).not.toContain(oldArrays[0]);
    expect(Number(after.contextSlot)).toBeGreaterThanOrEqual(slot);
  });
});
