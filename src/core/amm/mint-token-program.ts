import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "./adapter.js";
import type { AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { isTokenProgram } from "../solana/token-accounts.js";

/** The token program that owns `mint` (SPL Token or Token-2022), from the read mint account. */
export function tokenProgramOfMint(accounts: AccountMap, mint: PublicKey): PublicKey {
  const account = accounts.get(base58Of(mint));
  if (account === undefined) throw new AmmError(`mint ${mint.toBase58()} was not read`);
  if (account === null) throw new AmmError(`mint ${mint.toBase58()} does not exist`);
  if (isTokenProgram(account.owner)) return account.owner;
  throw new AmmError(`mint ${mint.toBase58()} is owned by ${account.owner.toBase58()}, not a token program`);
}

export function isToken2022(program: PublicKey): boolean {
  return program.equals(TOKEN_2022_PROGRAM_ID);
}

/**
 * The token program of a mint stored in a pool as a flag (DLMM, DAMM v2): 0 = SPL Token,
 * 1 = Token-2022; AmmError naming `what` (the pool) for any other value.
 */
export function tokenProgramFromFlag(flag: number, mint: PublicKey, what: string): PublicKey {
  if (flag === 0) return TOKEN_PROGRAM_ID;
  if (flag === 1) return TOKEN_2022_PROGRAM_ID;
  throw new AmmError(`${what} has unknown token program flag ${flag} for mint ${mint.toBase58()}`);
}
