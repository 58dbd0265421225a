import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../core/solana/programs.js";
import type { OrderStatusFilter, ValidGetTriggerOrdersRequest } from "../../core/trigger/get-trigger-orders-request.js";
import { decodeOrderAccount, OrderAccountDecodeError } from "../../core/trigger/order-account.js";
import type { OrderAccount } from "../../core/trigger/order-account.js";
import { compareNewestFirst, orderViewFromAccount } from "../../core/trigger/order-record.js";
import type { TriggerOrderView, TriggerTradeView } from "../../core/trigger/order-record.js";
import { pageWindow, slicePage, totalPages } from "../../core/trigger/pagination.js";
import { DatabaseUnavailableError } from "../../store/database-errors.js";
import type { Store } from "../../store/open-store.js";
import type { StoredOrder } from "../../store/order-store.js";
import type { StoredTrade } from "../../store/trade-store.js";
import { readMakerOrderAccounts } from "./maker-order-accounts.js";
import type { MintFilter } from "./maker-order-accounts.js";

/** What the listing reads: open orders from the chain, history and fills from the store. */
export interface TriggerListingDeps {
  readonly chain: SolanaChain;
  readonly store: Store;
}

export interface TriggerOrdersPage {
  readonly user: string;
  readonly orderStatus: OrderStatusFilter;
  readonly orders: readonly TriggerOrderView[];
  readonly totalPages: number;
  readonly page: number;
}

export async function listTriggerOrders(deps: TriggerListingDeps, request: ValidGetTriggerOrdersRequest): Promise<TriggerOrdersPage> {
  if (request.orderStatus === "active") {
    const all = await listActiveOrders(deps, request.user, request, { includeFailed: request.includeFailedTx });
    return {
      user: request.user.toBase58(),
      orderStatus: "active",
      orders: slicePage(all, request.page),
      totalPages: totalPages(all.length),
      page: request.page,
    };
  }
  return listHistory(deps, request);
}

/**
 * All open orders of `maker` on chain, newest first: getProgramAccounts with memcmp on the Order
 * discriminator and the maker (plus the mint filters), decimals from the (cached) mints, creation
 * tx and fills from the store. Orders the store did not know are recorded so the tracker follows them.
 */
export async function listActiveOrders(
  deps: TriggerListingDeps,
  maker: PublicKey,
  mints: MintFilter,
  options: { readonly includeFailed?: boolean } = {},
): Promise<TriggerOrderView[]> {
  const accounts = await readMakerOrderAccounts(deps.chain, maker, mints);
  const orders: { key: PublicKey; account: OrderAccount }[] = [];
  for (const account of accounts) {
    try {
      orders.push({ key: account.address, account: decodeOrderAccount(account.data) });
    } catch (error) {
      // Not an Order of the layout we know (e.g. a truncated account): not listable.
      if (!(error instanceof OrderAccountDecodeError)) throw error;
    }
  }
  if (orders.length === 0) return [];

  const keys = orders.map((o) => o.key.toBase58());
  const [decimals, extras] = await Promise.all([
    mintDecimals(
      deps.chain,
      orders.flatMap((o) => [o.account.inputMint, o.account.outputMint]),
    ),
    storeExtras(deps.store, keys, options.includeFailed),
  ]);
  const known = extras?.known ?? new Map<string, StoredOrder>();
  const tradesByOrder = groupTrades(extras?.trades ?? []);
  const views = orders.map(({ key, account }) => {
    const stored = known.get(key.toBase58());
    return orderViewFromAccount(
      key,
      account,
      {
        input: decimals.get(account.inputMint.toBase58()) ?? stored?.inputDecimals ?? 0,
        output: decimals.get(account.outputMint.toBase58()) ?? stored?.outputDecimals ?? 0,
      },
      LIMIT_ORDER_V2_PROGRAM_ID,
      { openTx: stored?.openTx ?? "", trades: tradesByOrder.get(key.toBase58()) ?? [] },
    );
  });
  if (extras !== undefined) {
    await recordSeenOrders(deps.store, orders, views, known).catch((error: unknown) => {
      // The database went down meanwhile: a later listing records them; the answer comes from the chain.
      if (!(error instanceof DatabaseUnavailableError)) throw error;
    });
  }
  return views.sort(compareNewestFirst);
}

/**
 * What the store adds to the chain's open orders (creation transaction, fills), or undefined while
 * the database is unavailable: the open orders come from the chain, so the listing answers without
 * them (empty `openTx`, no trades) rather than waiting for a database that is known down.
 */
async function storeExtras(
  store: Store,
  keys: readonly string[],
  includeFailed: boolean | undefined,
): Promise<{ known: ReadonlyMap<string, StoredOrder>; trades: readonly StoredTrade[] } | undefined> {
  if (store.db.knownDown()) return undefined;
  try {
    const [known, trades] = await Promise.all([
      store.orders.getMany(keys),
      store.trades.listByOrders(keys, includeFailed === undefined ? {} : { includeFailed }),
    ]);
    return { known, trades };
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) return undefined;
    throw error;
  }
}

