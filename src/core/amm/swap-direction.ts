import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "./adapter.js";
import type { SwapParams } from "./adapter.js";

/**
 * True when the step swaps the pool's first mint (A / X / 0 / base) into its second.
 * Direction comes from pool state, never from the quote's label; mints that are not
 * exactly the pool's pair are rejected.
 */
export function swapsFromFirstMint(poolMints: readonly [PublicKey, PublicKey], params: SwapParams): boolean {
  const [first, second] = poolMints;
  if (params.sourceMint.equals(first) && params.destinationMint.equals(second)) return true;
  if (params.sourceMint.equals(second) && params.destinationMint.equals(first)) return false;
  throw new AmmError(
    `pool mints ${first.toBase58()}/${second.toBase58()} do not match the step's ` + `${params.sourceMint.toBase58()} -> ${params.destinationMint.toBase58()}`,
  );
}
