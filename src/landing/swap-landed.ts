/**
 * The `swap` kind's landed handler: what an issued swap actually moved, read from the landed
 * transaction (its token balances, lamports and the Jupiter program's events) and recorded once.
 * Only a swap the chain reports successful has a result: a failed one moved nothing.
 */
import bs58 from "bs58";
import type { VersionedTransactionResponse } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { swapAmounts } from "../core/swap/swap-result.js";
import type { LandedSwap } from "../core/swap/swap-result.js";
import type { Store } from "../store/index.js";
import type { LandedHandler } from "./landed-handler.js";

/** The landed transaction as the core's amount reader wants it. */
export function landedSwapOf(tx: VersionedTransactionResponse): LandedSwap {
  const keys = tx.transaction.message.getAccountKeys({ accountKeysFromLookups: tx.meta?.loadedAddresses ?? null });
  const keyAt = (index: number) => keys.get(index)?.toBase58() ?? "";
  const meta = tx.meta;
  return {
    innerInstructions: (meta?.innerInstructions ?? []).flatMap((group) =>
      group.instructions.map((ix) => ({ programId: keyAt(ix.programIdIndex), data: bs58.decode(ix.data) })),
    ),
    preTokenBalances: meta?.preTokenBalances ?? [],
    postTokenBalances: meta?.postTokenBalances ?? [],
    ...(meta
      ? {
          lamports: {
            accountKeys: Array.from({ length: keys.length }, (_, i) => keyAt(i)),
            preBalances: meta.preBalances,
            postBalances: meta.postBalances,
            fee: meta.fee,
            instructions: tx.transaction.message.compiledInstructions.map((ix) => ({
              programId: keyAt(ix.programIdIndex),
              accounts: ix.accountKeyIndexes,
              data: ix.data,
            })),
          },
        }
      : {}),
  };
}

export function swapLanded(deps: { readonly store: Pick<Store, "swapOrders"> }): LandedHandler {
  return async ({ record, transaction }) => {
    const order = await deps.store.swapOrders.find(record.requestId);
    if (order === null) return;
    if ((await deps.store.swapOrders.findResult(record.signature)) !== null) return;
    const landed = await transaction();
    // Not served by any endpoint yet: the answer reads it again (resultOf) rather than record nothing.
    if (landed === null || landed.meta?.err) return;
    const amounts = swapAmounts(landedSwapOf(landed), {
      taker: order.taker,
      inputMint: order.inputMint,
      outputMint: order.outputMint,
      jupiterProgramId: JUPITER_V6_PROGRAM_ID.toBase58(),
    });
    // A landed swap moved something both ways; zeros mean the transaction did not tell (never recorded as a result).
    if (amounts.inputAmount === 0n || amounts.outputAmount === 0n) return;
    await deps.store.swapOrders.recordResult({ signature: record.signature, slot: BigInt(landed.slot), ...amounts });
  };
}
