// A platform fee the Jupiter program cannot take is refused where the caller gives it, naming the
// field the caller sent (`platformFeeBps` on /quote, Connect Quote and /swap/v2/build), not later as
// the swap's `quoteResponse.platformFee.feeBps`. The bound comes from Jupiter's IDL (the route
// instructions' `platformFeeBps` type), not from swapd.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Keypair } from "@solana/web3.js";
import { readReferenceJson } from "../fixtures/reference.js";
import { SOL, USDC, startSwapV2Stack, type SwapV2Stack } from "./swap-v2-stack.js";

interface Idl {
  instructions: { name: string; args: { name: string; type: string }[] }[];
}

/** The largest platformFeeBps every route instruction of the IDL can carry. */
function idlMaxPlatformFeeBps(): number {
  const types = readReferenceJson<Idl>("jupiter-aggregator-v6.idl.json")
    .instructions.flatMap((i) => i.args)
    .filter((a) => a.name === "platformFeeBps")
    .map((a) => a.type);
  expect(types.length).toBeGreaterThan(0);
  const bits = Math.min(...types.map((t) => Number(/^u(\d+)$/.exec(t)?.[1])));
  return 2 ** bits - 1;
}

describe("platformFeeBps bounds", () => {
  const max = idlMaxPlatformFeeBps();
  const base = `inputMint=${SOL}&outputMint=${USDC}&amount=1000000000`;
  const taker = Keypair.generate().publicKey.toBase58();
  const feeAccount = Keypair.generate().publicKey.toBase58();
  let stack: SwapV2Stack;
  beforeAll(async () => {
    stack = await startSwapV2Stack();
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  test("the IDL's bound is what a quote takes: max passes and is reported, max + 1 and 10000 are refused naming platformFeeBps", async () => {
    const ok = await stack.get(`/swap/v1/quote?${base}&platformFeeBps=${max}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.platformFee.feeBps).toBe(max);
    for (const bps of [max + 1, 10_000]) {
      const refused = await stack.get(`/swap/v1/quote?${base}&platformFeeBps=${bps}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(new RegExp(`^platformFeeBps: .*\\b${max}\\b`));
    }
  });

  // /swap/v2/order takes no platformFeeBps: its fee is Jupiter's referralAccount + referralFee (swap-v2-params tests).
  test("Connect Quote and /swap/v2/build name platformFeeBps, never quoteResponse.platformFee.feeBps", async () => {
    const connect = await stack.post("/swapd.swap.v1.SwapService/Quote", { inputMint: SOL, outputMint: USDC, amount: "1000000000", platformFeeBps: max + 1 });
    expect(connect.status).toBe(400);
    expect(connect.body.message).toMatch(/^platformFeeBps: /);
    for (const path of ["/swap/v2/build"]) {
      const answer = await stack.get(`${path}?${base}&taker=${taker}&platformFeeBps=${max + 1}&feeAccount=${feeAccount}`);
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.error).toMatch(/^platformFeeBps: /);
    }
  });
});
