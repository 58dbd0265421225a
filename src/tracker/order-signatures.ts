import type { ConfirmedSignatureInfo, PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../chain/solana-chain.js";

/** getSignaturesForAddress answers at most this many per call. */
const SIGNATURES_PER_CALL = 1000;

/**
 * The signatures of `address` newer than `until` (exclusive), OLDEST first. The node answers
 * newest first, so this pages back (`before` = last of the previous page) until a short page;
 * all of them are needed before the cursor may move to the newest.
 */
export async function newSignaturesOldestFirst(chain: SolanaChain, address: PublicKey, until: string | undefined): Promise<ConfirmedSignatureInfo[]> {
  const newestFirst: ConfirmedSignatureInfo[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await chain.getSignaturesForAddress(address, {
      limit: SIGNATURES_PER_CALL,
      ...(before === undefined ? {} : { before }),
      ...(until === undefined ? {} : { until }),
    });
    newestFirst.push(...page);
    if (page.length < SIGNATURES_PER_CALL) break;
    before = page[page.length - 1].signature;
  }
  return newestFirst.reverse();
}
