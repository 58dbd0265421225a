/**
 * CreateOrder of nonce orders: without nonce accounts, the unsigned creation of as many as the
 * request needs (their values are made when they land, and the legs need them); with them, the
 * orders the request makes (core/nonce-trigger/group-plan.ts: one, an OTOCO's two, a DCA's rounds),
 * each on its own nonce: for each leg, up to `routesPerLeg` routes of swapd's own quote, each
 * compiled on the nonce with the floor as its minimum out — recorded as `issued`, all or nothing.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { parseCreateNonceOrder } from "../../core/nonce-trigger/create-request.js";
import type { CreateNonceOrderInput, ParsedCreateNonceOrder } from "../../core/nonce-trigger/create-request.js";
import { checkPlannedPrices } from "../../core/nonce-trigger/group-checks.js";
import { planOrders } from "../../core/nonce-trigger/group-plan.js";
import type { PlannedGroup, PlannedOrder } from "../../core/nonce-trigger/group-plan.js";
import type { LegSpec } from "../../core/nonce-trigger/order.js";
import { legQuote, nonceCancel, nonceLegTransaction, ORDER_SECRET_BYTES } from "../../core/nonce-trigger/transactions.js";
import type { LegOnNonce } from "../../core/nonce-trigger/transactions.js";
import { checkNonceAccount } from "../../core/nonce-trigger/validate.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { decodeNonceAccount } from "../../core/solana/durable-nonce.js";
import type { NonceState } from "../../core/solana/durable-nonce.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import { ValidationError } from "../../core/validation-error.js";
import type { Store } from "../../store/index.js";
import type { NewNonceOrder } from "../../store/index.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import { MAX_TRANSACTION_BYTES } from "../../core/solana/transaction-message.js";
import { TransactionTooLargeError } from "../../core/swap/transaction-too-large-error.js";
import type { SwapInstructionsOperation } from "../swap/swap-instructions.js";
import { nonceAccountsToCreate } from "./nonce-account-creation.js";
import type { OrderCaller } from "./order-caller.js";
import { priceOrders, routeLabel } from "./order-pricing.js";
import type { PriceQuote, PricedOrder } from "./order-pricing.js";

export interface IssuedLegTransaction {
  readonly kind: LegSpec["kind"];
  readonly legIndex: number;
  readonly routeIndex: number;
  readonly transaction: Uint8Array;
  readonly triggerOutAmount: bigint | null;
  readonly minOutAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly routeLabel: string;
  /** The order of the request it belongs to, its nonce, what it sells, and (DCA) when it is due and its band's top. */
  readonly orderId: string;
  readonly nonceAccount: string;
  readonly amount: bigint;
  readonly notBefore: Date | null;
  readonly triggerMaxOutAmount: bigint | null;
}

export interface CreateNonceOrderResult {
  /** The order's id (OTOCO / DCA: the group's, which is its first order's); empty when only nonce accounts are to be created. */
  readonly orderId: string;
  readonly nonceAccount: string;
  readonly nonceAccountTransaction: Uint8Array | null;
  /** The nonce accounts the request needs: given, or to be created by `nonceAccountTransactions`. */
  readonly nonceAccounts: readonly string[];
  readonly nonceAccountTransactions: readonly Uint8Array[];
  readonly legs: readonly IssuedLegTransaction[];
  readonly currentOutAmount: bigint;
  readonly pricedBy: PriceQuote | null;
  /** Signed and sent by the taker, voids every leg of every order on chain (null when nothing was issued). */
  readonly cancelTransaction: Uint8Array | null;
  readonly expiresAt: Date | null;
}

/** The bounds of nonce orders (config NONCE_*). */
export interface NonceOrderLimits {
  /** Issued orders not armed yet per caller. */
  readonly pendingPerCaller: number;
  /** Armed or triggered orders per taker. */
  readonly activePerTaker: number;
  /** How long an issued order may wait to be armed. */
  readonly armWithinMs: number;
  /** The shortest interval between DCA rounds accepted. */
  readonly dcaMinIntervalS: number;
}

export const DEFAULT_NONCE_ORDER_LIMITS: NonceOrderLimits = { pendingPerCaller: 200, activePerTaker: 100, armWithinMs: 600_000, dcaMinIntervalS: 60 };

