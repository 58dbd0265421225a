import { getI64Codec, getNullableCodec, getU16Codec, getU64Codec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import { TransactionInstruction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { readonlyAccount, readonlySignerAccount, writableAccount, writableSignerAccount } from "../../solana/account-meta.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, LIMIT_ORDER_V2_PROGRAM_ID, SYSTEM_PROGRAM_ID } from "../../solana/programs.js";
import { withDiscriminator } from "../../solana/anchor-instruction-data.js";
import { optionalAccount } from "./optional-account.js";

/** sha256("global:initialize_order")[..8] (trigger-api.md §2.2). */
export const INITIALIZE_ORDER_DISCRIMINATOR = new Uint8Array([133, 110, 74, 175, 112, 159, 245, 159]);

/** `InitializeOrderParams` in Borsh field order; `null` = Option::None. */
export interface InitializeOrderParams {
  readonly uniqueId: bigint;
  readonly makingAmount: bigint;
  readonly takingAmount: bigint;
  /** Unix seconds. */
  readonly expiredAt: bigint | null;
  readonly feeBps: number | null;
  readonly slippageBps: number | null;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<InitializeOrderParams> | undefined;

/** The instruction data: the discriminator (filled in when encoding, checked when decoding), then the params. */
export function getInitializeOrderInstructionDataCodec(): Codec<InitializeOrderParams> {
  return (dataCodec ??= withDiscriminator<InitializeOrderParams>("initialize_order", INITIALIZE_ORDER_DISCRIMINATOR, [
    ["uniqueId", getU64Codec()],
    ["makingAmount", getU64Codec()],
    ["takingAmount", getU64Codec()],
    ["expiredAt", getNullableCodec(getI64Codec())],
    ["feeBps", getNullableCodec(getU16Codec())],
    ["slippageBps", getNullableCodec(getU16Codec())],
  ]));
}

/** The 15 accounts of `initialize_order`, in the program's order (§2.3). */
export interface InitializeOrderAccounts {
  readonly payer: PublicKey;
  readonly maker: PublicKey;
  readonly order: PublicKey;
  readonly inputMintReserve: PublicKey;
  readonly makerInputMintAccount: PublicKey;
  readonly fee: PublicKey;
  /** Integrator fee token account; `null` is passed as the program id (Anchor's None). */
  readonly referral: PublicKey | null;
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inputTokenProgram: PublicKey;
  readonly outputTokenProgram: PublicKey;
  readonly eventAuthority: PublicKey;
}

export function getInitializeOrderInstruction(accounts: InitializeOrderAccounts, params: InitializeOrderParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: LIMIT_ORDER_V2_PROGRAM_ID,
    keys: [
      writableSignerAccount(accounts.payer),
      readonlySignerAccount(accounts.maker),
      writableAccount(accounts.order),
      writableAccount(accounts.inputMintReserve),
      writableAccount(accounts.makerInputMintAccount),
      readonlyAccount(accounts.fee),
      optionalAccount(accounts.referral, false),
      readonlyAccount(accounts.inputMint),
      readonlyAccount(accounts.outputMint),
      readonlyAccount(accounts.inputTokenProgram),
      readonlyAccount(accounts.outputTokenProgram),
      readonlyAccount(SYSTEM_PROGRAM_ID),
      readonlyAccount(ASSOCIATED_TOKEN_PROGRAM_ID),
      readonlyAccount(accounts.eventAuthority),
      readonlyAccount(LIMIT_ORDER_V2_PROGRAM_ID),
    ],
    data: Buffer.from(getInitializeOrderInstructionDataCodec().encode(params)),
  });
}
