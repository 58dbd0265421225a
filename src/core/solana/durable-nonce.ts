/**
 * Durable nonces (System program): a nonce account holds a value that stands in for a recent
 * blockhash; a transaction whose first instruction is `AdvanceNonceAccount` on it, with that value
 * as its blockhash, stays valid until the nonce advances — and two transactions on one nonce can
 * never both land (the first advances it). Built with web3.js's SystemProgram, as the rest of core.
 */
import { createHash } from "node:crypto";
import { NONCE_ACCOUNT_LENGTH, NonceAccount, PublicKey, SystemProgram } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";

export { NONCE_ACCOUNT_LENGTH };

/** Rent-exempt minimum of a nonce account (80 bytes): (80 + 128) × 3480 × 2 lamports. */
export const NONCE_ACCOUNT_RENT_LAMPORTS = BigInt((NONCE_ACCOUNT_LENGTH + 128) * 3480 * 2);

/** The seed of a taker's n-th swapd nonce account (created with seed: no extra signer). */
export function nonceAccountSeed(index: number): string {
  return `swapd-nonce-${index}`;
}

/**
 * The address of `owner`'s nonce account made with `seed`: sha256(base ‖ seed ‖ System program id),
 * Solana's createWithSeed (web3.js only offers it as a Promise).
 */
export function nonceAccountAddress(owner: PublicKey, seed: string): PublicKey {
  return new PublicKey(
    createHash("sha256")
      .update(Buffer.concat([owner.toBuffer(), Buffer.from(seed), SystemProgram.programId.toBuffer()]))
      .digest(),
  );
}

/**
 * CreateAccountWithSeed (owner: System, 80 bytes, rent-exempt) + InitializeNonceAccount with
 * `authority` as the nonce authority; `payer` funds it and is the seed's base (its signature suffices).
 */
export function createNonceAccountInstructions(payer: PublicKey, seed: string, authority: PublicKey): TransactionInstruction[] {
  const noncePubkey = nonceAccountAddress(payer, seed);
  return SystemProgram.createNonceAccount({
    fromPubkey: payer,
    noncePubkey,
    basePubkey: payer,
    seed,
    authorizedPubkey: authority,
    lamports: Number(NONCE_ACCOUNT_RENT_LAMPORTS),
  }).instructions;
}

/** AdvanceNonceAccount, signed by the nonce's authority: the first instruction of a durable-nonce transaction. */
export function advanceNonceInstruction(nonceAccount: PublicKey, authority: PublicKey): TransactionInstruction {
  return SystemProgram.nonceAdvance({ noncePubkey: nonceAccount, authorizedPubkey: authority });
}

/** A nonce account's state: its authority and current value (the blockhash its transactions carry). */
export interface NonceState {
  readonly authority: PublicKey;
  readonly nonce: string;
}

/** Decodes an initialized nonce account (System owner, 80 bytes), or null when it is not one. */
export function decodeNonceAccount(account: { readonly owner: PublicKey; readonly data: Uint8Array } | null): NonceState | null {
  if (account === null || !account.owner.equals(SystemProgram.programId) || account.data.length !== NONCE_ACCOUNT_LENGTH) return null;
  // Version (u32) then state (u32): 1 = initialized; 0 = uninitialized.
  if (Buffer.from(account.data).readUInt32LE(4) !== 1) return null;
  const decoded = NonceAccount.fromAccountData(Buffer.from(account.data));
  return { authority: decoded.authorizedPubkey, nonce: decoded.nonce };
}

/** The System program's AdvanceNonceAccount instruction index (u32 LE in the data). */
const ADVANCE_NONCE_INDEX = 4;

/** The nonce account an `AdvanceNonceAccount` instruction advances, or null for another instruction. */
export function advancedNonceAccount(programId: PublicKey, data: Uint8Array, accounts: readonly PublicKey[]): PublicKey | null {
  if (!programId.equals(SystemProgram.programId) || data.length !== 4) return null;
  if (Buffer.from(data).readUInt32LE(0) !== ADVANCE_NONCE_INDEX) return null;
  return accounts[0] ?? null;
}

/** The nonce a durable-nonce transaction is bound to: the account its first instruction advances, and the value it carries as its blockhash. */
export interface DurableNonce {
  readonly nonceAccount: PublicKey;
  readonly nonceValue: string;
}

/**
 * The durable nonce of a transaction message — its first instruction is `AdvanceNonceAccount`
 * (as a validator requires of one) — or null for a transaction on a recent blockhash.
 */
export function durableNonceOf(message: {
  readonly staticAccountKeys: readonly PublicKey[];
  readonly compiledInstructions: readonly { readonly programIdIndex: number; readonly accountKeyIndexes: readonly number[]; readonly data: Uint8Array }[];
  readonly recentBlockhash: string;
}): DurableNonce | null {
  const first = message.compiledInstructions[0];
  const programId = first === undefined ? undefined : message.staticAccountKeys[first.programIdIndex];
  if (first === undefined || programId === undefined) return null;
  const accounts = first.accountKeyIndexes.map((i) => message.staticAccountKeys[i]).filter((k): k is PublicKey => k !== undefined);
  const nonceAccount = advancedNonceAccount(programId, first.data, accounts);
  return nonceAccount === null ? null : { nonceAccount, nonceValue: message.recentBlockhash };
}
