import { fixCodecSize, getBytesCodec, getI64Codec, getNullableCodec, getStructDecoder, getU16Codec, getU64Codec, getU8Codec } from "@solana/kit";
import type { Decoder } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";
import { hasDiscriminator } from "../solana/discriminator.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";

/** sha256("account:Order")[..8] (trigger-api.md §2.5); base58 "PXZJQQ2HEmx" for memcmp at offset 0. */
export const ORDER_ACCOUNT_DISCRIMINATOR = new Uint8Array([134, 173, 223, 185, 77, 86, 28, 51]);

/**
 * getProgramAccounts memcmp offsets (including the discriminator). Only fields before the
 * `expired_at` Option are at fixed offsets; everything after it shifts by 8 when Some.
 */
export const ORDER_ACCOUNT_OFFSETS = {
  discriminator: 0,
  maker: 8,
  inputMint: 40,
  outputMint: 72,
} as const;

/** A Limit Order v2 `Order` account. u64/i64 are bigints; `expiredAt` in unix seconds or null. */
export interface OrderAccount {
  readonly maker: PublicKey;
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inputTokenProgram: PublicKey;
  readonly outputTokenProgram: PublicKey;
  readonly inputMintReserve: PublicKey;
  readonly uniqueId: bigint;
  readonly oriMakingAmount: bigint;
  readonly oriTakingAmount: bigint;
  /** Remaining. */
  readonly makingAmount: bigint;
  /** Remaining. */
  readonly takingAmount: bigint;
  readonly borrowMakingAmount: bigint;
  readonly expiredAt: bigint | null;
  readonly feeBps: number;
  readonly feeAccount: PublicKey;
  readonly createdAt: bigint;
  readonly updatedAt: bigint;
  readonly bump: number;
  readonly slippageBps: number;
}

interface OrderAccountLayout extends OrderAccount {
  readonly discriminator: Uint8Array;
}

const orderAccountLayoutDecoder = getStructDecoder([
  ["discriminator", fixCodecSize(getBytesCodec(), 8)],
  ["maker", getPublicKeyCodec()],
  ["inputMint", getPublicKeyCodec()],
  ["outputMint", getPublicKeyCodec()],
  ["inputTokenProgram", getPublicKeyCodec()],
  ["outputTokenProgram", getPublicKeyCodec()],
  ["inputMintReserve", getPublicKeyCodec()],
  ["uniqueId", getU64Codec()],
  ["oriMakingAmount", getU64Codec()],
  ["oriTakingAmount", getU64Codec()],
  ["makingAmount", getU64Codec()],
  ["takingAmount", getU64Codec()],
  ["borrowMakingAmount", getU64Codec()],
  // Option<i64>: 1 byte when None, 9 when Some; every later field shifts.
  ["expiredAt", getNullableCodec(getI64Codec())],
  ["feeBps", getU16Codec()],
  ["feeAccount", getPublicKeyCodec()],
  ["createdAt", getI64Codec()],
  ["updatedAt", getI64Codec()],
  ["bump", getU8Codec()],
  ["slippageBps", getU16Codec()],
]) as unknown as Decoder<OrderAccountLayout>;

export function hasOrderAccountDiscriminator(data: Uint8Array): boolean {
  return hasDiscriminator(data, ORDER_ACCOUNT_DISCRIMINATOR);
}

export class OrderAccountDecodeError extends Error {
  override readonly name = "OrderAccountDecodeError";
}

/** Decodes an Order account's data; throws OrderAccountDecodeError on a wrong discriminator or short data. */
export function decodeOrderAccount(data: Uint8Array): OrderAccount {
  if (!hasOrderAccountDiscriminator(data)) {
    throw new OrderAccountDecodeError("not a Limit Order v2 Order account (discriminator mismatch)");
  }
  let layout: OrderAccountLayout;
  try {
    layout = orderAccountLayoutDecoder.decode(data);
  } catch (cause) {
    throw new OrderAccountDecodeError(`Order account data is truncated (${data.length} bytes)`, { cause });
  }
  const { discriminator: _discriminator, ...order } = layout;
  return order;
}
