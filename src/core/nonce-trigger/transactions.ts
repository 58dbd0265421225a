/**
 * The transactions of a nonce order (pure): the nonce account's creation, one swap per leg route
 * on the nonce (AdvanceNonceAccount first, the nonce value as blockhash, the floor as the swap's
 * minimum out), and the taker's cancel (an AdvanceNonceAccount alone).
 */
import type { PublicKey } from "@solana/web3.js";
import type { AddressLookupTableAccount } from "@solana/web3.js";
import type { QuoteInput } from "../swap/request.js";
import { orderedInstructions } from "../swap/assemble.js";
import type { InstructionGroups } from "../swap/assemble.js";
import { compileTransaction } from "../solana/transaction-message.js";
import type { CompiledTransaction } from "../solana/transaction-message.js";
import { advanceNonceInstruction, createNonceAccountInstructions } from "../solana/durable-nonce.js";

/**
 * A route's quote turned into a leg's: the Jupiter program pays at least
 * quotedOutAmount × (10 000 − slippageBps) / 10 000, so quoting the floor with no slippage makes
 * the floor the swap's exact minimum out.
 */
export function legQuote(route: QuoteInput, minOutAmount: bigint): QuoteInput {
  return { ...route, outAmount: minOutAmount.toString(), otherAmountThreshold: minOutAmount.toString(), slippageBps: 0 };
}

export function nonceLegTransaction(
  groups: InstructionGroups & { readonly asLegacyTransaction: boolean },
  taker: PublicKey,
  nonceAccount: PublicKey,
  nonceValue: string,
  lookupTables: readonly AddressLookupTableAccount[],
): CompiledTransaction {
  return compileTransaction([advanceNonceInstruction(nonceAccount, taker), ...orderedInstructions(groups)], taker, nonceValue, {
    legacy: groups.asLegacyTransaction,
    lookupTables,
  });
}

export function nonceAccountCreation(taker: PublicKey, seed: string, blockhash: string): CompiledTransaction {
  return compileTransaction(createNonceAccountInstructions(taker, seed, taker), taker, blockhash);
}

/** The taker's cancel: advancing the nonce makes every leg signed on it unlandable. */
export function nonceCancel(taker: PublicKey, nonceAccount: PublicKey, blockhash: string): CompiledTransaction {
  return compileTransaction([advanceNonceInstruction(nonceAccount, taker)], taker, blockhash);
}
