import { TransactionInstruction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID } from "../../solana/programs.js";
import { readonlyAccount, writableAccount } from "../../solana/account-meta.js";

/** sha256("global:set_token_ledger")[0..8] */
export const SET_TOKEN_LEDGER_DISCRIMINATOR = new Uint8Array([228, 85, 185, 112, 78, 79, 77, 2]);

/** The four token ledgers Jupiter uses (not PDAs; jupiter-amm-implementation `find_jupiter_token_ledger`). */
export const TOKEN_LEDGERS = [
  "HtncvpUBGhSrs48KtC58ntJcTDw53sn78Lpq71zVwiez",
  "HxTk98CmBcxmtkrBWqRszYxrnDpqAsbitQBc2QjVBG3j",
  "CnUPHtfUVw3D2s4FB8H6QBuLwoes8YxauVgDtFybm7rz",
  "FhLPkpFmszHtSyyayj7KsXNZeBTqfQbUPmvgWAyJHBXh",
] as const;

/** `set_token_ledger`: records the token account's balance before the user's own pre-swap instructions. */
export function getSetTokenLedgerInstruction(accounts: { tokenLedger: PublicKey; tokenAccount: PublicKey }): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: [writableAccount(accounts.tokenLedger), readonlyAccount(accounts.tokenAccount)],
    data: Buffer.from(SET_TOKEN_LEDGER_DISCRIMINATOR),
  });
}
