/**
 * Arm: the signed leg transactions of an issued nonce order, each checked against what CreateOrder
 * issued (same message, signed by the taker alone, valid signature), every issued route present,
 * the nonce unchanged and the amount held by the taker; then the order is armed and the keeper
 * watches it. Any failure names the field and the rule, and nothing is stored.
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
import type { NonceOrderDeps } from "./create-nonce-order.js";
import { findOrder } from "./order-caller.js";
import type { OrderCaller } from "./order-caller.js";

export interface ArmInput {
  readonly orderId?: unknown;
  readonly signedTransactions?: readonly Uint8Array[];
}

/** Token amount of an SPL token account (offset 64, u64 LE); 0 when it does not exist. */
function tokenAmount(data: Uint8Array | undefined): bigint {
  return data && data.length >= 72 ? Buffer.from(data).readBigUInt64LE(64) : 0n;
}

function checkedLegs(order: StoredNonceOrder, wires: readonly Uint8Array[]): ArmedLeg[] {
  const armed = new Map<string, { wire: Uint8Array; signature: string }>();
  wires.forEach((wire, i) => {
    const field = `signedTransactions[${i}]`;
    const tx = parseSignedTransaction(field, wire);
    checkLegSigner(field, tx.signers, order.taker);
    const hash = transactionMessageHash(tx.message);
    if (!order.legs.some((l) => l.messageHash === hash)) {
      throw new ValidationError(field, "issued", "is not a leg transaction issued for this order (its message differs from every issued one)");
    }
    checkSignatures(field, tx, () => "the order's taker");
    armed.set(hash, { wire, signature: transactionSignature(tx) });
  });
  const missing = order.legs.filter((l) => !armed.has(l.messageHash));
  if (missing.length > 0) {
    throw new ValidationError(
      "signedTransactions",
      "complete",
      `must carry every issued leg route; missing ${missing.map((l) => `leg ${l.legIndex} route ${l.routeIndex}`).join(", ")}`,
    );
  }
  // Legs with the same floor and route are the same transaction: one signed copy arms them all.
  return order.legs.map((l) => {
    const signed = armed.get(l.messageHash)!;
    return { legIndex: l.legIndex, routeIndex: l.routeIndex, signedTransaction: signed.wire, signature: signed.signature };
  });
}

export function armNonceOrderOperation(deps: NonceOrderDeps & { readonly onArmed: () => void }) {
  return async function armNonceOrder(input: ArmInput, caller: OrderCaller): Promise<StoredNonceOrder> {
    const order = await findOrder(deps.store, input.orderId, caller);
    if (order.status !== "issued") throw new ValidationError("orderId", "state", `the order is ${order.status}; only an issued order can be armed`);
    if (order.cancelRequested) throw new ValidationError("orderId", "state", "the order's taker cancelled it; create a new one");
    if (Date.now() - order.createdAt.getTime() > deps.limits.armWithinMs) {
      throw new ValidationError(
        "orderId",
        "arm_window",
        `was issued more than ${Math.round(deps.limits.armWithinMs / 1000)} s ago and lapsed; create it again`,
      );
    }
    const legs = checkedLegs(order, input.signedTransactions ?? []);
    const taker = new PublicKey(order.taker);
    const inputMint = new PublicKey(order.inputMint);
    const native = inputMint.equals(NATIVE_MINT);
    const mint = native ? null : (await deps.chain.getMints([inputMint])).get(order.inputMint);
    const holding = native ? taker : associatedTokenAddress(taker, inputMint, mint!.programId);
    const [nonceRead, held] = await deps.chain.getMultipleAccounts([new PublicKey(order.nonceAccount), holding]);
    if (decodeNonceAccount(nonceRead ?? null)?.nonce !== order.nonceValue) {
      throw new ValidationError(
        "orderId",
        "nonce_advanced",
        `the nonce account ${order.nonceAccount} advanced since the order was created; create the order again`,
      );
    }
    checkBalance(native ? (held?.lamports ?? 0n) : tokenAmount(held?.data), order.amount, order.inputMint);
    let peak: bigint | null = null;
    if (order.kind === "trailing") {
      const { response } = await deps.engine.quote({ inputMint: order.inputMint, outputMint: order.outputMint, amount: order.amount.toString() });
      peak = BigInt(response.outAmount);
    }
    if ((await deps.store.nonceOrders.activeCount(order.taker)) >= deps.limits.activePerTaker) {
      throw new ValidationError(
        "orderId",
        "active_per_taker",
        `the taker has ${deps.limits.activePerTaker} armed orders already (the bound per taker); cancel one or wait for one to finish`,
        "LIMIT_REACHED",
      );
    }
    try {
      if (!(await deps.store.transaction((stores) => stores.nonceOrders.arm(order.orderId, legs, peak))))
        throw new ValidationError("orderId", "state", "the order is no longer issued");
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
    deps.onArmed();
    return (await deps.store.nonceOrders.find(order.orderId))!;
  };
}
