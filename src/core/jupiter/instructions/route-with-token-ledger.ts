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

/** sha256("global:route_with_token_ledger")[0..8] */
export const ROUTE_WITH_TOKEN_LEDGER_DISCRIMINATOR = new Uint8Array([150, 86, 71, 116, 167, 93, 14, 104]);

/** No in_amount: the program swaps the balance delta recorded by `set_token_ledger`. */
export interface RouteWithTokenLedgerInstructionData {
  readonly routePlan: readonly RoutePlanStep[];
  readonly quotedOutAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<RouteWithTokenLedgerInstructionData> | undefined;

export function getRouteWithTokenLedgerInstructionDataCodec(): Codec<RouteWithTokenLedgerInstructionData> {
  return (dataCodec ??= withDiscriminator<RouteWithTokenLedgerInstructionData>("route_with_token_ledger", ROUTE_WITH_TOKEN_LEDGER_DISCRIMINATOR, [
    ["routePlan", getArrayCodec(getRoutePlanStepCodec())],
    ["quotedOutAmount", getU64Codec()],
    ["slippageBps", getU16Codec()],
    ["platformFeeBps", getU8Codec()],
  ]));
}

export interface RouteWithTokenLedgerInstructionAccounts {
  readonly tokenProgram: PublicKey;
  readonly userTransferAuthority: PublicKey;
  readonly userSourceTokenAccount: PublicKey;
  readonly userDestinationTokenAccount: PublicKey;
  readonly destinationTokenAccount?: PublicKey;
  readonly destinationMint: PublicKey;
  readonly platformFeeAccount?: PublicKey;
  readonly tokenLedger: PublicKey;
  readonly remainingAccounts: readonly AccountMeta[];
}

export function getRouteWithTokenLedgerInstruction(
  accounts: RouteWithTokenLedgerInstructionAccounts,
  args: RouteWithTokenLedgerInstructionData,
): TransactionInstruction {
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
      readonlyAccount(accounts.tokenLedger),
      readonlyAccount(findEventAuthority()),
      readonlyAccount(JUPITER_V6_PROGRAM_ID),
      ...accounts.remainingAccounts,
    ],
    data: Buffer.from(getRouteWithTokenLedgerInstructionDataCodec().encode(args)),
  });
}
