import {
  fixCodecSize,
  getBytesCodec,
  getI64Codec,
  getNullableCodec,
  getStructCodec,
  getU16Codec,
  getU64Codec,
} from "@solana/kit";
import type { Codec } from "@solana/kit";
import { TransactionInstruction } from "@solana/web3.js";
import type { AccountMeta, PublicKey } from "@solana/web3.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  LIMIT_ORDER_V2_PROGRAM_ID,
  SYSTEM_PROGRAM_ID,
} from "../../solana/programs.js";

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

export interface InitializeOrderInstructionData extends InitializeOrderParams {
  readonly discriminator: Uint8Array;
}

export function getInitializeOrderInstructionDataCodec(): Codec<InitializeOrderInstructionData> {
  return getStructCodec([
    ["discriminator", fixCodecSize(getBytesCodec(), 8)],
    ["uniqueId", getU64Codec()],
    ["makingAmount", getU64Codec()],
    ["takingAmount", getU64Codec()],
    ["expiredAt", getNullableCodec(getI64Codec())],
    ["feeBps", getNullableCodec(getU16Codec())],
    ["slippageBps", getNullableCodec(getU16Codec())],
  ]) as unknown as Codec<InitializeOrderInstructionData>;
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

export function getInitializeOrderInstruction(
  accounts: InitializeOrderAccounts,
  params: InitializeOrderParams,
): TransactionInstruction {
  const keys: AccountMeta[] = [
    { pubkey: accounts.payer, isSigner: true, isWritable: true },
    { pubkey: accounts.maker, isSigner: true, isWritable: false },
    { pubkey: accounts.order, isSigner: false, isWritable: true },
    { pubkey: accounts.inputMintReserve, isSigner: false, isWritable: true },
    { pubkey: accounts.makerInputMintAccount, isSigner: false, isWritable: true },
    { pubkey: accounts.fee, isSigner: false, isWritable: false },
    { pubkey: accounts.referral ?? LIMIT_ORDER_V2_PROGRAM_ID, isSigner: false, isWritable: false },
    { pubkey: accounts.inputMint, isSigner: false, isWritable: false },
    { pubkey: accounts.outputMint, isSigner: false, isWritable: false },
    { pubkey: accounts.inputTokenProgram, isSigner: false, isWritable: false },
    { pubkey: accounts.outputTokenProgram, isSigner: false, isWritable: false },
    { pubkey: SYSTEM_PROGRAM_ID, isSigner: false, isWritable: false },
    { pubkey: ASSOCIATED_TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    { pubkey: accounts.eventAuthority, isSigner: false, isWritable: false },
    { pubkey: LIMIT_ORDER_V2_PROGRAM_ID, isSigner: false, isWritable: false },
  ];
  const data = getInitializeOrderInstructionDataCodec().encode({
    discriminator: INITIALIZE_ORDER_DISCRIMINATOR,
    ...params,
  });
  return new TransactionInstruction({ programId: LIMIT_ORDER_V2_PROGRAM_ID, keys, data: Buffer.from(data) });
}
