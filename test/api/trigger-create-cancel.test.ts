/**
 * CreateOrder, CancelOrder and CancelOrders over gRPC (grpc-js), Connect JSON and Jupiter's REST
 * paths, against the localnet and a store. Expectations come from Anchor's BorshCoder over the
 * reference IDL and from independent PDA/ATA derivations (web3.js, spl-token), not from the code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { BN } from "@coral-xyz/anchor";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT, TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { limitOrderCoder, limitOrderIdl } from "../core/trigger/reference.js";
import { placeOrderAccount, startTriggerHarness } from "./trigger-harness.js";
import type { TriggerHarness } from "./trigger-harness.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const maker = DEMO.wallet;
const usdc = DEMO.usdcMint;

interface DecodedInstruction {
  readonly name: string;
  readonly data: Record<string, unknown>;
  /** IDL account name → address. */
  readonly accounts: Record<string, string>;
}

/** Every Limit Order instruction of a wire transaction, decoded by Anchor's BorshCoder over the IDL. */
function limitOrderInstructions(wire: Uint8Array): DecodedInstruction[] {
  const tx = VersionedTransaction.deserialize(wire);
  const keys = tx.message.staticAccountKeys;
  expect(tx.message.addressTableLookups).toEqual([]);
  expect(tx.signatures.every((s) => s.every((b) => b === 0))).toBe(true); // unsigned
  return tx.message.compiledInstructions
    .filter((ix) => keys[ix.programIdIndex].equals(LIMIT_ORDER_V2_PROGRAM_ID))
    .map((ix) => {
      const decoded = limitOrderCoder.instruction.decode(Buffer.from(ix.data));
      if (decoded === null) throw new Error("BorshCoder could not decode the instruction");
      const idlAccounts = limitOrderIdl.instructions.find((i) => i.name === decoded.name)!.accounts as { name: string }[];
      expect(ix.accountKeyIndexes.length).toBe(idlAccounts.length);
      const accounts = Object.fromEntries(idlAccounts.map((a, i) => [a.name, keys[ix.accountKeyIndexes[i]].toBase58()]));
      return { name: decoded.name, data: decoded.data as Record<string, unknown>, accounts };
    });
}

function orderPda(owner: PublicKey, uniqueId: BN): PublicKey {
  return PublicKey.findProgramAddressSync([Buffer.from("order"), owner.toBuffer(), uniqueId.toArrayLike(Buffer, "le", 8)], LIMIT_ORDER_V2_PROGRAM_ID)[0];
}

const FEE_PDA = PublicKey.findProgramAddressSync([Buffer.from("fee")], LIMIT_ORDER_V2_PROGRAM_ID)[0];
const EVENT_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], LIMIT_ORDER_V2_PROGRAM_ID)[0];

interface InitializeOrderParams {
  unique_id: BN;
  making_amount: BN;
  taking_amount: BN;
  expired_at: BN | null;
  fee_bps: number | null;
  slippage_bps: number | null;
}

