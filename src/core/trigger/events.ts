import { getI64Codec, getNullableCodec, getStructDecoder, getU16Codec, getU64Codec } from "@solana/kit";
import type { Decoder } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";
import { hasDiscriminator } from "../solana/discriminator.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";

/**
 * Anchor `emit_cpi!` events: the program invokes itself with data
 * EVENT_IX_TAG (u64 0x1d9acb512ea545e4, little-endian) + event discriminator + Borsh payload
 * (trigger-api.md §2.6). These are found among a transaction's inner instructions.
 */
export const EVENT_IX_TAG = new Uint8Array([0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d]);

export const CREATE_ORDER_EVENT_DISCRIMINATOR = new Uint8Array([49, 142, 72, 166, 230, 29, 84, 84]);
export const TRADE_EVENT_DISCRIMINATOR = new Uint8Array([189, 219, 127, 211, 78, 230, 97, 238]);
export const CANCEL_ORDER_EVENT_DISCRIMINATOR = new Uint8Array([174, 66, 141, 17, 4, 224, 162, 77]);
export const CANCEL_DUST_ORDER_EVENT_DISCRIMINATOR = new Uint8Array([124, 190, 74, 28, 177, 40, 200, 220]);

export interface CreateOrderEvent {
  readonly orderKey: PublicKey;
  readonly maker: PublicKey;
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inputTokenProgram: PublicKey;
  readonly outputTokenProgram: PublicKey;
  readonly makingAmount: bigint;
  readonly takingAmount: bigint;
  readonly expiredAt: bigint | null;
  readonly feeBps: number;
  readonly feeAccount: PublicKey;
  readonly slippageBps: number;
}

export interface TradeEvent {
  readonly orderKey: PublicKey;
  readonly taker: PublicKey;
  readonly remainingMakingAmount: bigint;
  readonly remainingTakingAmount: bigint;
  readonly makingAmount: bigint;
  readonly takingAmount: bigint;
}

export interface CancelOrderEvent {
  readonly orderKey: PublicKey;
}

export interface CancelDustOrderEvent {
  readonly orderKey: PublicKey;
  readonly oneUsdInputMintAmount: bigint;
}

export type LimitOrderEvent =
  | { readonly name: "CreateOrderEvent"; readonly data: CreateOrderEvent }
  | { readonly name: "TradeEvent"; readonly data: TradeEvent }
  | { readonly name: "CancelOrderEvent"; readonly data: CancelOrderEvent }
  | { readonly name: "CancelDustOrderEvent"; readonly data: CancelDustOrderEvent };

const createOrderEventDecoder = getStructDecoder([
  ["orderKey", getPublicKeyCodec()],
  ["maker", getPublicKeyCodec()],
  ["inputMint", getPublicKeyCodec()],
  ["outputMint", getPublicKeyCodec()],
  ["inputTokenProgram", getPublicKeyCodec()],
  ["outputTokenProgram", getPublicKeyCodec()],
  ["makingAmount", getU64Codec()],
  ["takingAmount", getU64Codec()],
  ["expiredAt", getNullableCodec(getI64Codec())],
  ["feeBps", getU16Codec()],
  ["feeAccount", getPublicKeyCodec()],
  ["slippageBps", getU16Codec()],
]) as unknown as Decoder<CreateOrderEvent>;

const tradeEventDecoder = getStructDecoder([
  ["orderKey", getPublicKeyCodec()],
  ["taker", getPublicKeyCodec()],
  ["remainingMakingAmount", getU64Codec()],
  ["remainingTakingAmount", getU64Codec()],
  ["makingAmount", getU64Codec()],
  ["takingAmount", getU64Codec()],
]) as unknown as Decoder<TradeEvent>;

const cancelOrderEventDecoder = getStructDecoder([["orderKey", getPublicKeyCodec()]]) as unknown as Decoder<CancelOrderEvent>;

const cancelDustOrderEventDecoder = getStructDecoder([
  ["orderKey", getPublicKeyCodec()],
  ["oneUsdInputMintAmount", getU64Codec()],
]) as unknown as Decoder<CancelDustOrderEvent>;

/**
 * Decodes the data of one self-CPI event instruction. Returns null when the data is not an
 * event of this program (no EVENT_IX_TAG, or an event this decoder does not know).
 */
export function decodeLimitOrderEvent(instructionData: Uint8Array): LimitOrderEvent | null {
  if (!hasDiscriminator(instructionData, EVENT_IX_TAG)) return null;
  const payloadOffset = 16;
  if (hasDiscriminator(instructionData, CREATE_ORDER_EVENT_DISCRIMINATOR, 8)) {
    return { name: "CreateOrderEvent", data: createOrderEventDecoder.decode(instructionData, payloadOffset) };
  }
  if (hasDiscriminator(instructionData, TRADE_EVENT_DISCRIMINATOR, 8)) {
    return { name: "TradeEvent", data: tradeEventDecoder.decode(instructionData, payloadOffset) };
  }
  if (hasDiscriminator(instructionData, CANCEL_ORDER_EVENT_DISCRIMINATOR, 8)) {
    return { name: "CancelOrderEvent", data: cancelOrderEventDecoder.decode(instructionData, payloadOffset) };
  }
  if (hasDiscriminator(instructionData, CANCEL_DUST_ORDER_EVENT_DISCRIMINATOR, 8)) {
    return {
      name: "CancelDustOrderEvent",
      data: cancelDustOrderEventDecoder.decode(instructionData, payloadOffset),
    };
  }
  return null;
}
