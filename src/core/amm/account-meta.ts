import type { AccountMeta, PublicKey } from "@solana/web3.js";

/** A step account the AMM only reads (never a signer: the step runs inside Jupiter's CPI). */
export function readonlyAccount(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: false, isWritable: false };
}

/** A step account the AMM writes (pool state, vaults, user token accounts, tick/bin arrays). */
export function writableAccount(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: false, isWritable: true };
}