let h: TriggerHarness;
beforeAll(async () => {
  h = await startTriggerHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("CreateOrder", () => {
  const expiredAt = Math.floor(Date.now() / 1000) + 86_400;
  const feeAccount = Keypair.generate().publicKey;

  /** The same order asked for over each protocol; each answer checked independently. */
  async function checkCreateAnswer(answer: { order: string; transaction: Uint8Array; requestId: string }, sellSol: boolean) {
    expect(answer.requestId).toMatch(UUID_V4);
    const [init, ...others] = limitOrderInstructions(answer.transaction);
    expect(others).toEqual([]);
    expect(init.name).toBe("initialize_order");
    const params = (init.data as { params: InitializeOrderParams }).params;
    const inputMint = sellSol ? NATIVE_MINT : usdc;
    const outputMint = sellSol ? usdc : NATIVE_MINT;
    expect(params.making_amount.toString()).toBe(sellSol ? "250000000" : "40000000");
    expect(params.taking_amount.toString()).toBe(sellSol ? "37500000" : "300000000");
    expect(params.expired_at?.toString()).toBe(String(expiredAt));
    expect(params.fee_bps).toBe(25);
    expect(params.slippage_bps).toBe(50);
    const order = orderPda(maker, params.unique_id);
    expect(answer.order).toBe(order.toBase58());
    expect(init.accounts).toMatchObject({
      payer: maker.toBase58(),
      maker: maker.toBase58(),
      order: order.toBase58(),
      input_mint_reserve: getAssociatedTokenAddressSync(inputMint, order, true, TOKEN_PROGRAM_ID).toBase58(),
      maker_input_mint_account: getAssociatedTokenAddressSync(inputMint, maker, true, TOKEN_PROGRAM_ID).toBase58(),
      fee: FEE_PDA.toBase58(),
      referral: feeAccount.toBase58(),
      input_mint: inputMint.toBase58(),
      output_mint: outputMint.toBase58(),
      input_token_program: TOKEN_PROGRAM_ID.toBase58(),
      output_token_program: TOKEN_PROGRAM_ID.toBase58(),
      event_authority: EVENT_AUTHORITY.toBase58(),
      program: LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    });
    // The exact message is stored under the requestId, with its expiry.
    const issued = await h.store.issuedTransactions.findByRequestId(answer.requestId);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ kind: "create_order", maker: maker.toBase58(), orderKeys: [answer.order] });
    expect(Buffer.from(issued[0].message)).toEqual(Buffer.from(VersionedTransaction.deserialize(answer.transaction).message.serialize()));
    const blockhash = VersionedTransaction.deserialize(answer.transaction).message.recentBlockhash;
    expect(h.localnet.chain.isBlockhashValid(blockhash)).toBe(true);
    expect(Number(issued[0].lastValidBlockHeight)).toBeGreaterThanOrEqual(h.localnet.chain.blockHeight + 140);
    return params;
  }

  it("REST: Jupiter's JSON (string amounts) → {order, transaction (base64), requestId}, in one RPC round trip", async () => {
    const before = h.localnet.stats().httpRequests;
    const { status, body } = await h.rest("/trigger/v1/createOrder", {
      inputMint: NATIVE_MINT.toBase58(),
      outputMint: usdc.toBase58(),
      maker: maker.toBase58(),
      payer: maker.toBase58(),
      params: { makingAmount: "250000000", takingAmount: "37500000", expiredAt: String(expiredAt), slippageBps: "50", feeBps: "25" },
      feeAccount: feeAccount.toBase58(),
      computeUnitPrice: "auto",
    });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["order", "requestId", "transaction"]);
    expect(h.localnet.stats().httpRequests - before).toBe(1);
    await checkCreateAnswer(
      { order: body["order"] as string, transaction: Buffer.from(body["transaction"] as string, "base64"), requestId: body["requestId"] as string },
      true,
    );
  });

  it("gRPC (grpc-js stubs): the same order, USDC → SOL", async () => {
    const answer = await h.grpc<{ order: string; transaction: Buffer; requestId: string }>("CreateOrder", {
      inputMint: usdc.toBase58(),
      outputMint: NATIVE_MINT.toBase58(),
      maker: maker.toBase58(),
      payer: maker.toBase58(),
      params: { makingAmount: "40000000", takingAmount: "300000000", expiredAt: String(expiredAt), slippageBps: 50, feeBps: 25 },
      feeAccount: feeAccount.toBase58(),
      computeUnitPrice: "1234",
    });
    await checkCreateAnswer(answer, false);
  });

  it("Connect JSON: the same order; every request gets its own unique_id and requestId", async () => {
    const request = {
      inputMint: NATIVE_MINT.toBase58(),
      outputMint: usdc.toBase58(),
      maker: maker.toBase58(),
      payer: maker.toBase58(),
      params: { makingAmount: 250_000_000n, takingAmount: 37_500_000n, expiredAt: BigInt(expiredAt), slippageBps: 50, feeBps: 25 },
      feeAccount: feeAccount.toBase58(),
    };
    const a = await h.connect.createOrder(request);
    const b = await h.connect.createOrder(request);
    const pa = await checkCreateAnswer(a, true);
    const pb = await checkCreateAnswer(b, true);
    expect(pa.unique_id.eq(pb.unique_id)).toBe(false);
    expect(a.requestId).not.toBe(b.requestId);
  });

  it("mints come from the chain's one mint cache once read: the next CreateOrder reads no account, still one round trip", async () => {
    const request = {
      inputMint: usdc.toBase58(),
      outputMint: NATIVE_MINT.toBase58(),
      maker: maker.toBase58(),
      payer: maker.toBase58(),
      params: { makingAmount: "40000000", takingAmount: "300000000", expiredAt: String(expiredAt), slippageBps: "50", feeBps: "25" },
      feeAccount: feeAccount.toBase58(),
    };
    expect((await h.rest("/trigger/v1/createOrder", request)).status).toBe(200);
    expect(h.chain.mintAccounts.has(usdc) && h.chain.mintAccounts.has(NATIVE_MINT)).toBe(true);
    const before = { ...h.localnet.stats().calls };
    const httpBefore = h.localnet.stats().httpRequests;
    const { status, body } = await h.rest("/trigger/v1/createOrder", request);
    expect(status).toBe(200);
    expect(h.localnet.stats().httpRequests - httpBefore).toBe(1);
    expect(h.localnet.stats().calls["getMultipleAccounts"] ?? 0).toBe(before["getMultipleAccounts"] ?? 0);
    // The listing's getMints is served by the same cache: no request at all.
    const listingBefore = h.localnet.stats().httpRequests;
    expect((await h.chain.getMints([usdc])).get(usdc.toBase58())?.decimals).toBe(DEMO.usdcDecimals);
    expect(h.localnet.stats().httpRequests).toBe(listingBefore);
    await checkCreateAnswer(
      { order: body["order"] as string, transaction: Buffer.from(body["transaction"] as string, "base64"), requestId: body["requestId"] as string },
      false,
    );
  });

  it("a mint that does not exist on chain: INVALID_ARGUMENT / 400 naming the mint, nothing written", async () => {
    const before = await h.rowCounts();
    const missing = Keypair.generate().publicKey.toBase58();
    const body = {
      inputMint: missing,
      outputMint: usdc.toBase58(),
      maker: maker.toBase58(),
      payer: maker.toBase58(),
      params: { makingAmount: "1", takingAmount: "1" },
    };
    const rest = await h.rest("/trigger/v1/createOrder", body);
    expect(rest).toMatchObject({ status: 400, body: { error: "invalid create order request", code: 400, cause: expect.stringContaining("inputMint") } });
    await expect(h.grpc("CreateOrder", { ...body, params: { makingAmount: "1", takingAmount: "1" } })).rejects.toMatchObject({
      code: 3,
      details: expect.stringContaining("inputMint: mint account does not exist"),
    });
    expect(await h.rowCounts()).toEqual(before);
  });
});

