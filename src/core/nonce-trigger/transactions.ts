/**
 * The transactions of a nonce order (pure): the nonce account's creation, one swap per leg route
 * on the nonce (AdvanceNonceAccount first, the order's secret memo, the nonce value as blockhash,
 * the floor as the swap's minimum out), and the taker's cancel (an AdvanceNonceAccount alone, also
 * on the nonce: valid until the nonce moves, and the same bytes for every caller).
 */
import bs58 from "bs58";
import { TransactionInstruction } from "@solana/web3.js";
import type { AddressLookupTableAccount, PublicKey } from "@solana/web3.js";
import type { QuoteInput } from "../swap/request.js";
import { orderedInstructions } from "../swap/assemble.js";
import type { InstructionGroups } from "../swap/assemble.js";
import { compileTransaction } from "../solana/transaction-message.js";
import type { CompiledTransaction } from "../solana/transaction-message.js";
import { advanceNonceInstruction, createNonceAccountInstructions } from "../solana/durable-nonce.js";
import { MEMO_PROGRAM_ID } from "../solana/programs.js";

/** Bytes of an order's secret: 128 bits, so a leg's message cannot be guessed from public facts. */
export const ORDER_SECRET_BYTES = 16;

/**
 * The memo that makes an order's leg messages its own. Without it a leg's message follows from
 * public facts (taker, nonce value, route, floor), and ed25519 signatures are deterministic: anyone
 * who rebuilt the message could complete it with a signature seen anywhere. With it, a leaked
 * signature alone completes nothing.
 */
export function orderSecretMemo(secret: Uint8Array): TransactionInstruction {
  return new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: Buffer.from(`swapd:${bs58.encode(secret)}`, "utf8") });
}

/**
 * A route's quote turned into a leg's: the Jupiter program pays at least
 * quotedOutAmount × (10 000 − slippageBps) / 10 000, so quoting the floor with no slippage makes
 * the floor the swap's exact minimum out.
 */
export function legQuote(route: QuoteInput, minOutAmount: bigint): QuoteInput {
  return { ...route, outAmount: minOutAmount.toString(), otherAmountThreshold: minOutAmount.toString(), slippageBps: 0 };
}

export interface LegOnNonce {
  readonly taker: PublicKey;
  readonly nonceAccount: PublicKey;
  readonly nonceValue: string;
  /** The order's secret (orderSecretMemo). */
  readonly secret: Uint8Array;
  readonly lookupTables: readonly AddressLookupTableAccount[];
}

export function nonceLegTransaction(groups: InstructionGroups & { readonly asLegacyTransaction: boolean }, leg: LegOnNonce): CompiledTransaction {
  const instructions = [advanceNonceInstruction(leg.nonceAccount, leg.taker), orderSecretMemo(leg.secret), ...orderedInstructions(groups)];
  return compileTransaction(instructions, leg.taker, leg.nonceValue, { legacy: groups.asLegacyTransaction, lookupTables: leg.lookupTables });
}

/** The creation of nonce accounts (seeds `seeds`, authority and payer: the taker) in one transaction. */
export function nonceAccountCreation(taker: PublicKey, seeds: readonly string[], blockhash: string): CompiledTransaction {
  return compileTransaction(
    seeds.flatMap((seed) => createNonceAccountInstructions(taker, seed, taker)),
    taker,
    blockhash,
  );
}

/**
 * The taker's cancel: AdvanceNonceAccount of each of the orders' nonces (one order: its nonce
 * alone), as a durable-nonce transaction on the first (its value as blockhash). Once it lands no
 * leg signed on those values can land; it cannot expire before the first order's legs (it is valid
 * exactly as long as they are); and it is fully determined by the orders, so the signed copy a
 * taker hands in is checked byte for byte against it.
 */
export function nonceCancel(taker: PublicKey, nonces: readonly { readonly account: PublicKey; readonly value: string }[]): CompiledTransaction {
  return compileTransaction(
    nonces.map((n) => advanceNonceInstruction(n.account, taker)),
    taker,
    nonces[0].value,
    { legacy: true },
  );
}
