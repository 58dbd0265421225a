// ExactOut over a pool kind that cannot swap it: the quote's refusal names the pool kind and says why,
// in the same words swap-instructions uses when asked to build that step (the adapter's refusal), on
// REST and Connect; an ExactIn quote over the same pool still answers.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Keypair } from "@solana/web3.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { SOL, USDC, startSwapV2Stack, type SwapV2Stack } from "./swap-v2-stack.js";

describe("ExactOut over Raydium CP", () => {
  let stack: SwapV2Stack;
  beforeAll(async () => {
    stack = await startSwapV2Stack();
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });
  const query = `inputMint=${SOL}&outputMint=${USDC}&amount=1000000&dexes=Raydium%20CP`;

  test("the quote's refusal carries swap-instructions' reason for that pool kind", async () => {
    const exactIn = await stack.get(`/swap/v1/quote?${query}`);
    expect(exactIn.status, JSON.stringify(exactIn.body)).toBe(200);
    expect(exactIn.body.routePlan[0].swapInfo.ammKey).toBe(DEMO_POOLS.raydiumCpSolUsdc.toBase58());

    // What swap-instructions says when asked to build the same pool's step ExactOut (the AMM adapter's refusal).
    const asExactOut = { ...exactIn.body, swapMode: "ExactOut", inAmount: exactIn.body.inAmount, outAmount: exactIn.body.outAmount };
    const built = await stack.post("/swap/v1/swap-instructions", { userPublicKey: Keypair.generate().publicKey.toBase58(), quoteResponse: asExactOut });
    expect(built.status).toBe(400);
    const reason = /Raydium CP does not support ExactOut/.exec(String(built.body.error))?.[0];
    expect(reason, String(built.body.error)).toBeDefined();

    const refused = await stack.get(`/swap/v1/quote?${query}&swapMode=ExactOut`);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe("COULD_NOT_FIND_ANY_ROUTE");
    expect(refused.body.error).toContain(reason);
    const connect = await stack.post("/swapd.swap.v1.SwapService/Quote", {
      inputMint: SOL,
      outputMint: USDC,
      amount: "1000000",
      dexes: ["Raydium CP"],
      swapMode: "ExactOut",
    });
    expect(connect.body.message).toContain(reason);
  });
});