describe("CancelOrder", () => {
  it("over REST, gRPC and Connect: cancel_order with the order's reserve and the maker's input ATA (created first)", async () => {
    const order = await placeOrderAccount(h.localnet, maker, usdc, NATIVE_MINT);
    const reserve = getAssociatedTokenAddressSync(usdc, order, true, TOKEN_PROGRAM_ID);
    const request = { maker: maker.toBase58(), order: order.toBase58(), computeUnitPrice: "auto" };
    const rest = await h.rest("/trigger/v1/cancelOrder", request);
    expect(rest.status).toBe(200);
    const grpcAnswer = await h.grpc<{ transaction: Buffer; requestId: string }>("CancelOrder", request);
    const connectAnswer = await h.connect.cancelOrder(request);
    const answers = [
      { transaction: Buffer.from(rest.body["transaction"] as string, "base64"), requestId: rest.body["requestId"] as string },
      grpcAnswer,
      connectAnswer,
    ];
    for (const answer of answers) {
      expect(answer.requestId).toMatch(UUID_V4);
      const tx = VersionedTransaction.deserialize(answer.transaction);
      expect(tx.message.staticAccountKeys[0].equals(maker)).toBe(true); // fee payer = maker
      const [cancel, ...rest] = limitOrderInstructions(answer.transaction);
      expect(rest).toEqual([]);
      expect(cancel.name).toBe("cancel_order");
      expect(cancel.accounts).toEqual({
        signer: maker.toBase58(),
        maker: maker.toBase58(),
        order: order.toBase58(),
        input_mint_reserve: reserve.toBase58(),
        maker_input_mint_account: getAssociatedTokenAddressSync(usdc, maker, true, TOKEN_PROGRAM_ID).toBase58(),
        input_mint: usdc.toBase58(),
        input_token_program: TOKEN_PROGRAM_ID.toBase58(),
        event_authority: EVENT_AUTHORITY.toBase58(),
        program: LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
      });
      const issued = await h.store.issuedTransactions.findByRequestId(answer.requestId);
      expect(issued.map((i) => [i.kind, i.orderKeys])).toEqual([["cancel_order", [order.toBase58()]]]);
    }
  });

  it("a wSOL order passes None (the program id) as the maker's input account, so native SOL comes back", async () => {
    const order = await placeOrderAccount(h.localnet, maker, NATIVE_MINT, usdc);
    const answer = await h.connect.cancelOrder({ maker: maker.toBase58(), order: order.toBase58() });
    const [cancel] = limitOrderInstructions(answer.transaction);
    expect(cancel.accounts["maker_input_mint_account"]).toBe(LIMIT_ORDER_V2_PROGRAM_ID.toBase58());
  });

  it('an order of another maker, or no order at all: 400 "no matching orders found" naming `order`, nothing written', async () => {
    const other = await placeOrderAccount(h.localnet, Keypair.generate().publicKey, usdc, NATIVE_MINT);
    const before = await h.rowCounts();
    for (const order of [other, Keypair.generate().publicKey]) {
      const request = { maker: maker.toBase58(), order: order.toBase58() };
      const rest = await h.rest("/trigger/v1/cancelOrder", request);
      expect(rest).toMatchObject({ status: 400, body: { error: "no matching orders found", code: 400, cause: expect.stringMatching(/^order: /) } });
      await expect(h.grpc("CancelOrder", request)).rejects.toMatchObject({ code: 3, details: expect.stringMatching(/^order: /) });
    }
    expect(await h.rowCounts()).toEqual(before);
  });
});

