// Jupiter's Swap API v2 against swapd on the embedded chain with the real Jupiter v6 and Raydium CP
// programs (SWAPD_CHAIN_DIR): /build instructions and /order transactions signed and sent by a
// client, /execute landing them. Expectations come from the programs (balances before and after),
// the Raydium SDK's curve math and the chain's own RPC counters — never from swapd's answers.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHash } from "node:crypto";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { DEMO_RAYDIUM_CP_SOL_USDC } from "../../src/localnet/demo-pools.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { toTransactionInstruction } from "../api/swap-stack.js";
import { JUP6, SOL, USDC, startSwapV2Stack } from "../api/swap-v2-stack.js";
import type { SwapV2Stack } from "../api/swap-v2-stack.js";
import { raydiumCpQuote } from "./pools/raydium-cp.js";
import { Configuration, SwapApi } from "@jup-ag/api";
import { toRouteV2 } from "../../src/core/swap/route-v2.js";
import { TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { programAuthority } from "../api/swap-stack.js";
import { fundTokenAccount, tokenBalance } from "./onchain-stack.js";

const POOL = DEMO_RAYDIUM_CP_SOL_USDC.pool.address;
const anchorDiscriminator = (name: string) => createHash("sha256").update(`global:${name}`).digest().subarray(0, 8);

function newTaker(stack: SwapV2Stack, sol = 100n): Keypair {
  const taker = Keypair.generate();
  stack.localnet.airdrop(taker.publicKey, sol * 1_000_000_000n);
  return taker;
}

const usdcOf = (stack: SwapV2Stack, owner: PublicKey) => tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), owner));
const sends = (stack: SwapV2Stack) => stack.localnet.stats().calls["sendTransaction"] ?? 0;

function signBase64(transaction: string, signer: Keypair): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(transaction, "base64"));
  tx.sign([signer]);
  return Buffer.from(tx.serialize()).toString("base64");
}

