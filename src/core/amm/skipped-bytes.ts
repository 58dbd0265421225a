import { fixDecoderSize, getBytesDecoder } from "@solana/kit";

/**
 * A decoder field for bytes an adapter does not need (discriminators, fees, rewards...): keeps
 * the offsets of the fields after it right without decoding what lies between.
 */
export const skip = (size: number) => fixDecoderSize(getBytesDecoder(), size);