describe("CancelOrders", () => {
  it("without `orders`: all open orders of the maker (getProgramAccounts), 5 per transaction, one requestId", async () => {
    const owner = Keypair.generate().publicKey;
    const mine = new Set<string>();
    for (let i = 0; i < 7; i += 1) mine.add((await placeOrderAccount(h.localnet, owner, usdc, NATIVE_MINT)).toBase58());
    await placeOrderAccount(h.localnet, Keypair.generate().publicKey, usdc, NATIVE_MINT); // someone else's
    const calls = { ...h.localnet.stats().calls };
    const rest = await h.rest("/trigger/v1/cancelOrders", { maker: owner.toBase58() });
    expect(rest.status).toBe(200);
    expect(h.localnet.stats().calls["getProgramAccounts"]).toBe((calls["getProgramAccounts"] ?? 0) + 1);
    const grpcAnswer = await h.grpc<{ transactions: Buffer[]; requestId: string }>("CancelOrders", { maker: owner.toBase58(), orders: [] });
    const connectAnswer = await h.connect.cancelOrders({ maker: owner.toBase58() });
    const answers = [
      { transactions: (rest.body["transactions"] as string[]).map((t) => Buffer.from(t, "base64")), requestId: rest.body["requestId"] as string },
      grpcAnswer,
      connectAnswer,
    ];
    for (const answer of answers) {
      expect(answer.transactions).toHaveLength(2);
      const perTx = answer.transactions.map((t) => limitOrderInstructions(t));
      expect(perTx.map((ixs) => ixs.length)).toEqual([5, 2]);
      const cancelled = perTx.flat().map((ix) => {
        expect(ix.name).toBe("cancel_order");
        expect(ix.accounts["maker"]).toBe(owner.toBase58());
        return ix.accounts["order"];
      });
      expect(new Set(cancelled)).toEqual(mine);
      const issued = await h.store.issuedTransactions.findByRequestId(answer.requestId);
      expect(issued.map((i) => [i.txIndex, i.kind, i.orderKeys.length])).toEqual([
        [0, "cancel_orders", 5],
        [1, "cancel_orders", 2],
      ]);
    }
  });

  it("with `orders`: exactly those, each checked (another maker's order is refused naming orders[i])", async () => {
    const a = await placeOrderAccount(h.localnet, maker, usdc, NATIVE_MINT);
    const b = await placeOrderAccount(h.localnet, maker, NATIVE_MINT, usdc);
    const answer = await h.grpc<{ transactions: Buffer[] }>("CancelOrders", { maker: maker.toBase58(), orders: [a.toBase58(), b.toBase58()] });
    expect(answer.transactions).toHaveLength(1);
    expect(limitOrderInstructions(answer.transactions[0]).map((ix) => ix.accounts["order"])).toEqual([a.toBase58(), b.toBase58()]);
    const foreign = await placeOrderAccount(h.localnet, Keypair.generate().publicKey, usdc, NATIVE_MINT);
    const refused = await h.rest("/trigger/v1/cancelOrders", { maker: maker.toBase58(), orders: [a.toBase58(), foreign.toBase58()] });
    expect(refused).toMatchObject({ status: 400, body: { error: "no matching orders found", cause: expect.stringMatching(/^orders\[1\]: /) } });
  });

  it("a maker without open orders: 400 naming `orders`", async () => {
    const rest = await h.rest("/trigger/v1/cancelOrders", { maker: Keypair.generate().publicKey.toBase58() });
    expect(rest).toMatchObject({ status: 400, body: { error: "no matching orders found", code: 400, cause: expect.stringMatching(/^orders: /) } });
  });
});