describe.skipIf(!hasChainDir())("Swap API v2 on the real programs", () => {
  let stack: SwapV2Stack;
  beforeAll(async () => {
    stack = await startSwapV2Stack({ programs: true });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  test("/swap/v2/build: a route_v2 instruction that, assembled and signed by the client, pays the Raydium SDK's amount", async () => {
    const taker = newTaker(stack);
    const expected = raydiumCpQuote(stack.localnet, POOL, new PublicKey(SOL), 2_000_000_000n, "ExactIn").outAmount;
    const { status, body } = await stack.get(`/swap/v2/build?inputMint=${SOL}&outputMint=${USDC}&amount=2000000000&taker=${taker.publicKey.toBase58()}`);
    expect(status).toBe(200);
    expect(body.outAmount).toBe(expected.toString());
    expect(body.swapInstruction.programId).toBe(JUP6.toBase58());
    expect(Buffer.from(body.swapInstruction.data, "base64").subarray(0, 8)).toEqual(anchorDiscriminator("route_v2"));
    expect(body.routePlan[0].bps).toBe(10_000);
    expect(body.addressesByLookupTableAddress).toEqual({});
    // Assembled as Jupiter's build guide does: compute budget, setup, swap, cleanup, other; the blockhash from the answer.
    const ixs = [
      ...body.computeBudgetInstructions,
      ...body.setupInstructions,
      body.swapInstruction,
      ...(body.cleanupInstruction ? [body.cleanupInstruction] : []),
      ...body.otherInstructions,
    ];
    const message = new TransactionMessage({
      payerKey: taker.publicKey,
      recentBlockhash: new PublicKey(Uint8Array.from(body.blockhashWithMetadata.blockhash)).toBase58(),
      instructions: ixs.map(toTransactionInstruction),
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([taker]);
    const { signature } = stack.localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: true });
    const record = stack.localnet.chain.getRecord(signature)!;
    expect(record.err, record.logs.join("\n")).toBeNull();
    expect(usdcOf(stack, taker.publicKey)).toBe(expected);
  });

  test("shared_accounts_route_v2 (the v2 form of a shared-accounts route) executes on the real binary and pays the Raydium SDK's amount", async () => {
    const taker = newTaker(stack);
    // The program authority the builder picks (random 0.5 → id 4) holds token accounts on mainnet; here they are created.
    for (const mint of [SOL, USDC]) fundTokenAccount(stack.localnet, programAuthority(4), new PublicKey(mint), 0n);
    const quote = (await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1500000000`)).body;
    const expected = raydiumCpQuote(stack.localnet, POOL, new PublicKey(SOL), 1_500_000_000n, "ExactIn").outAmount;
    expect(quote.outAmount).toBe(expected.toString());
    const built = await stack.swap.swapInstructions({ userPublicKey: taker.publicKey.toBase58(), quote, useSharedAccounts: true });
    expect(built.swapInstruction.data.subarray(0, 8)).toEqual(anchorDiscriminator("shared_accounts_route"));
    const v2 = toRouteV2(built.swapInstruction, {
      sourceMint: new PublicKey(SOL),
      sourceTokenProgram: TOKEN_PROGRAM_ID,
      destinationTokenProgram: TOKEN_PROGRAM_ID,
    })!;
    expect(Buffer.from(v2.data.subarray(0, 8))).toEqual(anchorDiscriminator("shared_accounts_route_v2"));
    const message = new TransactionMessage({
      payerKey: taker.publicKey,
      recentBlockhash: built.blockhashWithMetadata.blockhash,
      instructions: [...built.computeBudgetInstructions, ...built.setupInstructions, v2, ...(built.cleanupInstruction ? [built.cleanupInstruction] : [])],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([taker]);
    const { signature } = stack.localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: true });
    const record = stack.localnet.chain.getRecord(signature)!;
    expect(record.err, record.logs.join("\n")).toBeNull();
    expect(usdcOf(stack, taker.publicKey)).toBe(expected);
  });

  test("/swap/v2/order → sign → /swap/v2/execute with Jupiter's documented fetch calls: Success, outputAmountResult = the taker's real USDC change; a repeat answers the same without a second send", async () => {
    const taker = newTaker(stack);
    const before = usdcOf(stack, taker.publicKey);
    // The client code of Jupiter's order-and-execute guide, with only the base URL changed.
    const BASE_URL = `${stack.server.url}/swap/v2`;
    const orderResponse = await (
      await fetch(`${BASE_URL}/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&taker=${taker.publicKey.toBase58()}`, {
        headers: { "x-api-key": "unused-by-swapd" },
      })
    ).json();
    expect(orderResponse.transaction).toEqual(expect.any(String));
    expect(orderResponse.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const signedTransaction = signBase64(orderResponse.transaction, taker);
    const sendsBefore = sends(stack);
    const executeResponse = await (
      await fetch(`${BASE_URL}/execute`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": "unused-by-swapd" },
        body: JSON.stringify({ signedTransaction, requestId: orderResponse.requestId }),
      })
    ).json();
    const received = usdcOf(stack, taker.publicKey) - before;
    expect(executeResponse.status).toBe("Success");
    expect(executeResponse.code).toBe(0);
    expect(received).toBeGreaterThan(0n);
    expect(executeResponse.outputAmountResult).toBe(received.toString());
    expect(executeResponse.inputAmountResult).toBe("1000000000");
    expect(executeResponse.swapEvents).toEqual([{ inputMint: SOL, inputAmount: "1000000000", outputMint: USDC, outputAmount: received.toString() }]);
    const landed = stack.localnet.chain.getRecord(executeResponse.signature)!;
    expect(landed.err).toBeNull();
    expect(executeResponse.slot).toBe(String(landed.slot));
    expect(sends(stack) - sendsBefore).toBe(1);

    const again = await stack.post("/swap/v2/execute", { signedTransaction, requestId: orderResponse.requestId });
    expect(again).toEqual({ status: 200, body: executeResponse });
    expect(sends(stack) - sendsBefore).toBe(1);
  });

  test("a transaction that is not the one issued is refused by name and never sent; a missing signature likewise", async () => {
    const taker = newTaker(stack);
    const order = (await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000&taker=${taker.publicKey.toBase58()}`)).body;
    const tx = VersionedTransaction.deserialize(Buffer.from(order.transaction, "base64"));
    // The same swap with its quoted out amount altered by one unit, signed by the taker: not what was issued.
    const swapIx = tx.message.compiledInstructions.find((ix) => tx.message.staticAccountKeys[ix.programIdIndex].equals(JUP6))!;
    swapIx.data[8 + 8] = swapIx.data[8 + 8] ^ 1;
    tx.sign([taker]);
    const sendsBefore = sends(stack);
    const altered = await stack.post("/swap/v2/execute", { signedTransaction: Buffer.from(tx.serialize()).toString("base64"), requestId: order.requestId });
    expect(altered.status).toBe(400);
    expect(altered.body).toMatchObject({ status: "Failed", code: -1002 });
    expect(altered.body.error).toContain("signedTransaction");

    const unsigned = await stack.post("/swap/v2/execute", { signedTransaction: order.transaction, requestId: order.requestId });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body).toMatchObject({ status: "Failed", code: -1003 });
    expect(sends(stack)).toBe(sendsBefore);
    expect(await stack.store.executions.findByMessageHash(createHash("sha256").update(tx.message.serialize()).digest("hex"))).toBeNull();
  });

  test("minimum out raised above what the pool now pays: Failed with Jupiter's SlippageToleranceExceeded, nothing received", async () => {
    const taker = newTaker(stack);
    const order = (await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&slippageBps=10&taker=${taker.publicKey.toBase58()}`))
      .body;
    // Another trader moves the pool first: 200 SOL in, so 1 SOL now pays well under the order's minimum.
    const whale = newTaker(stack, 300n);
    const big = (await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=200000000000&slippageBps=5000&taker=${whale.publicKey.toBase58()}`))
      .body;
    const moved = await stack.post("/swap/v2/execute", { signedTransaction: signBase64(big.transaction, whale), requestId: big.requestId });
    expect(moved.body.status).toBe("Success");
    const pays = raydiumCpQuote(stack.localnet, POOL, new PublicKey(SOL), 1_000_000_000n, "ExactIn").outAmount;
    expect(pays).toBeLessThan(BigInt(order.otherAmountThreshold));

    const before = usdcOf(stack, taker.publicKey);
    const failed = await stack.post("/swap/v2/execute", { signedTransaction: signBase64(order.transaction, taker), requestId: order.requestId });
    expect(failed.status).toBe(200);
    expect(failed.body.status).toBe("Failed");
    expect(failed.body.error).toContain("SlippageToleranceExceeded");
    expect(failed.body.code).toBe(6001);
    expect(usdcOf(stack, taker.publicKey)).toBe(before);
    expect(failed.body.outputAmountResult).toBeUndefined();
  });

  test("POST /swap/v1/execute lands a transaction of /swap/v1/swap (made with @jup-ag/api); a transaction swapd did not issue is refused", async () => {
    const taker = newTaker(stack);
    const jupiter = new SwapApi(new Configuration({ basePath: `${stack.server.url}/swap/v1` }));
    const quoteResponse = await jupiter.quoteGet({ inputMint: SOL, outputMint: USDC, amount: 300_000_000 });
    const { swapTransaction } = await jupiter.swapPost({ swapRequest: { userPublicKey: taker.publicKey.toBase58(), quoteResponse } });
    const before = usdcOf(stack, taker.publicKey);
    const sendsBefore = sends(stack);
    const landed = await stack.post("/swap/v1/execute", { signedTransaction: signBase64(swapTransaction, taker) });
    expect(landed.status).toBe(200);
    expect(landed.body.status).toBe("Success");
    expect(landed.body.outputAmountResult).toBe((usdcOf(stack, taker.publicKey) - before).toString());
    expect(sends(stack) - sendsBefore).toBe(1);

    // The same swap assembled by the client from /swap/v2/build: a valid, signed swap, but not one swapd issued.
    const built = (await stack.get(`/swap/v2/build?inputMint=${SOL}&outputMint=${USDC}&amount=300000000&taker=${taker.publicKey.toBase58()}`)).body;
    const ixs = [
      ...built.computeBudgetInstructions,
      ...built.setupInstructions,
      built.swapInstruction,
      ...(built.cleanupInstruction ? [built.cleanupInstruction] : []),
    ];
    const own = new VersionedTransaction(
      new TransactionMessage({
        payerKey: taker.publicKey,
        recentBlockhash: new PublicKey(Uint8Array.from(built.blockhashWithMetadata.blockhash)).toBase58(),
        instructions: ixs.map(toTransactionInstruction),
      }).compileToV0Message(),
    );
    own.sign([taker]);
    const refused = await stack.post("/swap/v1/execute", { signedTransaction: Buffer.from(own.serialize()).toString("base64") });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: "Failed", code: -1002 });
    expect(sends(stack) - sendsBefore).toBe(1);
  });

  test("gRPC ExecuteAndWatch streams sent → confirmed → finalized; Build and Order over gRPC answer as REST", async () => {
    const taker = newTaker(stack);
    const unary = (method: string, req: unknown) =>
      new Promise<any>((resolve, reject) => stack.grpcClient[method](req, (err: Error | null, res: any) => (err ? reject(err) : resolve(res))));
    const build = await unary("Build", { inputMint: SOL, outputMint: USDC, amount: "1000000", taker: taker.publicKey.toBase58() });
    expect(build.swapInstruction.data.subarray(0, 8)).toEqual(anchorDiscriminator("route_v2"));
    const order = await unary("Order", {
      inputMint: SOL,
      outputMint: USDC,
      amount: "1000000",
      taker: taker.publicKey.toBase58(),
      priorityLevel: "high",
      maxLamports: "10000",
    });
    const tx = VersionedTransaction.deserialize(order.transaction);
    tx.sign([taker]);
    const before = usdcOf(stack, taker.publicKey);
    const stream = stack.grpcClient.ExecuteAndWatch({ signedTransaction: Buffer.from(tx.serialize()), requestId: order.requestId });
    const stages: any[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on("data", (m: any) => stages.push(m));
      stream.on("end", resolve);
      stream.on("error", reject);
    });
    expect(stages.map((s) => s.stage)).toEqual(["sent", "confirmed", "finalized"]);
    expect(stages[1].result.status).toBe("Success");
    expect(stages[1].result.outputAmountResult).toBe((usdcOf(stack, taker.publicKey) - before).toString());
  });
});

