import { fixCodecSize, getBytesCodec, getStructCodec, transformCodec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import { hasDiscriminator } from "./discriminator.js";

/**
 * Anchor instruction data: an 8-byte discriminator then the Borsh args. The encoder fills the
 * discriminator in; the decoder checks it.
 */
export function withDiscriminator<Args extends object>(name: string, discriminator: Uint8Array, fields: Parameters<typeof getStructCodec>[0]): Codec<Args> {
  const struct = getStructCodec([["discriminator", fixCodecSize(getBytesCodec(), 8)], ...fields]) as unknown as Codec<Record<string, unknown>>;
  return transformCodec(
    struct,
    (args: Args) => ({ discriminator, ...args }),
    (decoded) => {
      const { discriminator: actual, ...args } = decoded as { discriminator: Uint8Array };
      if (!hasDiscriminator(actual, discriminator)) {
        throw new Error(`not a ${name} instruction (discriminator ${Buffer.from(actual).toString("hex")})`);
      }
      return args as Args;
    },
  );
}
