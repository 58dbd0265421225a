import { TransactionInstruction } from "@solana/web3.js";
import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../solana/programs.js";

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
  const makerInputMintAccount: AccountMeta =
    accounts.makerInputMintAccount === null
      ? { pubkey: LIMIT_ORDER_V2_PROGRAM_ID, isSigner: false, isWritable: false }
      : { pubkey: accounts.makerInputMintAccount, isSigner: false, isWritable: true };
  const keys: AccountMeta[] = [
    { pubkey: accounts.signer, isSigner: true, isWritable: true },
    { pubkey: accounts.maker, isSigner: false, isWritable: true },
    { pubkey: accounts.order, isSigner: false, isWritable: true },
    { pubkey: accounts.inputMintReserve, isSigner: false, isWritable: true },
    makerInputMintAccount,
    { pubkey: accounts.inputMint, isSigner: false, isWritable: false },
    { pubkey: accounts.inputTokenProgram, isSigner: false, isWritable: false },
    { pubkey: accounts.eventAuthority, isSigner: false, isWritable: false },
    { pubkey: LIMIT_ORDER_V2_PROGRAM_ID, isSigner: false, isWritable: false },
  ];
  return new TransactionInstruction({
    programId: LIMIT_ORDER_V2_PROGRAM_ID,
    keys,
    data: Buffer.from(CANCEL_ORDER_DISCRIMINATOR),
  });
}
