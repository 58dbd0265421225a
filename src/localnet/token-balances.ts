import { TokenError, unpackAccount, unpackMint } from "@solana/spl-token";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../core/solana/programs.js";

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

/** One entry of a transaction's `preTokenBalances` / `postTokenBalances`. */
export interface TokenBalanceJson {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
}

/** `amount` scaled by `decimals` as the RPC prints it: no exponent, no trailing zeros. */
export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

function tokenProgramOf(account: AccountData): PublicKey | null {
  if (account.owner.equals(TOKEN_PROGRAM_ID)) return TOKEN_PROGRAM_ID;
  if (account.owner.equals(TOKEN_2022_PROGRAM_ID)) return TOKEN_2022_PROGRAM_ID;
  return null;
}

function asAccountInfo(account: AccountData) {
  return { data: Buffer.from(account.data), owner: account.owner, lamports: Number(account.lamports), executable: account.executable };
}

/** The token-account view of `account`, or null when it is not an initialized token account. */
export function tokenBalance(account: AccountData | null, getAccount: (key: PublicKey) => AccountData | null): Omit<TokenBalanceJson, "accountIndex"> | null {
  if (!account) return null;
  const programId = tokenProgramOf(account);
  if (!programId) return null;
  try {
    const token = unpackAccount(account.address, asAccountInfo(account), programId);
    const mintAccount = getAccount(token.mint);
    if (!mintAccount) return null;
    const mint = unpackMint(token.mint, asAccountInfo(mintAccount), programId);
    return {
      mint: token.mint.toBase58(),
      owner: token.owner.toBase58(),
      programId: programId.toBase58(),
      uiTokenAmount: uiTokenAmount(token.amount, mint.decimals),
    };
  } catch {
    return null; // a mint or another account kind of the token program
  }
}

/** Token balances of a transaction's accounts, as `preTokenBalances`/`postTokenBalances` list them. */
export function tokenBalances(keys: readonly PublicKey[], getAccount: (key: PublicKey) => AccountData | null): TokenBalanceJson[] {
  const out: TokenBalanceJson[] = [];
  keys.forEach((key, accountIndex) => {
    const balance = tokenBalance(getAccount(key), getAccount);
    if (balance) out.push({ accountIndex, ...balance });
  });
  return out;
}

/** A mint's supply as `getTokenSupply` answers it, or null when `account` is not a mint. */
export function tokenSupply(account: AccountData | null): UiTokenAmount | null {
  if (!account) return null;
  const programId = tokenProgramOf(account);
  if (!programId) return null;
  try {
    const mint = unpackMint(account.address, asAccountInfo(account), programId);
    return uiTokenAmount(mint.supply, mint.decimals);
  } catch (error) {
    // spl-token's own refusal (wrong size, not initialized): the account is not a mint.
    if (error instanceof TokenError) return null;
    throw error;
  }
}
