import type { Logger } from "pino";
import type { SolanaChain } from "../chain/solana-chain.js";
import { createdOrderOfMessage } from "../core/trigger/index.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../core/solana/programs.js";
import type { ExecutionRecord, Store, StoredIssuedTransaction } from "../store/index.js";
import type { LandedHandler } from "./landed-handler.js";

export interface OrderLandedDeps {
  readonly chain: SolanaChain;
  readonly store: Pick<Store, "orders">;
  readonly logger: Logger;
}

/** The `create_order` kind's landed handler. */
export function orderLanded(deps: OrderLandedDeps): LandedHandler {
  return ({ record, issued }) => recordCreatedOrder(deps, record, issued);
}

/**
 * After a create transaction issued here lands, the order goes into the store with its creation
 * signature, so history lists it and the tracker follows its fills and closing from then on.
 * An order the tracker already knows keeps its progress; only a missing `openTx` is filled in.
 */
export async function recordCreatedOrder(deps: OrderLandedDeps, execution: ExecutionRecord, issued: StoredIssuedTransaction): Promise<void> {
  if (issued.kind !== "create_order") return;
  const created = createdOrderOfMessage(issued.message);
  if (created === null) return;
  const orderKey = created.order.toBase58();
  const known = await deps.store.orders.get(orderKey);
  if (known !== null) {
    await deps.store.orders.upsert({ ...known, openTx: execution.signature });
    return;
  }
  const mints = await deps.chain.getMints([created.inputMint, created.outputMint]);
  const now = execution.updatedAt;
  await deps.store.orders.upsert({
    orderKey,
    maker: created.maker.toBase58(),
    inputMint: created.inputMint.toBase58(),
    outputMint: created.outputMint.toBase58(),
    inputTokenProgram: created.inputTokenProgram.toBase58(),
    outputTokenProgram: created.outputTokenProgram.toBase58(),
    inputDecimals: mints.get(created.inputMint.toBase58())?.decimals ?? null,
    outputDecimals: mints.get(created.outputMint.toBase58())?.decimals ?? null,
    uniqueId: created.uniqueId,
    rawMakingAmount: created.makingAmount,
    rawTakingAmount: created.takingAmount,
    rawRemainingMakingAmount: created.makingAmount,
    rawRemainingTakingAmount: created.takingAmount,
    slippageBps: created.slippageBps ?? 0,
    feeBps: created.feeBps,
    feeAccount: null,
    expiredAt: created.expiredAt,
    status: "Open",
    openTx: execution.signature,
    closeTx: "",
    programId: LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    createdAt: now,
    updatedAt: now,
  });
  deps.logger.info({ order: orderKey, signature: execution.signature }, "order recorded after its create transaction landed");
}
