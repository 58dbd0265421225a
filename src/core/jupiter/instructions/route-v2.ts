/**
 * Jupiter v6's `route_v2` and `shared_accounts_route_v2` (the instruction family of Jupiter's
 * Swap API v2): the route plan moves to the end of the arguments, a step's share is in basis
 * points (`bps` u16), the platform fee is u16 and `positive_slippage_bps` is new. The fixed
 * accounts name both token programs instead of one (plus an optional Token-2022 slot) and carry
 * no platform fee account. Layouts: the IDL of the program (`route_v2`, discriminator
 * sha256("global:route_v2")[0..8]); proved by executing them on the mainnet binary (test/onchain).
 */
import { getArrayCodec, getStructCodec, getU16Codec, getU64Codec, getU8Codec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import { TransactionInstruction } from "@solana/web3.js";
import type { AccountMeta, PublicKey } from "@solana/web3.js";
import type { SwapVariant } from "../../amm/adapter.js";
import { JUPITER_V6_PROGRAM_ID } from "../../solana/programs.js";
import { withDiscriminator } from "../../solana/anchor-instruction-data.js";
import { readonlyAccount, readonlySignerAccount, writableAccount } from "../../solana/account-meta.js";
import { findEventAuthority } from "../pdas.js";
import { getSwapCodec } from "../swap-codec.js";
import { optionalAccount } from "./optional-account.js";

/** sha256("global:route_v2")[0..8] */
export const ROUTE_V2_DISCRIMINATOR = new Uint8Array([187, 100, 250, 204, 49, 196, 175, 20]);
/** sha256("global:shared_accounts_route_v2")[0..8] */
export const SHARED_ACCOUNTS_ROUTE_V2_DISCRIMINATOR = new Uint8Array([209, 152, 83, 147, 124, 254, 216, 233]);

/** One step of a V2 route plan: as V1, with the share in basis points of the input slot. */
export interface RoutePlanStepV2 {
  readonly swap: SwapVariant;
  /** Share (0–10000) of the input slot's amount this step consumes. */
  readonly bps: number;
  readonly inputIndex: number;
  readonly outputIndex: number;
}

export function getRoutePlanStepV2Codec(): Codec<RoutePlanStepV2> {
  return getStructCodec([
    ["swap", getSwapCodec()],
    ["bps", getU16Codec()],
    ["inputIndex", getU8Codec()],
    ["outputIndex", getU8Codec()],
  ]);
}

export interface RouteV2InstructionData {
  readonly inAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
  readonly positiveSlippageBps: number;
  readonly routePlan: readonly RoutePlanStepV2[];
}

export interface SharedAccountsRouteV2InstructionData extends RouteV2InstructionData {
  /** Program authority id (0–7). */
  readonly id: number;
}

const V2_ARGS = (): Parameters<typeof getStructCodec>[0] => [
  ["inAmount", getU64Codec()],
  ["quotedOutAmount", getU64Codec()],
  ["slippageBps", getU16Codec()],
  ["platformFeeBps", getU16Codec()],
  ["positiveSlippageBps", getU16Codec()],
  ["routePlan", getArrayCodec(getRoutePlanStepV2Codec())],
];

// Built once: composing a codec is much more work than encoding with it.
let routeCodec: Codec<RouteV2InstructionData> | undefined;
let sharedCodec: Codec<SharedAccountsRouteV2InstructionData> | undefined;

export function getRouteV2InstructionDataCodec(): Codec<RouteV2InstructionData> {
  return (routeCodec ??= withDiscriminator<RouteV2InstructionData>("route_v2", ROUTE_V2_DISCRIMINATOR, V2_ARGS()));
}

export function getSharedAccountsRouteV2InstructionDataCodec(): Codec<SharedAccountsRouteV2InstructionData> {
  return (sharedCodec ??= withDiscriminator<SharedAccountsRouteV2InstructionData>("shared_accounts_route_v2", SHARED_ACCOUNTS_ROUTE_V2_DISCRIMINATOR, [
    ["id", getU8Codec()],
    ...V2_ARGS(),
  ]));
}

export interface RouteV2InstructionAccounts {
  readonly userTransferAuthority: PublicKey;
  readonly userSourceTokenAccount: PublicKey;
  readonly userDestinationTokenAccount: PublicKey;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  readonly sourceTokenProgram: PublicKey;
  readonly destinationTokenProgram: PublicKey;
  readonly destinationTokenAccount?: PublicKey;
  readonly remainingAccounts: readonly AccountMeta[];
}

/** `route_v2`: swap from the user's own token accounts, ExactIn. */
export function getRouteV2Instruction(accounts: RouteV2InstructionAccounts, args: RouteV2InstructionData): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: [
      readonlySignerAccount(accounts.userTransferAuthority),
      writableAccount(accounts.userSourceTokenAccount),
      writableAccount(accounts.userDestinationTokenAccount),
      readonlyAccount(accounts.sourceMint),
      readonlyAccount(accounts.destinationMint),
      readonlyAccount(accounts.sourceTokenProgram),
      readonlyAccount(accounts.destinationTokenProgram),
      optionalAccount(accounts.destinationTokenAccount, true),
      readonlyAccount(findEventAuthority()),
      readonlyAccount(JUPITER_V6_PROGRAM_ID),
      ...accounts.remainingAccounts,
    ],
    data: Buffer.from(getRouteV2InstructionDataCodec().encode(args)),
  });
}

export interface SharedAccountsRouteV2InstructionAccounts {
  readonly programAuthority: PublicKey;
  readonly userTransferAuthority: PublicKey;
  readonly sourceTokenAccount: PublicKey;
  readonly programSourceTokenAccount: PublicKey;
  readonly programDestinationTokenAccount: PublicKey;
  readonly destinationTokenAccount: PublicKey;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  readonly sourceTokenProgram: PublicKey;
  readonly destinationTokenProgram: PublicKey;
  readonly remainingAccounts: readonly AccountMeta[];
}

/** `shared_accounts_route_v2`: swap through the program authority's token accounts, ExactIn. */
export function getSharedAccountsRouteV2Instruction(
  accounts: SharedAccountsRouteV2InstructionAccounts,
  args: SharedAccountsRouteV2InstructionData,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: [
      readonlyAccount(accounts.programAuthority),
      readonlySignerAccount(accounts.userTransferAuthority),
      writableAccount(accounts.sourceTokenAccount),
      writableAccount(accounts.programSourceTokenAccount),
      writableAccount(accounts.programDestinationTokenAccount),
      writableAccount(accounts.destinationTokenAccount),
      readonlyAccount(accounts.sourceMint),
      readonlyAccount(accounts.destinationMint),
      readonlyAccount(accounts.sourceTokenProgram),
      readonlyAccount(accounts.destinationTokenProgram),
      readonlyAccount(findEventAuthority()),
      readonlyAccount(JUPITER_V6_PROGRAM_ID),
      ...accounts.remainingAccounts,
    ],
    data: Buffer.from(getSharedAccountsRouteV2InstructionDataCodec().encode(args)),
  });
}
