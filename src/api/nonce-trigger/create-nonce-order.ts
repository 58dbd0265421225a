/**
 * CreateOrder of nonce orders: without a nonce account, the unsigned creation of one (its value is
 * made when it lands, and the legs need it); with one, the order's legs — for each leg, up to
 * `routesPerLeg` routes of swapd's own quote (each next route avoids the AMMs of the ones before),
 * each compiled on the nonce with the floor as its minimum out — recorded as `issued`.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { parseCreateNonceOrder, triggerOutAmount } from "../../core/nonce-trigger/create-request.js";
import type { CreateNonceOrderInput, ParsedCreateNonceOrder } from "../../core/nonce-trigger/create-request.js";
import { outAmountAt } from "../../core/nonce-trigger/order.js";
import type { LegSpec } from "../../core/nonce-trigger/order.js";
import { legQuote, nonceAccountCreation, nonceLegTransaction, ORDER_SECRET_BYTES } from "../../core/nonce-trigger/transactions.js";
import type { LegOnNonce } from "../../core/nonce-trigger/transactions.js";
import { checkLegsAgainstPrice, checkNonceAccount } from "../../core/nonce-trigger/validate.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { decodeNonceAccount, nonceAccountAddress, nonceAccountSeed } from "../../core/solana/durable-nonce.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import { ValidationError } from "../../core/validation-error.js";
import type { Store } from "../../store/index.js";
import type { NewNonceOrder } from "../../store/index.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import { MAX_TRANSACTION_BYTES } from "../../core/solana/transaction-message.js";
import { TransactionTooLargeError } from "../../core/swap/transaction-too-large-error.js";
import type { SwapInstructionsOperation } from "../swap/swap-instructions.js";
import type { OrderCaller } from "./order-caller.js";

/** Seeds tried for a taker's new nonce account (the first free one is used). */
const NONCE_SEEDS_TRIED = 8;

export interface IssuedLegTransaction {
  readonly kind: LegSpec["kind"];
  readonly legIndex: number;
  readonly routeIndex: number;
  readonly transaction: Uint8Array;
  readonly triggerOutAmount: bigint | null;
  readonly minOutAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly routeLabel: string;
}

export interface CreateNonceOrderResult {
  readonly orderId: string;
  readonly nonceAccount: string;
  readonly nonceAccountTransaction: Uint8Array | null;
  readonly legs: readonly IssuedLegTransaction[];
  readonly currentOutAmount: bigint;
}

/** The bounds of nonce orders (config NONCE_*). */
export interface NonceOrderLimits {
  /** Issued orders not armed yet per caller. */
  readonly pendingPerCaller: number;
  /** Armed or triggered orders per taker. */
  readonly activePerTaker: number;
  /** How long an issued order may wait to be armed. */
  readonly armWithinMs: number;
}

export const DEFAULT_NONCE_ORDER_LIMITS: NonceOrderLimits = { pendingPerCaller: 200, activePerTaker: 100, armWithinMs: 600_000 };

export interface NonceOrderDeps {
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly engine: Pick<QuoteEngine, "quote">;
  readonly swapInstructions: SwapInstructionsOperation;
  readonly limits: NonceOrderLimits;
}

function routeLabel(quote: QuoteResponseJson): string {
  return quote.routePlan.map((s) => s.swapInfo.label).join(" + ");
}

async function newNonceAccount(deps: NonceOrderDeps, order: ParsedCreateNonceOrder): Promise<CreateNonceOrderResult> {
  const taker = new PublicKey(order.taker);
  const seeds = Array.from({ length: NONCE_SEEDS_TRIED }, (_, i) => nonceAccountSeed(i));
  const accounts = await deps.chain.getMultipleAccounts(seeds.map((seed) => nonceAccountAddress(taker, seed)));
  const free = accounts.findIndex((a) => a === null);
  if (free < 0) throw new ValidationError("nonceAccount", "required", `the taker has ${NONCE_SEEDS_TRIED} swapd nonce accounts already; give one of them`);
  const { blockhash } = await deps.chain.getLatestBlockhash();
  const compiled = nonceAccountCreation(taker, seeds[free], blockhash);
  return {
    orderId: "",
    nonceAccount: nonceAccountAddress(taker, seeds[free]).toBase58(),
    nonceAccountTransaction: compiled.transaction,
    legs: [],
    currentOutAmount: 0n,
  };
}

/** Up to `count` routes of the amount, each avoiding the AMM labels of the ones before. */
async function routes(deps: NonceOrderDeps, order: ParsedCreateNonceOrder, count: number): Promise<QuoteResponseJson[]> {
  const found: QuoteResponseJson[] = [];
  const excluded = new Set<string>();
  for (let i = 0; i < count; i++) {
    try {
      const { response } = await deps.engine.quote({
        inputMint: order.inputMint,
        outputMint: order.outputMint,
        amount: order.amount.toString(),
        excludeDexes: [...excluded],
      });
      found.push(response);
      for (const step of response.routePlan) excluded.add(step.swapInfo.label);
    } catch (error) {
      if (i === 0) throw error;
      break; // No other route without the AMMs already used: fewer routes than asked (said by the answer's legs).
    }
  }
  return found;
}

