/**
 * Arm: the signed leg transactions of an issued nonce order, each checked against what CreateOrder
 * issued (same message, signed by the taker alone, valid signature), every issued route present,
 * the nonce unchanged and the amount held by the taker; then the order is armed and the keeper
 * watches it. An OTOCO's or a DCA's orders are armed together: every leg route of every order of
 * the group, each nonce unchanged, and what the group sells held by the taker (the OTOCO's entry
 * amount — its take-profit and stop-loss sell what the entry buys — or the DCA's whole amount).
 * Any failure names the field and the rule, and nothing is stored.
 */
import { PublicKey } from "@solana/web3.js";
import { checkBalance, checkLegSigner } from "../../core/nonce-trigger/validate.js";
import { decodeNonceAccount } from "../../core/solana/durable-nonce.js";
import { NATIVE_MINT } from "../../core/solana/programs.js";
import { associatedTokenAddress } from "../../core/solana/token-accounts.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import { ValidationError } from "../../core/validation-error.js";
import type { ArmedLeg, StoredNonceOrder } from "../../store/index.js";
import { checkSignatures, parseSignedTransaction, transactionSignature } from "../../landing/index.js";
import type { SignedTransaction } from "../../landing/index.js";
import type { NonceOrderDeps } from "./create-nonce-order.js";
import { findOrder } from "./order-caller.js";
import { CancelRaced, checkedCancel, pendingCancel, recordCancelIn, sendTakerCancel } from "./taker-cancel.js";
import type { CancelSendDeps } from "./taker-cancel.js";
import type { OrderCaller } from "./order-caller.js";

export interface ArmInput {
  readonly orderId?: unknown;
  readonly signedTransactions?: readonly Uint8Array[];
  /** An edit: the order this one replaces, and its cancel signed by the taker. */
  readonly replacesOrderId?: unknown;
  readonly replacedCancel?: Uint8Array | undefined;
}

export interface ArmDeps extends NonceOrderDeps, CancelSendDeps {
  readonly onArmed: () => void;
}

/** An edit's replaced order: its pending orders and its taker's signed cancel (checked). */
interface Replacement {
  readonly order: StoredNonceOrder;
  readonly pending: readonly StoredNonceOrder[];
  readonly tx: SignedTransaction;
  readonly signature: string;
}

async function replacementOf(deps: ArmDeps, input: ArmInput, caller: OrderCaller, orders: readonly StoredNonceOrder[]): Promise<Replacement | null> {
  if (input.replacesOrderId === undefined || input.replacesOrderId === null || input.replacesOrderId === "") return null;
  const old = await findOrder(deps.store, input.replacesOrderId, caller, "replacesOrderId");
  if (old.taker !== orders[0].taker) throw new ValidationError("replacesOrderId", "taker", "must be an order of the same taker");
  if (orders.some((o) => o.orderId === old.orderId || (old.groupId !== null && o.groupId === old.groupId)))
    throw new ValidationError("replacesOrderId", "distinct", "must be another order than the one armed");
  const expected = await pendingCancel(deps.store, old, "replacesOrderId");
  const voided = new Set(expected.pending.map((o) => o.nonceAccount));
  const shared = orders.find((o) => voided.has(o.nonceAccount));
  if (shared !== undefined) {
    throw new ValidationError(
      "orderId",
      "nonce_in_use",
      `uses the nonce account ${shared.nonceAccount} of the order it replaces, whose cancel advances it: create the new order on another nonce account`,
    );
  }
  if (input.replacedCancel === undefined || input.replacedCancel.length === 0) {
    throw new ValidationError(
      "replacedCancel",
      "required",
      "is required with replacesOrderId: the replaced order's cancel transaction (as CancelOrder returns it), signed by the taker",
    );
  }
  const { tx, signature } = checkedCancel("replacedCancel", input.replacedCancel, expected, old.taker);
  return { order: old, pending: expected.pending, tx, signature };
}

/** Token amount of an SPL token account (offset 64, u64 LE); 0 when it does not exist. */
function tokenAmount(data: Uint8Array | undefined): bigint {
  return data && data.length >= 72 ? Buffer.from(data).readBigUInt64LE(64) : 0n;
}

function checkedLegs(orders: readonly StoredNonceOrder[], wires: readonly Uint8Array[]): Map<string, ArmedLeg[]> {
  const order = orders[0];
  const issued = new Set(orders.flatMap((o) => o.legs.map((l) => l.messageHash)));
  const armed = new Map<string, { wire: Uint8Array; signature: string }>();
  wires.forEach((wire, i) => {
    const field = `signedTransactions[${i}]`;
    const tx = parseSignedTransaction(field, wire);
    checkLegSigner(field, tx.signers, order.taker);
    const hash = transactionMessageHash(tx.message);
    if (!issued.has(hash)) {
      throw new ValidationError(field, "issued", "is not a leg transaction issued for this order (its message differs from every issued one)");
    }
    checkSignatures(field, tx, () => "the order's taker");
    armed.set(hash, { wire, signature: transactionSignature(tx) });
  });
  const missing = orders.flatMap((o) =>
    o.legs.filter((l) => !armed.has(l.messageHash)).map((l) => (orders.length === 1 ? "" : `order ${o.orderId} `) + `leg ${l.legIndex} route ${l.routeIndex}`),
  );
  if (missing.length > 0) {
    throw new ValidationError("signedTransactions", "complete", `must carry every issued leg route; missing ${missing.join(", ")}`);
  }
  // Legs with the same floor and route are the same transaction: one signed copy arms them all.
  return new Map(
    orders.map((o) => [
      o.orderId,
      o.legs.map((l) => {
        const signed = armed.get(l.messageHash)!;
        return { legIndex: l.legIndex, routeIndex: l.routeIndex, signedTransaction: signed.wire, signature: signed.signature };
      }),
    ]),
  );
}

