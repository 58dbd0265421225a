import { MAX_BLOCKHASH_SLOTS_TO_EXPIRY } from "./request.js";

/**
 * `blockhashSlotsToExpiry`: a blockhash from getLatestBlockhash is valid up to
 * `lastValidBlockHeight` (its block height + 150); the request may ask for fewer slots, so the
 * reported last valid height is moved down by the difference.
 */
export function shortenLastValidBlockHeight(lastValidBlockHeight: bigint, slotsToExpiry: number | undefined): bigint {
  if (slotsToExpiry === undefined) return lastValidBlockHeight;
  return lastValidBlockHeight - BigInt(MAX_BLOCKHASH_SLOTS_TO_EXPIRY - slotsToExpiry);
}
