import { getArrayCodec, getU16Codec, getU64Codec, getU8Codec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import { TransactionInstruction } from "@solana/web3.js";
import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID } from "../../solana/programs.js";
import { findEventAuthority } from "../pdas.js";
import { getRoutePlanStepCodec } from "../route-plan.js";
import type { RoutePlanStep } from "../route-plan.js";
import { readonlyAccount, readonlySignerAccount, writableAccount } from "../../solana/account-meta.js";
import { optionalAccount } from "./optional-account.js";
import { withDiscriminator } from "../../solana/anchor-instruction-data.js";

/** sha256("global:exact_out_route")[0..8] */
export const EXACT_OUT_ROUTE_DISCRIMINATOR = new Uint8Array([208, 51, 239, 151, 123, 43, 237, 92]);

export interface ExactOutRouteInstructionData {
  readonly routePlan: readonly RoutePlanStep[];
  readonly outAmount: bigint;
  readonly quotedInAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<ExactOutRouteInstructionData> | undefined;

export function getExactOutRouteInstructionDataCodec(): Codec<ExactOutRouteInstructionData> {
  return (dataCodec ??= withDiscriminator<ExactOutRouteInstructionData>("exact_out_route", EXACT_OUT_ROUTE_DISCRIMINATOR, [
    ["routePlan", getArrayCodec(getRoutePlanStepCodec())],
    ["outAmount", getU64Codec()],
    ["quotedInAmount", getU64Codec()],
    ["slippageBps", getU16Codec()],
    ["platformFeeBps", getU8Codec()],
  ]));
}

export interface ExactOutRouteInstructionAccounts {
  readonly tokenProgram: PublicKey;
  readonly userTransferAuthority: PublicKey;
  readonly userSourceTokenAccount: PublicKey;
  readonly userDestinationTokenAccount: PublicKey;
  readonly destinationTokenAccount?: PublicKey;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  readonly platformFeeAccount?: PublicKey;
  readonly token2022Program?: PublicKey;
  readonly remainingAccounts: readonly AccountMeta[];
}

/** `exact_out_route`: swap from the user's own token accounts, ExactOut. */
export function getExactOutRouteInstruction(accounts: ExactOutRouteInstructionAccounts, args: ExactOutRouteInstructionData): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: [
      readonlyAccount(accounts.tokenProgram),
      readonlySignerAccount(accounts.userTransferAuthority),
      writableAccount(accounts.userSourceTokenAccount),
      writableAccount(accounts.userDestinationTokenAccount),
      optionalAccount(accounts.destinationTokenAccount, true),
      readonlyAccount(accounts.sourceMint),
      readonlyAccount(accounts.destinationMint),
      optionalAccount(accounts.platformFeeAccount, true),
      optionalAccount(accounts.token2022Program, false),
      readonlyAccount(findEventAuthority()),
      readonlyAccount(JUPITER_V6_PROGRAM_ID),
      ...accounts.remainingAccounts,
    ],
    data: Buffer.from(getExactOutRouteInstructionDataCodec().encode(args)),
  });
}
