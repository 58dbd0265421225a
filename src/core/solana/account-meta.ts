import type { AccountMeta, PublicKey } from "@solana/web3.js";

/** An instruction account that is read, never signed for (e.g. a program id, a mint, a config). */
export function readonlyAccount(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: false, isWritable: false };
}

/** An instruction account that is written, never signed for (pool state, vaults, token accounts). */
export function writableAccount(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: false, isWritable: true };
}

/** An instruction account that signs but is not written (e.g. a token transfer authority). */
export function readonlySignerAccount(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: true, isWritable: false };
}

/** An instruction account that signs and is written (a fee payer, a rent payer). */
export function writableSignerAccount(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: true, isWritable: true };
}
