import { getU64Decoder } from "@solana/kit";
import type { PublicKey, VersionedTransactionResponse } from "@solana/web3.js";
import { hasDiscriminator } from "../solana/discriminator.js";
import { accountKeysOf } from "./transaction-events.js";

/**
 * A failed fill attempt on an order (shown by getTriggerOrders with includeFailedTx). A failed
 * transaction emits no events, so the attempt is read from its top-level instruction:
 * `fill_order(FillOrderParams { input_amount, .. })` with accounts [taker, maker, order, ...], or
 * `pre_flash_fill_order(PreFlashFillOrderParams { making_amount })` with [taker, order, ...]
 * (trigger-api.md §2.2–2.3). The output of a failed attempt is zero.
 */
export interface FailedFillAttempt {
  readonly keeper: PublicKey;
  readonly rawInputAmount: bigint;
}

const FILL_ORDER_DISCRIMINATOR = new Uint8Array([232, 122, 115, 25, 199, 143, 136, 162]);
const PRE_FLASH_FILL_ORDER_DISCRIMINATOR = new Uint8Array([240, 47, 153, 68, 13, 190, 225, 42]);

/** The instruction's discriminator followed by at least the u64 amount read below. */
function hasPrefix(data: Uint8Array, discriminator: Uint8Array): boolean {
  return data.length >= discriminator.length + 8 && hasDiscriminator(data, discriminator);
}

/** The fill attempts on `order` in a (failed) transaction, in instruction order. */
export function findFailedFillAttempts(tx: VersionedTransactionResponse, order: PublicKey, programId: PublicKey): FailedFillAttempt[] {
  const keys = accountKeysOf(tx);
  const attempts: FailedFillAttempt[] = [];
  for (const ix of tx.transaction.message.compiledInstructions) {
    if (!keys[ix.programIdIndex]?.equals(programId)) continue;
    const data = Uint8Array.from(ix.data);
    const orderPosition = hasPrefix(data, FILL_ORDER_DISCRIMINATOR) ? 2 : hasPrefix(data, PRE_FLASH_FILL_ORDER_DISCRIMINATOR) ? 1 : -1;
    if (orderPosition < 0) continue;
    const orderIndex = ix.accountKeyIndexes[orderPosition];
    const takerIndex = ix.accountKeyIndexes[0];
    if (orderIndex === undefined || takerIndex === undefined || !keys[orderIndex]?.equals(order)) continue;
    const keeper = keys[takerIndex];
    if (keeper === undefined) continue;
    attempts.push({ keeper, rawInputAmount: getU64Decoder().decode(data, 8) });
  }
  return attempts;
}
