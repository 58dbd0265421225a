import { TransactionInstruction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { readonlyAccount, writableAccount, writableSignerAccount } from "../../solana/account-meta.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../solana/programs.js";
import { optionalAccount } from "./optional-account.js";

/** sha256("global:cancel_order")[..8] (trigger-api.md §2.2); the instruction has no arguments. */
export const CANCEL_ORDER_DISCRIMINATOR = new Uint8Array([95, 129, 237, 240, 8, 49, 223, 132]);

/** The 9 accounts of `cancel_order`, in the program's order (§2.3). */
export interface CancelOrderAccounts {
  readonly signer: PublicKey;
  readonly maker: PublicKey;
  readonly order: PublicKey;
  readonly inputMintReserve: PublicKey;
  /** `null` (passed as the program id) when the input is wSOL: the program returns native SOL. */
  readonly makerInputMintAccount: PublicKey | null;
  readonly inputMint: PublicKey;
  readonly inputTokenProgram: PublicKey;
  readonly eventAuthority: PublicKey;
}

export function getCancelOrderInstruction(accounts: CancelOrderAccounts): TransactionInstruction {
  return new TransactionInstruction({
    programId: LIMIT_ORDER_V2_PROGRAM_ID,
    keys: [
      writableSignerAccount(accounts.signer),
      writableAccount(accounts.maker),
      writableAccount(accounts.order),
      writableAccount(accounts.inputMintReserve),
      optionalAccount(accounts.makerInputMintAccount, true),
      readonlyAccount(accounts.inputMint),
      readonlyAccount(accounts.inputTokenProgram),
      readonlyAccount(accounts.eventAuthority),
      readonlyAccount(LIMIT_ORDER_V2_PROGRAM_ID),
    ],
    data: Buffer.from(CANCEL_ORDER_DISCRIMINATOR),
  });
}
