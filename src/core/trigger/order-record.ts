import type { PublicKey } from "@solana/web3.js";
import type { OrderAccount } from "./order-account.js";
import { formatUiAmount } from "./ui-amount.js";

/**
 * One trigger order as getTriggerOrders lists it, before formatting: raw amounts, the mints'
 * decimals, dates. `toJupiterOrderRecord` turns it into Jupiter's JSON record
 * (trigger-api.md §1.6); the gRPC layer maps the same view to its proto message.
 */

export type TriggerOrderStatus = "Open" | "Completed" | "Cancelled";

export interface TriggerTradeView {
  readonly orderKey: string;
  readonly keeper: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly rawInputAmount: bigint;
  /** Gross output of the fill. */
  readonly rawOutputAmount: bigint;
  /** The order's fee token account; Jupiter calls it `feeMint`. */
  readonly feeAccount: string;
  readonly rawFeeAmount: bigint;
  readonly txId: string;
  readonly confirmedAt: Date;
  readonly action: string;
  readonly succeeded: boolean;
}

export interface TriggerOrderView {
  readonly orderKey: string;
  readonly maker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inputDecimals: number;
  readonly outputDecimals: number;
  readonly rawMakingAmount: bigint;
  readonly rawTakingAmount: bigint;
  readonly rawRemainingMakingAmount: bigint;
  readonly rawRemainingTakingAmount: bigint;
  readonly slippageBps: number;
  /** Unix seconds, or null for no expiry. */
  readonly expiredAt: bigint | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly status: TriggerOrderStatus;
  readonly openTx: string;
  readonly closeTx: string;
  readonly programId: string;
  /** Newest first, as Jupiter lists them. */
  readonly trades: readonly TriggerTradeView[];
}

export interface JupiterTradeRecord {
  readonly orderKey: string;
  readonly keeper: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inputAmount: string;
  readonly outputAmount: string;
  readonly rawInputAmount: string;
  readonly rawOutputAmount: string;
  readonly feeMint: string;
  readonly feeAmount: string;
  readonly rawFeeAmount: string;
  readonly txId: string;
  readonly confirmedAt: string;
  readonly action: string;
  readonly productMeta: null;
}

export interface JupiterOrderRecord {
  readonly userPubkey: string;
  readonly orderKey: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly makingAmount: string;
  readonly takingAmount: string;
  readonly remainingMakingAmount: string;
  readonly remainingTakingAmount: string;
  readonly rawMakingAmount: string;
  readonly rawTakingAmount: string;
  readonly rawRemainingMakingAmount: string;
  readonly rawRemainingTakingAmount: string;
  readonly slippageBps: string;
  readonly expiredAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: TriggerOrderStatus;
  readonly openTx: string;
  readonly closeTx: string;
  readonly programVersion: string;
  readonly trades: readonly JupiterTradeRecord[];
}

/** ISO-8601 UTC without milliseconds, as Jupiter writes timestamps ("2025-03-10T14:40:08Z"). */
export function formatJupiterTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function dateFromUnixSeconds(seconds: bigint | number): Date {
  return new Date(Number(seconds) * 1000);
}

export function toJupiterTradeRecord(trade: TriggerTradeView, inputDecimals: number, outputDecimals: number): JupiterTradeRecord {
  return {
    orderKey: trade.orderKey,
    keeper: trade.keeper,
    inputMint: trade.inputMint,
    outputMint: trade.outputMint,
    inputAmount: formatUiAmount(trade.rawInputAmount, inputDecimals),
    outputAmount: formatUiAmount(trade.rawOutputAmount, outputDecimals),
    rawInputAmount: trade.rawInputAmount.toString(),
    rawOutputAmount: trade.rawOutputAmount.toString(),
    feeMint: trade.feeAccount,
    // The fee is taken from the output (trigger-api.md §1.6).
    feeAmount: formatUiAmount(trade.rawFeeAmount, outputDecimals),
    rawFeeAmount: trade.rawFeeAmount.toString(),
    txId: trade.txId,
    confirmedAt: formatJupiterTimestamp(trade.confirmedAt),
    action: trade.action,
    productMeta: null,
  };
}

export function toJupiterOrderRecord(order: TriggerOrderView): JupiterOrderRecord {
  const { inputDecimals, outputDecimals } = order;
  return {
    userPubkey: order.maker,
    orderKey: order.orderKey,
    inputMint: order.inputMint,
    outputMint: order.outputMint,
    makingAmount: formatUiAmount(order.rawMakingAmount, inputDecimals),
    takingAmount: formatUiAmount(order.rawTakingAmount, outputDecimals),
    remainingMakingAmount: formatUiAmount(order.rawRemainingMakingAmount, inputDecimals),
    remainingTakingAmount: formatUiAmount(order.rawRemainingTakingAmount, outputDecimals),
    rawMakingAmount: order.rawMakingAmount.toString(),
    rawTakingAmount: order.rawTakingAmount.toString(),
    rawRemainingMakingAmount: order.rawRemainingMakingAmount.toString(),
    rawRemainingTakingAmount: order.rawRemainingTakingAmount.toString(),
    slippageBps: String(order.slippageBps),
    // The non-null format is not observed (§7.6); the same ISO form as the other timestamps.
    expiredAt: order.expiredAt === null ? null : formatJupiterTimestamp(dateFromUnixSeconds(order.expiredAt)),
    createdAt: formatJupiterTimestamp(order.createdAt),
    updatedAt: formatJupiterTimestamp(order.updatedAt),
    status: order.status,
    openTx: order.openTx,
    closeTx: order.closeTx,
    programVersion: order.programId,
    trades: order.trades.map((trade) => toJupiterTradeRecord(trade, inputDecimals, outputDecimals)),
  };
}

/** What the chain does not hold about an open order: its creation tx and fills (from the store). */
export interface KnownOrderFacts {
  readonly openTx: string;
  readonly trades: readonly TriggerTradeView[];
}

/** The view of an open order read from its account. */
export function orderViewFromAccount(
  orderKey: PublicKey,
  account: OrderAccount,
  decimals: { readonly input: number; readonly output: number },
  programId: PublicKey,
  known: KnownOrderFacts,
): TriggerOrderView {
  return {
    orderKey: orderKey.toBase58(),
    maker: account.maker.toBase58(),
    inputMint: account.inputMint.toBase58(),
    outputMint: account.outputMint.toBase58(),
    inputDecimals: decimals.input,
    outputDecimals: decimals.output,
    rawMakingAmount: account.oriMakingAmount,
    rawTakingAmount: account.oriTakingAmount,
    rawRemainingMakingAmount: account.makingAmount,
    rawRemainingTakingAmount: account.takingAmount,
    slippageBps: account.slippageBps,
    expiredAt: account.expiredAt,
    createdAt: dateFromUnixSeconds(account.createdAt),
    updatedAt: dateFromUnixSeconds(account.updatedAt),
    status: "Open",
    openTx: known.openTx,
    closeTx: "",
    programId: programId.toBase58(),
    trades: known.trades,
  };
}

/** Newest first (created_at desc), ties by order key so pages are stable. */
export function compareNewestFirst(a: TriggerOrderView, b: TriggerOrderView): number {
  const byCreated = b.createdAt.getTime() - a.createdAt.getTime();
  if (byCreated !== 0) return byCreated;
  return a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0;
}
