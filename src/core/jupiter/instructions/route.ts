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

/** sha256("global:route")[0..8] */
export const ROUTE_DISCRIMINATOR = new Uint8Array([229, 23, 203, 151, 122, 227, 173, 42]);

export interface RouteInstructionData {
  readonly routePlan: readonly RoutePlanStep[];
  readonly inAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<RouteInstructionData> | undefined;

export function getRouteInstructionDataCodec(): Codec<RouteInstructionData> {
  return (dataCodec ??= withDiscriminator<RouteInstructionData>("route", ROUTE_DISCRIMINATOR, [
    ["routePlan", getArrayCodec(getRoutePlanStepCodec())],
    ["inAmount", getU64Codec()],
    ["quotedOutAmount", getU64Codec()],
    ["slippageBps", getU16Codec()],
    ["platformFeeBps", getU8Codec()],
  ]));
}

export interface RouteInstructionAccounts {
  readonly tokenProgram: PublicKey;
  readonly userTransferAuthority: PublicKey;
  readonly userSourceTokenAccount: PublicKey;
  readonly userDestinationTokenAccount: PublicKey;
  readonly destinationTokenAccount?: PublicKey;
  readonly destinationMint: PublicKey;
  readonly platformFeeAccount?: PublicKey;
  /** The route steps' accounts, concatenated (plus anything appended after them). */
  readonly remainingAccounts: readonly AccountMeta[];
}

/** `route`: swap from the user's own token accounts, ExactIn. */
export function getRouteInstruction(accounts: RouteInstructionAccounts, args: RouteInstructionData): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: [
      readonlyAccount(accounts.tokenProgram),
      readonlySignerAccount(accounts.userTransferAuthority),
      writableAccount(accounts.userSourceTokenAccount),
      writableAccount(accounts.userDestinationTokenAccount),
      optionalAccount(accounts.destinationTokenAccount, true),
      readonlyAccount(accounts.destinationMint),
      optionalAccount(accounts.platformFeeAccount, true),
      readonlyAccount(findEventAuthority()),
      readonlyAccount(JUPITER_V6_PROGRAM_ID),
      ...accounts.remainingAccounts,
    ],
    data: Buffer.from(getRouteInstructionDataCodec().encode(args)),
  });
}
