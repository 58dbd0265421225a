import { Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import type { AddressLookupTableAccount, PublicKey, TransactionInstruction } from "@solana/web3.js";

/** Solana's limit of a serialized transaction (IPv6 MTU minus headers): one packet. */
export const MAX_TRANSACTION_BYTES = 1232;

export interface TransactionMessageOptions {
  /** A legacy message instead of v0 (lookup tables are then ignored: legacy cannot use them). */
  readonly legacy?: boolean;
  /** v0 only: tables whose addresses the message may load instead of listing them. */
  readonly lookupTables?: readonly AddressLookupTableAccount[];
}

/**
 * Compiles instructions into an unsigned transaction (signature slots zero-filled). Pure: the
 * blockhash comes from the caller. Legacy messages use web3.js `Transaction` key ordering, v0
 * messages `TransactionMessage`'s; both reproduce Jupiter-built transactions byte for byte.
 */
export function compileUnsignedTransaction(
  instructions: readonly TransactionInstruction[],
  feePayer: PublicKey,
  recentBlockhash: string,
  options: TransactionMessageOptions = {},
): VersionedTransaction {
  const message = options.legacy
    ? new Transaction({ feePayer, recentBlockhash }).add(...instructions).compileMessage()
    : new TransactionMessage({ payerKey: feePayer, recentBlockhash, instructions: [...instructions] }).compileToV0Message([...(options.lookupTables ?? [])]);
  return new VersionedTransaction(message);
}

/** An unsigned transaction as handed to a signer. */
export interface CompiledTransaction {
  /** Wire bytes with every signature slot zero-filled (unsigned), as Jupiter returns them. */
  readonly transaction: Uint8Array;
  /** The serialized message: what signers sign (and what Execute compares against). */
  readonly message: Uint8Array;
  /** Required signers, in signature-slot order (fee payer first). */
  readonly signers: readonly PublicKey[];
}

/** `compileUnsignedTransaction`, in the bytes a signer receives. */
export function compileTransaction(
  instructions: readonly TransactionInstruction[],
  feePayer: PublicKey,
  recentBlockhash: string,
  options: TransactionMessageOptions = {},
): CompiledTransaction {
  const transaction = compileUnsignedTransaction(instructions, feePayer, recentBlockhash, options);
  const { message } = transaction;
  return {
    transaction: transaction.serialize(),
    message: message.serialize(),
    signers: message.staticAccountKeys.slice(0, message.header.numRequiredSignatures),
  };
}
