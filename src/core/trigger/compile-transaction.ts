import { Transaction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";

export interface CompiledTransaction {
  /** Wire bytes with every signature slot zero-filled (unsigned), as Jupiter returns them. */
  readonly transaction: Uint8Array;
  /** The serialized message: what signers sign and what Execute compares against. */
  readonly message: Uint8Array;
  /** Required signers, in signature-slot order (fee payer first). */
  readonly signers: readonly PublicKey[];
}

export interface CompileTransactionOptions {
  /** Legacy message instead of v0 (no lookup tables either way). */
  readonly legacy?: boolean;
}

/**
 * Compiles instructions into an unsigned transaction. Pure: the blockhash comes from the caller.
 * Legacy messages use web3.js `Transaction` key ordering, v0 messages `TransactionMessage`'s;
 * both reproduce Jupiter-built transactions byte for byte.
 */
export function compileTransaction(
  instructions: readonly TransactionInstruction[],
  feePayer: PublicKey,
  recentBlockhash: string,
  options: CompileTransactionOptions = {},
): CompiledTransaction {
  const message = options.legacy
    ? new Transaction({ feePayer, recentBlockhash }).add(...instructions).compileMessage()
    : new TransactionMessage({ payerKey: feePayer, recentBlockhash, instructions: [...instructions] }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  return {
    transaction: transaction.serialize(),
    message: message.serialize(),
    signers: message.staticAccountKeys.slice(0, message.header.numRequiredSignatures),
  };
}
