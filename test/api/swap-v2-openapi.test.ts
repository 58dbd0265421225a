// Every answer of /swap/v2/order (with and without taker), /build and /execute (refused, failed)
// validates against Jupiter's published Swap API v2 document (test/fixtures/reference/openapi/
// jup-ag-docs.swap-v2.yaml: jup-ag/docs openapi-spec/swap/v2/swap.yaml @ 1dda348d). The success of
// /execute needs the real programs: test/onchain/swap-v2-params.test.ts validates it there.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { responseValidator } from "../fixtures/openapi-responses.js";
import { referencePath } from "../fixtures/reference.js";
import { SOL, USDC, startSwapV2Stack } from "./swap-v2-stack.js";
import type { SwapV2Stack } from "./swap-v2-stack.js";

const jupiter = responseValidator(referencePath("openapi/jup-ag-docs.swap-v2.yaml"));

/** The answer's path without `/swap/v2` (the document's server URL holds it). */
function expectValid(method: string, path: string, answer: { status: number; body: unknown }): void {
  const errors = jupiter.errors(method, path.replace("/swap/v2", ""), answer.status, answer.body);
  expect(errors, `${method} ${path} ${answer.status}: ${JSON.stringify(answer.body).slice(0, 400)}`).toEqual([]);
}

describe("Swap API v2 answers against Jupiter's published document", () => {
  let stack: SwapV2Stack;
  beforeAll(async () => {
    stack = await startSwapV2Stack();
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  const taker = Keypair.generate();
  const payer = Keypair.generate();
  const base = `inputMint=${SOL}&outputMint=${USDC}&amount=1000000000`;

  test("the validator refuses what the document forbids (router outside its enum, null where a string is required)", () => {
    expect(jupiter.errors("GET", "/order", 200, { router: "swapd" })).not.toEqual([]);
    expect(jupiter.errors("GET", "/order", 200, { lastValidBlockHeight: null })).not.toEqual([]);
    expect(jupiter.errors("GET", "/order", 200, { platformFee: null })).not.toEqual([]);
    expect(jupiter.errors("POST", "/execute", 200, { slot: null })).not.toEqual([]);
    expect(jupiter.errors("GET", "/build", 200, { cleanupInstruction: null, tipInstruction: null })).toEqual([]);
  });

  test("/order without and with taker (auto and fixed slippage, payer, tip), /build (rtse, tip, percentile): valid", async () => {
    stack.localnet.airdrop(taker.publicKey, 5_000_000_000n);
    const paths = [
      `/swap/v2/order?${base}`,
      `/swap/v2/order?${base}&slippageBps=30`,
      `/swap/v2/order?${base}&taker=${taker.publicKey.toBase58()}`,
      `/swap/v2/order?${base}&taker=${taker.publicKey.toBase58()}&payer=${payer.publicKey.toBase58()}&jitoTipLamports=10000&priorityFeeLamports=5000&broadcastFeeType=maxCap`,
      `/swap/v2/build?${base}&taker=${taker.publicKey.toBase58()}`,
      `/swap/v2/build?${base}&taker=${taker.publicKey.toBase58()}&slippageBps=rtse&tipAmount=10000&computeUnitPricePercentile=veryHigh`,
    ];
    for (const path of paths) {
      const answer = await stack.get(path);
      expect(answer.status, path).toBe(200);
      expectValid("GET", path.slice(0, path.indexOf("?")), answer);
    }
    const order = (await stack.get(paths[3])).body;
    expect(order.router).toBe("metis");
    expect(order.gasless).toBe(true);
    expect(order.signatureFeePayer).toBe(payer.publicKey.toBase58());
    const build = (await stack.get(paths[5])).body;
    expect(build.tipInstruction.programId).toBe("11111111111111111111111111111111");
    expect(build.autoSlippage.slippageBps).toBe(build.slippageBps);
  });

  test("/order and /build refusals (400) are valid", async () => {
    for (const path of [
      `/swap/v2/order?${base}&taker=${taker.publicKey.toBase58()}&referralFee=40&referralAccount=${payer.publicKey.toBase58()}`,
      `/swap/v2/order?${base}&broadcastFeeType=cheap`,
      `/swap/v2/build?${base}`,
      `/swap/v2/build?${base}&taker=${taker.publicKey.toBase58()}&slippageBps=fast`,
      `/swap/v2/build?${base}&taker=${taker.publicKey.toBase58()}&computeUnitPricePercentile=10001`,
    ]) {
      const answer = await stack.get(path);
      expect(answer.status, path).toBe(400);
      expectValid("GET", path.slice(0, path.indexOf("?")), answer);
    }
  });

  test("/execute refused (400) and failed (200 Failed, Jupiter v6 not on this chain) are valid", async () => {
    const refused = await stack.post("/swap/v2/execute", { signedTransaction: "AAAA", requestId: "nope" });
    expect(refused.status).toBe(400);
    expectValid("POST", "/execute", refused);
    const order = (await stack.get(`/swap/v2/order?${base}&taker=${taker.publicKey.toBase58()}`)).body;
    const tx = VersionedTransaction.deserialize(Buffer.from(order.transaction, "base64"));
    tx.sign([taker]);
    const failed = await stack.post("/swap/v2/execute", { signedTransaction: Buffer.from(tx.serialize()).toString("base64"), requestId: order.requestId });
    expect(failed.status).toBe(200);
    expect(failed.body.status).toBe("Failed");
    expectValid("POST", "/execute", failed);
  });
});
