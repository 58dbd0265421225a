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

/** sha256("global:shared_accounts_route")[0..8] */
export const SHARED_ACCOUNTS_ROUTE_DISCRIMINATOR = new Uint8Array([193, 32, 155, 51, 65, 214, 156, 129]);

export interface SharedAccountsRouteInstructionData {
  /** Program authority id (0–7). */
  readonly id: number;
  readonly routePlan: readonly RoutePlanStep[];
  readonly inAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<SharedAccountsRouteInstructionData> | undefined;

export function getSharedAccountsRouteInstructionDataCodec(): Codec<SharedAccountsRouteInstructionData> {
  return (dataCodec ??= withDiscriminator<SharedAccountsRouteInstructionData>("shared_accounts_route", SHARED_ACCOUNTS_ROUTE_DISCRIMINATOR, [
    ["id", getU8Codec()],
    ["routePlan", getArrayCodec(getRoutePlanStepCodec())],
    ["inAmount", getU64Codec()],
    ["quotedOutAmount", getU64Codec()],
    ["slippageBps", getU16Codec()],
    ["platformFeeBps", getU8Codec()],
  ]));
}

/** The 13 fixed accounts of both shared-accounts instructions. */
export interface SharedAccountsInstructionAccounts {
  readonly tokenProgram: PublicKey;
  readonly programAuthority: PublicKey;
  readonly userTransferAuthority: PublicKey;
  readonly sourceTokenAccount: PublicKey;
  readonly programSourceTokenAccount: PublicKey;
  readonly programDestinationTokenAccount: PublicKey;
  readonly destinationTokenAccount: PublicKey;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  readonly platformFeeAccount?: PublicKey;
  readonly token2022Program?: PublicKey;
  readonly remainingAccounts: readonly AccountMeta[];
}

export function sharedAccountsMetas(accounts: SharedAccountsInstructionAccounts): AccountMeta[] {
  return [
    readonlyAccount(accounts.tokenProgram),
    readonlyAccount(accounts.programAuthority),
    readonlySignerAccount(accounts.userTransferAuthority),
    writableAccount(accounts.sourceTokenAccount),
    writableAccount(accounts.programSourceTokenAccount),
    writableAccount(accounts.programDestinationTokenAccount),
    writableAccount(accounts.destinationTokenAccount),
    readonlyAccount(accounts.sourceMint),
    readonlyAccount(accounts.destinationMint),
    optionalAccount(accounts.platformFeeAccount, true),
    optionalAccount(accounts.token2022Program, false),
    readonlyAccount(findEventAuthority()),
    readonlyAccount(JUPITER_V6_PROGRAM_ID),
    ...accounts.remainingAccounts,
  ];
}

/** `shared_accounts_route`: swap through the program authority's token accounts, ExactIn. */
export function getSharedAccountsRouteInstruction(
  accounts: SharedAccountsInstructionAccounts,
  args: SharedAccountsRouteInstructionData,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: sharedAccountsMetas(accounts),
    data: Buffer.from(getSharedAccountsRouteInstructionDataCodec().encode(args)),
  });
}
