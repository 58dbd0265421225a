import { fixCodecSize, getBytesCodec, transformCodec } from "@solana/kit";
import type { FixedSizeCodec, ReadonlyUint8Array } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";

/**
 * A 32-byte Borsh `Pubkey` as a web3.js PublicKey (the project's one key representation).
 * Kit's own address codec yields base58 strings; this keeps decoded layouts in PublicKey form.
 */
export function getPublicKeyCodec(): FixedSizeCodec<PublicKey, PublicKey, 32> {
  return transformCodec(
    fixCodecSize(getBytesCodec(), 32),
    (key: PublicKey) => key.toBytes(),
    (bytes: ReadonlyUint8Array) => new PublicKey(bytes as Uint8Array),
  );
}
