import { describe, expect, it } from "vitest";
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { decodeOrderAccount, ORDER_ACCOUNT_DISCRIMINATOR, ORDER_ACCOUNT_OFFSETS, OrderAccountDecodeError } from "../../../src/core/trigger/order-account.js";
import { limitOrderCoder } from "./reference.js";

interface OrderFields {
  maker: PublicKey;
  inputMint: PublicKey;
  outputMint: PublicKey;
  inputTokenProgram: PublicKey;
  outputTokenProgram: PublicKey;
  expiredAt: bigint | null;
}

/** An Order account as Anchor itself would write it. */
async function encodeWithAnchor(fields: OrderFields): Promise<Buffer> {
  return limitOrderCoder.accounts.encode("Order", {
    maker: fields.maker,
    input_mint: fields.inputMint,
    output_mint: fields.outputMint,
    input_token_program: fields.inputTokenProgram,
    output_token_program: fields.outputTokenProgram,
    input_mint_reserve: new PublicKey("GvHzyNFiTCe6idxbFZk65LSUpnEKDeLGeUd8WCBC7aeL"),
    unique_id: new BN("18446744073709551615"),
    ori_making_amount: new BN("50000000"),
    ori_taking_amount: new BN("100000000"),
    making_amount: new BN("12345"),
    taking_amount: new BN("67890"),
    borrow_making_amount: new BN(7),
    expired_at: fields.expiredAt === null ? null : new BN(fields.expiredAt.toString()),
    fee_bps: 10,
    fee_account: new PublicKey("APWoLnZc8g8iXLA8qLdHJ4w42ybRrq2Vm8UGQhH7TJ3r"),
    created_at: new BN(1741617608),
    updated_at: new BN(1741617700),
    bump: 254,
    slippage_bps: 69,
  });
}

describe("decodeOrderAccount over accounts written by Anchor's BorshCoder", () => {
  const cases: [string, PublicKey, PublicKey, bigint | null][] = [
    ["Token, no expiry", TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID, null],
    ["Token, with expiry", TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID, 1_900_000_000n],
    ["Token-2022 input, with expiry", TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, 1_750_000_123n],
    ["Token-2022 output, no expiry", TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, null],
  ];
  for (const [label, inputTokenProgram, outputTokenProgram, expiredAt] of cases) {
    it(label, async () => {
      const fields = {
        maker: Keypair.generate().publicKey,
        inputMint: Keypair.generate().publicKey,
        outputMint: Keypair.generate().publicKey,
        inputTokenProgram,
        outputTokenProgram,
        expiredAt,
      };
      const data = await encodeWithAnchor(fields);
      const order = decodeOrderAccount(data);
      expect(order.maker.equals(fields.maker)).toBe(true);
      expect(order.inputMint.equals(fields.inputMint)).toBe(true);
      expect(order.outputMint.equals(fields.outputMint)).toBe(true);
      expect(order.inputTokenProgram.equals(inputTokenProgram)).toBe(true);
      expect(order.outputTokenProgram.equals(outputTokenProgram)).toBe(true);
      expect(order.inputMintReserve.toBase58()).toBe("GvHzyNFiTCe6idxbFZk65LSUpnEKDeLGeUd8WCBC7aeL");
      expect(order.uniqueId).toBe(18446744073709551615n);
      expect([order.oriMakingAmount, order.oriTakingAmount, order.makingAmount, order.takingAmount]).toEqual([50000000n, 100000000n, 12345n, 67890n]);
      expect(order.borrowMakingAmount).toBe(7n);
      expect(order.expiredAt).toBe(expiredAt);
      // Fields after the Option<i64> shift by 8 bytes when it is Some.
      expect(order.feeBps).toBe(10);
      expect(order.feeAccount.toBase58()).toBe("APWoLnZc8g8iXLA8qLdHJ4w42ybRrq2Vm8UGQhH7TJ3r");
      expect([order.createdAt, order.updatedAt, order.bump, order.slippageBps]).toEqual([1741617608n, 1741617700n, 254, 69]);
      // getProgramAccounts memcmp offsets point at the same bytes.
      expect(new PublicKey(data.subarray(ORDER_ACCOUNT_OFFSETS.maker, ORDER_ACCOUNT_OFFSETS.maker + 32)).equals(fields.maker)).toBe(true);
      expect(new PublicKey(data.subarray(ORDER_ACCOUNT_OFFSETS.inputMint, ORDER_ACCOUNT_OFFSETS.inputMint + 32)).equals(fields.inputMint)).toBe(true);
      expect(new PublicKey(data.subarray(ORDER_ACCOUNT_OFFSETS.outputMint, ORDER_ACCOUNT_OFFSETS.outputMint + 32)).equals(fields.outputMint)).toBe(true);
    });
  }

  it("discriminator equals Anchor's and its documented base58 memcmp form", () => {
    expect(Buffer.from(ORDER_ACCOUNT_DISCRIMINATOR)).toEqual(limitOrderCoder.accounts.accountDiscriminator("Order"));
    expect(bs58.encode(ORDER_ACCOUNT_DISCRIMINATOR)).toBe("PXZJQQ2HEmx");
  });

  it("rejects other accounts and truncated data", async () => {
    const fee = await limitOrderCoder.accounts.encode("Fee", { normal_fee_bps: 10, stable_fee_bps: 3 });
    expect(() => decodeOrderAccount(fee)).toThrow(OrderAccountDecodeError);
    const data = await encodeWithAnchor({
      maker: Keypair.generate().publicKey,
      inputMint: Keypair.generate().publicKey,
      outputMint: Keypair.generate().publicKey,
      inputTokenProgram: TOKEN_PROGRAM_ID,
      outputTokenProgram: TOKEN_PROGRAM_ID,
      expiredAt: 5n,
    });
    expect(() => decodeOrderAccount(data.subarray(0, 250))).toThrow(OrderAccountDecodeError);
  });
});