export interface NonceOrderDeps {
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly engine: Pick<QuoteEngine, "quote">;
  readonly swapInstructions: SwapInstructionsOperation;
  readonly limits: NonceOrderLimits;
}

function pendingBoundReached(limits: NonceOrderLimits, caller: OrderCaller): ValidationError {
  return new ValidationError(
    "createOrder",
    "pending_per_caller",
    `this caller has ${limits.pendingPerCaller} orders waiting to be armed (the bound per ${caller.ownerKey === null ? "client address" : "API key"}); arm them or let them lapse (${Math.round(limits.armWithinMs / 1000)} s after creation) first`,
    "LIMIT_REACHED",
  );
}

/** Each leg's routes compiled on the order's nonce with the request's secret: what the caller gets and what is stored. */
async function issueLegs(
  deps: NonceOrderDeps,
  taker: string,
  order: PlannedOrder,
  found: readonly QuoteResponseJson[],
  onNonce: Omit<LegOnNonce, "lookupTables">,
): Promise<{ legs: Omit<IssuedLegTransaction, "orderId" | "nonceAccount" | "amount" | "notBefore">[]; stored: NewNonceOrder["legs"][number][] }> {
  const legs: Omit<IssuedLegTransaction, "orderId" | "nonceAccount" | "amount" | "notBefore">[] = [];
  const stored: NewNonceOrder["legs"][number][] = [];
  for (const [legIndex, spec] of order.legs.entries()) {
    for (const [routeIndex, route] of found.entries()) {
      const built = await deps.swapInstructions({
        userPublicKey: taker,
        quote: legQuote(route, spec.minOutAmount),
        wrapAndUnwrapSol: true,
        prioritization: { kind: "auto" },
      });
      const compiled = nonceLegTransaction(built, { ...onNonce, lookupTables: built.lookupTableAccounts });
      if (compiled.transaction.length > MAX_TRANSACTION_BYTES)
        throw new TransactionTooLargeError(compiled.transaction.length, built.lookupTableAccounts.length);
      const common = {
        kind: spec.kind,
        legIndex,
        routeIndex,
        triggerOutAmount: spec.triggerOutAmount,
        triggerMaxOutAmount: spec.triggerMaxOutAmount ?? null,
        minOutAmount: spec.minOutAmount,
        quotedOutAmount: BigInt(route.outAmount),
      };
      legs.push({ ...common, transaction: compiled.transaction, routeLabel: routeLabel(route) });
      stored.push({ ...common, message: compiled.message, messageHash: transactionMessageHash(compiled.message) });
    }
  }
  return { legs, stored };
}

async function readNonces(deps: NonceOrderDeps, accounts: readonly string[], taker: string): Promise<NonceState[]> {
  const reads = await deps.chain.getMultipleAccounts(accounts.map((a) => new PublicKey(a)));
  const field = (i: number) => (accounts.length === 1 ? "nonceAccount" : `nonceAccounts[${i}]`);
  return accounts.map((a, i) => checkNonceAccount(field(i), a, decodeNonceAccount(reads[i] ?? null), taker));
}

async function decimalsOf(deps: NonceOrderDeps, mints: readonly (string | null)[]): Promise<(mint: string) => number> {
  const wanted = [...new Set(mints.filter((m): m is string => m !== null))];
  const found = await deps.chain.getMints(wanted.map((m) => new PublicKey(m)));
  const fields = ["inputMint", "outputMint", "priceMint"];
  mints.forEach((m, i) => {
    if (m !== null && !found.get(m)) throw new ValidationError(fields[i], "mint", `${m} is not a token mint`);
  });
  return (mint) => found.get(mint)!.decimals;
}

/** The answer to a request without nonce accounts: their creation. */
async function nonceCreationAnswer(deps: NonceOrderDeps, request: ParsedCreateNonceOrder): Promise<CreateNonceOrderResult> {
  const created = await nonceAccountsToCreate(deps.chain, request.taker, request.noncesNeeded);
  return {
    orderId: "",
    nonceAccount: created.nonceAccounts[0],
    nonceAccountTransaction: created.transactions.length === 1 ? created.transactions[0] : null,
    nonceAccounts: created.nonceAccounts,
    nonceAccountTransactions: created.transactions,
    legs: [],
    currentOutAmount: 0n,
    pricedBy: null,
    cancelTransaction: null,
    expiresAt: request.expiresAt,
  };
}

