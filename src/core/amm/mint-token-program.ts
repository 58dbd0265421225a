import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "./adapter.js";
import type { AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { TOKEN_2022_PROGRAM_ID } from "../solana/programs.js";
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
