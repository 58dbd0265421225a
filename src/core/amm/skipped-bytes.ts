import { createDecoder } from "@solana/kit";
import type { FixedSizeDecoder } from "@solana/kit";

/**
 * A decoder field for bytes an adapter does not need (discriminators, fees, rewards...): keeps
 * the offsets of the fields after it right without reading or copying what lies between (a tick
 * or bin array skips kilobytes per decode).
 */
export const skip = (size: number): FixedSizeDecoder<undefined> => createDecoder({ fixedSize: size, read: (_bytes, offset) => [undefined, offset + size] });