/** Orders seen on chain that the store does not know are written (one statement), so the tracker follows them. */
async function recordSeenOrders(
  store: Store,
  orders: readonly { key: PublicKey; account: OrderAccount }[],
  views: readonly TriggerOrderView[],
  known: ReadonlyMap<string, StoredOrder>,
): Promise<void> {
  const unseen: StoredOrder[] = [];
  for (const [i, { account }] of orders.entries()) {
    const view = views[i];
    // A known order that moved on is the tracker's to update (with its fills); only new ones here.
    if (known.has(view.orderKey)) continue;
    unseen.push({
      orderKey: view.orderKey,
      maker: view.maker,
      inputMint: view.inputMint,
      outputMint: view.outputMint,
      inputTokenProgram: account.inputTokenProgram.toBase58(),
      outputTokenProgram: account.outputTokenProgram.toBase58(),
      inputDecimals: view.inputDecimals,
      outputDecimals: view.outputDecimals,
      uniqueId: account.uniqueId,
      rawMakingAmount: view.rawMakingAmount,
      rawTakingAmount: view.rawTakingAmount,
      rawRemainingMakingAmount: view.rawRemainingMakingAmount,
      rawRemainingTakingAmount: view.rawRemainingTakingAmount,
      slippageBps: view.slippageBps,
      feeBps: account.feeBps,
      feeAccount: account.feeAccount.toBase58(),
      expiredAt: view.expiredAt,
      status: "Open",
      openTx: "",
      closeTx: "",
      programId: view.programId,
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
    });
  }
  if (unseen.length > 0) await store.orders.upsertMany(unseen);
}

/** Completed and cancelled orders of the user from the store, newest first, one page. */
async function listHistory(deps: TriggerListingDeps, request: ValidGetTriggerOrdersRequest): Promise<TriggerOrdersPage> {
  const filter = {
    maker: request.user.toBase58(),
    statuses: ["Completed", "Cancelled"] as const,
    ...(request.inputMint === null ? {} : { inputMint: request.inputMint.toBase58() }),
    ...(request.outputMint === null ? {} : { outputMint: request.outputMint.toBase58() }),
  };
  const [total, rows] = await Promise.all([deps.store.orders.countByMaker(filter), deps.store.orders.listByMaker(filter, pageWindow(request.page))]);
  const orders = await storedOrderViews(deps, rows, { includeFailed: request.includeFailedTx });
  return { user: filter.maker, orderStatus: "history", orders, totalPages: totalPages(total), page: request.page };
}

/** Views of stored orders with their fills; decimals the store lacks come from the mints. */
export async function storedOrderViews(
  deps: TriggerListingDeps,
  rows: readonly StoredOrder[],
  options: { readonly includeFailed?: boolean } = {},
): Promise<TriggerOrderView[]> {
  if (rows.length === 0) return [];
  const missingDecimals = rows.flatMap((row) => [
    ...(row.inputDecimals === null ? [new PublicKey(row.inputMint)] : []),
    ...(row.outputDecimals === null ? [new PublicKey(row.outputMint)] : []),
  ]);
  const [decimals, trades] = await Promise.all([
    missingDecimals.length === 0 ? new Map<string, number>() : mintDecimals(deps.chain, missingDecimals),
    deps.store.trades.listByOrders(
      rows.map((row) => row.orderKey),
      options.includeFailed === undefined ? {} : { includeFailed: options.includeFailed },
    ),
  ]);
  const tradesByOrder = groupTrades(trades);
  return rows.map((row) => storedOrderView(row, tradesByOrder.get(row.orderKey) ?? [], decimals));
}

function storedOrderView(row: StoredOrder, trades: readonly TriggerTradeView[], decimals: ReadonlyMap<string, number>): TriggerOrderView {
  return {
    orderKey: row.orderKey,
    maker: row.maker,
    inputMint: row.inputMint,
    outputMint: row.outputMint,
    inputDecimals: row.inputDecimals ?? decimals.get(row.inputMint) ?? 0,
    outputDecimals: row.outputDecimals ?? decimals.get(row.outputMint) ?? 0,
    rawMakingAmount: row.rawMakingAmount,
    rawTakingAmount: row.rawTakingAmount,
    rawRemainingMakingAmount: row.rawRemainingMakingAmount,
    rawRemainingTakingAmount: row.rawRemainingTakingAmount,
    slippageBps: row.slippageBps,
    expiredAt: row.expiredAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    status: row.status,
    openTx: row.openTx,
    closeTx: row.closeTx,
    programId: row.programId,
    trades,
  };
}

async function mintDecimals(chain: SolanaChain, mints: readonly PublicKey[]): Promise<Map<string, number>> {
  const unique = [...new Map(mints.map((m) => [m.toBase58(), m])).values()];
  const infos = await chain.getMints(unique);
  const out = new Map<string, number>();
  for (const [key, info] of infos) if (info !== null) out.set(key, info.decimals);
  return out;
}

/** Trades by order, newest first (as Jupiter lists them). */
function groupTrades(trades: readonly StoredTrade[]): Map<string, TriggerTradeView[]> {
  const byOrder = new Map<string, TriggerTradeView[]>();
  for (const trade of trades) {
    const view: TriggerTradeView = {
      orderKey: trade.orderKey,
      keeper: trade.keeper,
      inputMint: trade.inputMint,
      outputMint: trade.outputMint,
      rawInputAmount: trade.rawInputAmount,
      rawOutputAmount: trade.rawOutputAmount,
      feeAccount: trade.feeAccount,
      rawFeeAmount: trade.rawFeeAmount,
      txId: trade.txSignature,
      confirmedAt: trade.confirmedAt,
      action: trade.action,
      succeeded: trade.succeeded,
    };
    const list = byOrder.get(trade.orderKey);
    if (list === undefined) byOrder.set(trade.orderKey, [view]);
    else list.push(view);
  }
  // The store lists oldest first.
  for (const list of byOrder.values()) list.reverse();
  return byOrder;
}
