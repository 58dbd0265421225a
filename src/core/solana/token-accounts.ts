import { createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync, unpackMint } from "@solana/spl-token";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { PublicKey as Key } from "@solana/web3.js";
import type { AccountData } from "./account.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./programs.js";

/** What the swap builder needs from a mint account: its token program (= owner) and decimals. */
export interface MintInfo {
  readonly tokenProgram: PublicKey;
  readonly decimals: number;
}

/** Mints by base58 address. */
export type MintMap = ReadonlyMap<string, MintInfo>;

/** The associated token account of `owner` for `mint` under the mint's own token program. */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  // allowOwnerOffCurve: program authorities (PDAs) own ATAs too.
  return getAssociatedTokenAddressSync(mint, owner, true, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID);
}

/**
 * Creates `owner`'s associated token account for `mint` (under the mint's token program), paid by
 * `payer`; a no-op when it already exists.
 */
export function createAssociatedTokenAccountIdempotent(
  payer: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
  tokenProgram: PublicKey,
): TransactionInstruction {
  const address = associatedTokenAddress(owner, mint, tokenProgram);
  return createAssociatedTokenAccountIdempotentInstruction(payer, address, owner, mint, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID);
}

export function isTokenProgram(program: PublicKey): boolean {
  return program.equals(TOKEN_PROGRAM_ID) || program.equals(TOKEN_2022_PROGRAM_ID);
}

/**
 * Decodes a mint account (SPL Token or Token-2022, extensions ignored); undefined for anything
 * else, including token accounts and uninitialized mints.
 */
export function decodeMintInfo(account: AccountData): MintInfo | undefined {
  if (!isTokenProgram(account.owner)) return undefined;
  try {
    // spl-token's own unpacking: it also tells a Token-2022 mint with extensions from a token account.
    const data = Buffer.from(account.data.buffer, account.data.byteOffset, account.data.byteLength);
    const mint = unpackMint(account.address, { data, owner: account.owner, lamports: 0, executable: false }, account.owner);
    return mint.isInitialized ? { tokenProgram: account.owner, decimals: mint.decimals } : undefined;
  } catch {
    return undefined; // too short, or not a mint
  }
}

/** The mint of a token account (the first 32 bytes of both token programs' layouts). */
export function tokenAccountMint(account: AccountData): PublicKey | undefined {
  if (!isTokenProgram(account.owner) || account.data.length < 165) return undefined;
  return new Key(account.data.subarray(0, 32));
}