/** What the orders sell out of the taker's holdings: the first order's input (an OTOCO's take-profit / stop-loss sell what its entry buys). */
function amountHeld(orders: readonly StoredNonceOrder[]): bigint {
  return orders.filter((o) => o.inputMint === orders[0].inputMint).reduce((sum, o) => sum + o.amount, 0n);
}

/** Every order's nonce still holds the value its legs were built on, and the taker holds what the orders sell. */
async function checkNoncesAndHoldings(deps: NonceOrderDeps, orders: readonly StoredNonceOrder[]): Promise<void> {
  const order = orders[0];
  const taker = new PublicKey(order.taker);
  const inputMint = new PublicKey(order.inputMint);
  const native = inputMint.equals(NATIVE_MINT);
  const mint = native ? null : (await deps.chain.getMints([inputMint])).get(order.inputMint);
  const holding = native ? taker : associatedTokenAddress(taker, inputMint, mint!.programId);
  const reads = await deps.chain.getMultipleAccounts([holding, ...orders.map((o) => new PublicKey(o.nonceAccount))]);
  const held = reads[0];
  orders.forEach((o, i) => {
    if (decodeNonceAccount(reads[i + 1] ?? null)?.nonce !== o.nonceValue) {
      throw new ValidationError(
        "orderId",
        "nonce_advanced",
        `the nonce account ${o.nonceAccount} advanced since the order was created; create the order again`,
      );
    }
  });
  checkBalance(native ? (held?.lamports ?? 0n) : tokenAmount(held?.data), amountHeld(orders), order.inputMint);
}

/** Arms every order of the group in one store transaction (all or none), recording an edit's cancel of the replaced order in it. */
async function armAll(
  deps: NonceOrderDeps,
  orders: readonly StoredNonceOrder[],
  legs: Map<string, ArmedLeg[]>,
  peak: bigint | null,
  replacing: Replacement | null,
): Promise<void> {
  const order = orders[0];
  try {
    const armed = await deps.store
      .transaction(async (stores) => {
        if (replacing !== null) await recordCancelIn(stores, replacing.pending, replacing.signature);
        for (const o of orders) {
          // One refused (another Arm came first): the whole group is rolled back.
          if (!(await stores.nonceOrders.arm(o.orderId, legs.get(o.orderId)!, o === order ? peak : null))) throw new ArmRaced();
        }
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof ArmRaced) return false;
        if (error instanceof CancelRaced)
          throw new ValidationError("replacesOrderId", "state", "the replaced order was sent or ended meanwhile; nothing was armed");
        throw error;
      });
    if (!armed) throw new ValidationError("orderId", "state", "the order is no longer issued");
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    // The one-active-order-per-nonce index: another armed order uses this nonce account.
    if (/nonce_orders_one_active_per_nonce/.test(String((error as Error).message))) {
      throw new ValidationError(
        "orderId",
        "nonce_in_use",
        `another armed order uses the nonce account ${order.nonceAccount}; cancel it or use another nonce account`,
      );
    }
    throw error;
  }
}

/** Thrown inside the store transaction to roll back a group armed in part. */
class ArmRaced extends Error {}

export function armNonceOrderOperation(deps: ArmDeps) {
  return async function armNonceOrder(
    input: ArmInput,
    caller: OrderCaller,
  ): Promise<{ order: StoredNonceOrder; group: StoredNonceOrder[]; replaced: StoredNonceOrder | null }> {
    const asked = await findOrder(deps.store, input.orderId, caller);
    const orders = asked.groupId === null ? [asked] : await deps.store.nonceOrders.group(asked.groupId);
    const order = orders[0];
    if (order.status !== "issued") throw new ValidationError("orderId", "state", `the order is ${order.status}; only an issued order can be armed`);
    if (order.cancelRequested) throw new ValidationError("orderId", "state", "the order's taker cancelled it; create a new one");
    if (Date.now() - order.createdAt.getTime() > deps.limits.armWithinMs) {
      throw new ValidationError(
        "orderId",
        "arm_window",
        `was issued more than ${Math.round(deps.limits.armWithinMs / 1000)} s ago and lapsed; create it again`,
      );
    }
    if (orders.some((o) => o.status !== "issued")) throw new ValidationError("orderId", "state", "an order of the group is no longer issued");
    const legs = checkedLegs(orders, input.signedTransactions ?? []);
    const replacing = await replacementOf(deps, input, caller, orders);
    await checkNoncesAndHoldings(deps, orders);
    let peak: bigint | null = null;
    if (order.kind === "trailing") {
      const { response } = await deps.engine.quote({ inputMint: order.inputMint, outputMint: order.outputMint, amount: order.amount.toString() });
      peak = BigInt(response.outAmount);
    }
    if ((await deps.store.nonceOrders.activeCount(order.taker)) + orders.length > deps.limits.activePerTaker) {
      throw new ValidationError(
        "orderId",
        "active_per_taker",
        `the taker has ${deps.limits.activePerTaker} armed orders already (the bound per taker); cancel one or wait for one to finish`,
        "LIMIT_REACHED",
      );
    }
    await armAll(deps, orders, legs, peak, replacing);
    deps.onArmed();
    // The replaced order's cancel is recorded with the arming (no replica sends its legs from now on); now it is sent.
    if (replacing !== null) await sendTakerCancel(deps, replacing.tx, replacing.signature, replacing.order.orderId);
    return {
      order: (await deps.store.nonceOrders.find(asked.orderId))!,
      group: asked.groupId === null ? [] : await deps.store.nonceOrders.group(asked.groupId),
      replaced: replacing === null ? null : await deps.store.nonceOrders.find(replacing.order.orderId),
    };
  };
}
