import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BN } from "@coral-xyz/anchor";
import { Keypair } from "@solana/web3.js";
import { decodeLimitOrderEvent, EVENT_IX_TAG } from "../../../src/core/trigger/events.js";
import { limitOrderCoder, limitOrderIdl } from "./reference.js";

/** Self-CPI event data built independently: Anchor's EVENT_IX_TAG + the IDL's discriminator + BorshCoder payload. */
function eventInstructionData(name: string, payload: Record<string, unknown>): Buffer {
  const event = limitOrderIdl.events!.find((e) => e.name === name)!;
  const tag = Buffer.alloc(8);
  tag.writeBigUInt64LE(0x1d9acb512ea545e4n);
  return Buffer.concat([tag, Buffer.from(event.discriminator), limitOrderCoder.types.encode(name, payload)]);
}

const key = () => Keypair.generate().publicKey;

describe("decodeLimitOrderEvent over events encoded from the IDL's layouts", () => {
  it("EVENT_IX_TAG is Anchor's u64 from sha256('anchor:event')[..8], written little-endian", () => {
    const hashPrefix = createHash("sha256").update("anchor:event").digest().subarray(0, 8);
    expect(Buffer.from(EVENT_IX_TAG)).toEqual(Buffer.from(hashPrefix).reverse());
  });

  for (const expiredAt of [null, 1_900_000_000n]) {
    it(`CreateOrderEvent (expired_at ${expiredAt === null ? "None" : "Some"})`, () => {
      const fields = {
        order_key: key(),
        maker: key(),
        input_mint: key(),
        output_mint: key(),
        input_token_program: key(),
        output_token_program: key(),
        making_amount: new BN("18446744073709551615"),
        taking_amount: new BN(100_000_000),
        expired_at: expiredAt === null ? null : new BN(expiredAt.toString()),
        fee_bps: 10,
        fee_account: key(),
        slippage_bps: 69,
      };
      const event = decodeLimitOrderEvent(eventInstructionData("CreateOrderEvent", fields));
      expect(event?.name).toBe("CreateOrderEvent");
      if (event?.name !== "CreateOrderEvent") return;
      expect(event.data.orderKey.equals(fields.order_key)).toBe(true);
      expect(event.data.maker.equals(fields.maker)).toBe(true);
      expect(event.data.inputMint.equals(fields.input_mint)).toBe(true);
      expect(event.data.outputMint.equals(fields.output_mint)).toBe(true);
      expect(event.data.inputTokenProgram.equals(fields.input_token_program)).toBe(true);
      expect(event.data.outputTokenProgram.equals(fields.output_token_program)).toBe(true);
      expect(event.data.makingAmount).toBe(18446744073709551615n);
      expect(event.data.takingAmount).toBe(100_000_000n);
      expect(event.data.expiredAt).toBe(expiredAt);
      expect(event.data.feeBps).toBe(10);
      expect(event.data.feeAccount.equals(fields.fee_account)).toBe(true);
      expect(event.data.slippageBps).toBe(69);
    });
  }

  it("TradeEvent", () => {
    const fields = {
      order_key: key(),
      taker: key(),
      remaining_making_amount: new BN(1),
      remaining_taking_amount: new BN(2),
      making_amount: new BN("3599980699"),
      taking_amount: new BN("119999356633"),
    };
    const event = decodeLimitOrderEvent(eventInstructionData("TradeEvent", fields));
    expect(event?.name).toBe("TradeEvent");
    if (event?.name !== "TradeEvent") return;
    expect(event.data.orderKey.equals(fields.order_key)).toBe(true);
    expect(event.data.taker.equals(fields.taker)).toBe(true);
    expect([event.data.remainingMakingAmount, event.data.remainingTakingAmount]).toEqual([1n, 2n]);
    expect([event.data.makingAmount, event.data.takingAmount]).toEqual([3599980699n, 119999356633n]);
  });

  it("CancelOrderEvent and CancelDustOrderEvent", () => {
    const orderKey = key();
    const cancel = decodeLimitOrderEvent(eventInstructionData("CancelOrderEvent", { order_key: orderKey }));
    expect(cancel?.name).toBe("CancelOrderEvent");
    expect(cancel?.data.orderKey.equals(orderKey)).toBe(true);
    const dust = decodeLimitOrderEvent(eventInstructionData("CancelDustOrderEvent", { order_key: orderKey, one_usd_input_mint_amount: new BN(6_543_210) }));
    expect(dust).toMatchObject({ name: "CancelDustOrderEvent", data: { oneUsdInputMintAmount: 6_543_210n } });
  });

  it("returns null for non-event data and unknown events", () => {
    expect(decodeLimitOrderEvent(Buffer.from("856e4aaf709ff59f", "hex"))).toBeNull();
    const unknown = Buffer.concat([Buffer.from(EVENT_IX_TAG), Buffer.alloc(40, 7)]);
    expect(decodeLimitOrderEvent(unknown)).toBeNull();
  });
});