function legSpecs(order: ParsedCreateNonceOrder, inDecimals: number, outDecimals: number): LegSpec[] {
  return order.legs.map((leg) => ({
    kind: leg.kind,
    triggerOutAmount: leg.price === null ? null : triggerOutAmount(leg.price, order.amount, inDecimals, outDecimals, leg.kind === "take_profit"),
    minOutAmount: leg.minOutAmount,
  }));
}

function pendingBoundReached(limits: NonceOrderLimits, caller: OrderCaller): ValidationError {
  return new ValidationError(
    "createOrder",
    "pending_per_caller",
    `this caller has ${limits.pendingPerCaller} orders waiting to be armed (the bound per ${caller.ownerKey === null ? "client address" : "API key"}); arm them or let them lapse (${Math.round(limits.armWithinMs / 1000)} s after creation) first`,
    "LIMIT_REACHED",
  );
}

/** Each leg's routes compiled on the nonce with the order's secret: what the caller gets and what is stored. */
async function issueLegs(
  deps: NonceOrderDeps,
  order: ParsedCreateNonceOrder,
  specs: readonly LegSpec[],
  found: readonly QuoteResponseJson[],
  onNonce: Omit<LegOnNonce, "lookupTables">,
): Promise<{ legs: IssuedLegTransaction[]; stored: NewNonceOrder["legs"][number][] }> {
  const legs: IssuedLegTransaction[] = [];
  const stored: NewNonceOrder["legs"][number][] = [];
  for (const [legIndex, spec] of specs.entries()) {
    for (const [routeIndex, route] of found.entries()) {
      const built = await deps.swapInstructions({
        userPublicKey: order.taker,
        quote: legQuote(route, spec.minOutAmount),
        wrapAndUnwrapSol: true,
        prioritization: { kind: "auto" },
      });
      const compiled = nonceLegTransaction(built, { ...onNonce, lookupTables: built.lookupTableAccounts });
      if (compiled.transaction.length > MAX_TRANSACTION_BYTES)
        throw new TransactionTooLargeError(compiled.transaction.length, built.lookupTableAccounts.length);
      const quotedOutAmount = BigInt(route.outAmount);
      const common = { kind: spec.kind, legIndex, routeIndex, triggerOutAmount: spec.triggerOutAmount, minOutAmount: spec.minOutAmount, quotedOutAmount };
      legs.push({ ...common, transaction: compiled.transaction, routeLabel: routeLabel(route) });
      stored.push({ ...common, message: compiled.message, messageHash: transactionMessageHash(compiled.message) });
    }
  }
  return { legs, stored };
}

export function createNonceOrderOperation(deps: NonceOrderDeps) {
  return async function createNonceOrder(input: CreateNonceOrderInput, caller: OrderCaller): Promise<CreateNonceOrderResult> {
    const order = parseCreateNonceOrder(input);
    if (order.nonceAccount === null) return newNonceAccount(deps, order);
    // Refused before any quote or build: a caller past its bound costs one count (checked again at the insert).
    if ((await deps.store.nonceOrders.pendingCount(caller.creator)) >= deps.limits.pendingPerCaller) throw pendingBoundReached(deps.limits, caller);
    const nonceKey = new PublicKey(order.nonceAccount);
    const [nonceRead] = await deps.chain.getMultipleAccounts([nonceKey]);
    const nonce = checkNonceAccount("nonceAccount", order.nonceAccount, decodeNonceAccount(nonceRead ?? null), order.taker);
    const mints = await deps.chain.getMints([new PublicKey(order.inputMint), new PublicKey(order.outputMint)]);
    const inMint = mints.get(order.inputMint);
    const outMint = mints.get(order.outputMint);
    if (!inMint) throw new ValidationError("inputMint", "mint", `${order.inputMint} is not a token mint`);
    if (!outMint) throw new ValidationError("outputMint", "mint", `${order.outputMint} is not a token mint`);
    const specs = legSpecs(order, inMint.decimals, outMint.decimals);
    const found = await routes(deps, order, order.routesPerLeg);
    const currentOutAmount = BigInt(found[0].outAmount);
    checkLegsAgainstPrice(specs, outAmountAt({ inAmount: order.amount, outAmount: currentOutAmount }, order.amount), order.trailBps);

    // A secret per order: its legs' messages cannot be rebuilt by anyone who was not given them.
    const secret = new Uint8Array(randomBytes(ORDER_SECRET_BYTES));
    const { legs, stored } = await issueLegs(deps, order, specs, found, {
      taker: new PublicKey(order.taker),
      nonceAccount: nonceKey,
      nonceValue: nonce.nonce,
      secret,
    });
    const orderId = randomUUID();
    const created = await deps.store.transaction((stores) =>
      stores.nonceOrders.create(
        {
          orderId,
          kind: order.kind,
          taker: order.taker,
          inputMint: order.inputMint,
          outputMint: order.outputMint,
          amount: order.amount,
          nonceAccount: order.nonceAccount!,
          nonceValue: nonce.nonce,
          trailBps: order.trailBps,
          ownerKey: caller.ownerKey,
          creator: caller.creator,
          legs: stored,
        },
        deps.limits.pendingPerCaller,
      ),
    );
    if (!created) throw pendingBoundReached(deps.limits, caller);
    return { orderId, nonceAccount: order.nonceAccount, nonceAccountTransaction: null, legs, currentOutAmount };
  };
}