describe.skipIf(!hasChainDir())("Swap API v2 order priority fees", () => {
  let stack: SwapV2Stack;
  beforeAll(async () => {
    stack = await startSwapV2Stack({ programs: true });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  /** The order transaction's SetComputeUnitPrice (ComputeBudget tag 3, u64 LE), in µlamports. */
  function unitPriceOf(transaction: string): bigint {
    const tx = VersionedTransaction.deserialize(Buffer.from(transaction, "base64"));
    const keys = tx.message.staticAccountKeys;
    const ix = tx.message.compiledInstructions.find(
      (i) => keys[i.programIdIndex].toBase58() === "ComputeBudget111111111111111111111111111111" && i.data[0] === 3,
    )!;
    return Buffer.from(ix.data).readBigUInt64LE(1);
  }

  test("priorityLevel picks the nearest-rank percentile of the pool's recent fees (as getRecentPrioritizationFees reports them); maxLamports caps it", async () => {
    // Swaps through the pool at known prices (fixed priority fees), so the pool has a fee history.
    for (const lamports of [14_000n, 70_000n, 28_000n, 140_000n, 42_000n]) {
      const t = newTaker(stack);
      const o = (
        await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000&priorityFeeLamports=${lamports}&taker=${t.publicKey.toBase58()}`)
      ).body;
      expect(o.prioritizationFeeLamports).toBe(Number(lamports));
      expect((await stack.post("/swap/v2/execute", { signedTransaction: signBase64(o.transaction, t), requestId: o.requestId })).body.status).toBe("Success");
    }
    const rpc = await fetch(stack.localnet.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getRecentPrioritizationFees", params: [[POOL.toBase58()]] }),
    });
    const samples = ((await rpc.json()).result as { prioritizationFee: number }[])
      .map((f) => BigInt(f.prioritizationFee))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const nearestRank = (p: number) => samples[Math.ceil((p / 100) * samples.length) - 1];
    const taker = newTaker(stack);
    const ask = (query: string) => stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000&taker=${taker.publicKey.toBase58()}&${query}`);
    const veryHigh = (await ask("priorityLevel=veryHigh")).body;
    expect(unitPriceOf(veryHigh.transaction)).toBe(nearestRank(75));
    expect(nearestRank(75)).toBeGreaterThan(0n);
    const medium = (await ask("priorityLevel=medium")).body;
    expect(unitPriceOf(medium.transaction)).toBe(nearestRank(25));
    const capped = (await ask("priorityLevel=veryHigh&maxLamports=1000")).body;
    expect(capped.prioritizationFeeLamports).toBeLessThanOrEqual(1000);
    expect(unitPriceOf(capped.transaction)).toBeLessThan(nearestRank(75));
    const bad = await ask("priorityLevel=extreme");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("priorityLevel");
  });
});
