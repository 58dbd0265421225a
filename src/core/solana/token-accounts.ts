import { MintLayout, getAssociatedTokenAddressSync } from "@solana/spl-token";
import type { PublicKey } from "@solana/web3.js";
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

export function isTokenProgram(program: PublicKey): boolean {
  return program.equals(TOKEN_PROGRAM_ID) || program.equals(TOKEN_2022_PROGRAM_ID);
}

/** Decodes a mint account (SPL Token or Token-2022; extensions after the base layout are ignored). */
export function decodeMintInfo(account: AccountData): MintInfo | undefined {
  if (!isTokenProgram(account.owner) || account.data.length < MintLayout.span) return undefined;
  const mint = MintLayout.decode(account.data.subarray(0, MintLayout.span));
  if (!mint.isInitialized) return undefined;
  return { tokenProgram: account.owner, decimals: mint.decimals };
}

/** The mint of a token account (the first 32 bytes of both token programs' layouts). */
export function tokenAccountMint(account: AccountData): PublicKey | undefined {
  if (!isTokenProgram(account.owner) || account.data.length < 165) return undefined;
  return new Key(account.data.subarray(0, 32));
}