/** Every planned order's legs issued on its nonce, and its row. */
async function issueOrders(
  deps: NonceOrderDeps,
  request: ParsedCreateNonceOrder,
  plan: PlannedGroup,
  priced: readonly PricedOrder[],
  nonces: readonly NonceState[],
  caller: OrderCaller,
): Promise<{ ids: string[]; legs: IssuedLegTransaction[]; rows: NewNonceOrder[] }> {
  // A secret per request: its legs' messages cannot be rebuilt by anyone who was not given them.
  const secret = new Uint8Array(randomBytes(ORDER_SECRET_BYTES));
  const taker = new PublicKey(request.taker);
  const ids = plan.orders.map(() => randomUUID());
  const legs: IssuedLegTransaction[] = [];
  const rows: NewNonceOrder[] = [];
  for (const [i, order] of plan.orders.entries()) {
    const nonceAccount = request.nonceAccounts[i];
    const onNonce = { taker, nonceAccount: new PublicKey(nonceAccount), nonceValue: nonces[i].nonce, secret };
    const issued = await issueLegs(deps, request.taker, order, priced[i].routes, onNonce);
    legs.push(...issued.legs.map((l) => ({ ...l, orderId: ids[i], nonceAccount, amount: order.amount, notBefore: order.notBefore })));
    rows.push({
      orderId: ids[i],
      kind: order.kind,
      taker: request.taker,
      inputMint: order.inputMint,
      outputMint: order.outputMint,
      amount: order.amount,
      nonceAccount,
      nonceValue: nonces[i].nonce,
      trailBps: order.trailBps,
      ownerKey: caller.ownerKey,
      creator: caller.creator,
      groupId: plan.groupKind === null ? null : ids[0],
      groupKind: plan.groupKind,
      groupIndex: plan.groupKind === null ? null : i,
      afterOrder: order.after === null ? null : ids[order.after],
      notBefore: order.notBefore,
      expiresAt: request.expiresAt,
      priceMint: order.priceMint,
      legs: issued.stored,
    });
  }
  return { ids, legs, rows };
}

export function createNonceOrderOperation(deps: NonceOrderDeps) {
  return async function createNonceOrder(input: CreateNonceOrderInput, caller: OrderCaller): Promise<CreateNonceOrderResult> {
    const request = parseCreateNonceOrder(input, new Date(), { dcaMinIntervalS: deps.limits.dcaMinIntervalS });
    if (request.nonceAccounts.length === 0) return nonceCreationAnswer(deps, request);
    // Refused before any quote or build: a caller past its bound costs one count (checked again at the insert).
    if ((await deps.store.nonceOrders.pendingCount(caller.creator)) + request.noncesNeeded > deps.limits.pendingPerCaller)
      throw pendingBoundReached(deps.limits, caller);
    const nonces = await readNonces(deps, request.nonceAccounts, request.taker);
    const decimals = await decimalsOf(deps, [request.inputMint, request.outputMint, request.priceMint]);
    const plan = planOrders(request, decimals);
    const priced = await priceOrders(deps.engine, plan.orders, request.routesPerLeg);
    checkPlannedPrices(
      plan,
      priced.map((p) => ({ pairOut: p.pairOut, watchedOut: p.watched.outAmount })),
    );

    const { ids, legs, rows } = await issueOrders(deps, request, plan, priced, nonces, caller);
    if (!(await deps.store.transaction((stores) => stores.nonceOrders.create(rows, deps.limits.pendingPerCaller))))
      throw pendingBoundReached(deps.limits, caller);
    const cancel = nonceCancel(
      new PublicKey(request.taker),
      request.nonceAccounts.map((a, i) => ({ account: new PublicKey(a), value: nonces[i].nonce })),
    );
    const first = priced.findIndex((_, i) => plan.orders[i].priceMint !== null);
    return {
      orderId: ids[0],
      nonceAccount: request.nonceAccounts[0],
      nonceAccountTransaction: null,
      nonceAccounts: request.nonceAccounts,
      nonceAccountTransactions: [],
      legs,
      currentOutAmount: priced[0].pairOut,
      pricedBy: priced[first < 0 ? 0 : first].watched,
      cancelTransaction: cancel.transaction,
      expiresAt: request.expiresAt,
    };
  };
}
