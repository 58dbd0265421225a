/**
 * The checks of a nonce order that need what the chain says (read by the API, judged here): the
 * nonce account, the side of each trigger against the current price, each floor against its
 * trigger, the signer of each signed leg, the taker's balance at arming. Each failure is a
 * ValidationError naming the field and the rule; nothing is stored before they pass.
 */
import type { PublicKey } from "@solana/web3.js";
import { ValidationError } from "../validation-error.js";
import type { NonceState } from "../solana/durable-nonce.js";
import { trailingLevel } from "./order.js";
import type { LegSpec } from "./order.js";

export function checkNonceAccount(field: string, address: string, state: NonceState | null, taker: string): NonceState {
  if (state === null) {
    throw new ValidationError(field, "nonce_account", `${address} is not an initialized nonce account (System program owner, 80 bytes)`);
  }
  if (state.authority.toBase58() !== taker) {
    throw new ValidationError(field, "nonce_authority", `must have the taker ${taker} as its nonce authority; its authority is ${state.authority.toBase58()}`);
  }
  return state;
}

const LEG_FIELD: Record<LegSpec["kind"], string> = {
  take_profit: "takeProfit",
  stop_loss: "stopLoss",
  trailing_stop: "trailing",
  entry: "entry",
  dca_round: "dca",
};

/**
 * Each leg against the order's current output (`currentOut`, what `amount` fetches now of the mint
 * its triggers are watched in): a take-profit (or an OTOCO's entry) above it, a stop-loss below it,
 * every floor at or under its trigger (a trailing stop's floor at or under the trailing level of
 * the current price). `toOutput`: with prices in another mint than the output (a price mint), a
 * watched amount as the output it stands for at today's cross rate — a floor above that could
 * only be paid if the output's own price moved the taker's way.
 */
export function checkLegsAgainstPrice(
  legs: readonly LegSpec[],
  currentOut: bigint,
  trailBps: number | null,
  toOutput: (watched: bigint) => bigint = (w) => w,
  reference = "the current price",
): void {
  for (const leg of legs) {
    const field = LEG_FIELD[leg.kind];
    if ((leg.kind === "take_profit" || leg.kind === "entry") && leg.triggerOutAmount! <= currentOut) {
      throw new ValidationError(
        `${field}.price`,
        "trigger_side",
        `must be above ${reference} (the amount fetches ${currentOut} there; the trigger is ${leg.triggerOutAmount})`,
      );
    }
    if (leg.kind === "stop_loss" && leg.triggerOutAmount! >= currentOut) {
      throw new ValidationError(
        `${field}.price`,
        "trigger_side",
        `must be below ${reference} (the amount fetches ${currentOut} there; the trigger is ${leg.triggerOutAmount})`,
      );
    }
    if (leg.kind === "dca_round") continue; // A band may lie away from today's price: the round waits for it.
    const ceiling = toOutput(leg.kind === "trailing_stop" ? trailingLevel(currentOut, trailBps!) : leg.triggerOutAmount!);
    if (leg.minOutAmount > ceiling) {
      throw new ValidationError(
        `${field}.minOutAmount`,
        "floor_above_trigger",
        leg.kind === "trailing_stop"
          ? `must not exceed the trailing level of the current price (${ceiling})`
          : `must not exceed the trigger's output amount (${ceiling}): a leg that fires there could never pay it`,
      );
    }
  }
}

/**
 * A signed leg (or cancel) must be signed by the order's taker alone (fee payer and only signer).
 * The message names no key: whoever asks learns nothing of the order's taker from it.
 */
export function checkLegSigner(field: string, signers: readonly PublicKey[], taker: string): void {
  const first = signers[0]?.toBase58();
  if (first !== taker || signers.length !== 1) {
    throw new ValidationError(field, "signer", "must be signed by the order's taker alone (the fee payer and only signer)");
  }
}

/**
 * The proof of a cancel: the order's own cancel transaction (nonce-trigger/transactions.ts
 * `nonceCancel`: the AdvanceNonceAccount of its nonce account, on its nonce value), byte for byte,
 * signed by the taker alone. Only the taker's key can make it, and once it lands no leg can.
 */
export function checkCancelTransaction(field: string, message: Uint8Array, expected: Uint8Array, signers: readonly PublicKey[], taker: string): void {
  if (!Buffer.from(message).equals(Buffer.from(expected))) {
    throw new ValidationError(
      field,
      "cancel_transaction",
      "must be this order's cancel transaction as CancelOrder returns it (AdvanceNonceAccount of the order's nonce account, its nonce value as blockhash), signed",
    );
  }
  checkLegSigner(field, signers, taker);
}

/** At arming, the taker must hold the order's amount of its input. */
export function checkBalance(held: bigint, amount: bigint, inputMint: string): void {
  if (held < amount) {
    throw new ValidationError("amount", "balance", `the taker holds ${held} of ${inputMint}, less than the order's ${amount}`);
  }
}
