import { getArrayCodec, getU16Codec, getU64Codec, getU8Codec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import { TransactionInstruction } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID } from "../../solana/programs.js";
import { getRoutePlanStepCodec } from "../route-plan.js";
import type { RoutePlanStep } from "../route-plan.js";
import { withDiscriminator } from "../../solana/anchor-instruction-data.js";
import { sharedAccountsMetas } from "./shared-accounts-route.js";
import type { SharedAccountsInstructionAccounts } from "./shared-accounts-route.js";

/** sha256("global:shared_accounts_exact_out_route")[0..8] */
export const SHARED_ACCOUNTS_EXACT_OUT_ROUTE_DISCRIMINATOR = new Uint8Array([176, 209, 105, 168, 154, 125, 69, 62]);

export interface SharedAccountsExactOutRouteInstructionData {
  readonly id: number;
  readonly routePlan: readonly RoutePlanStep[];
  readonly outAmount: bigint;
  readonly quotedInAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<SharedAccountsExactOutRouteInstructionData> | undefined;

export function getSharedAccountsExactOutRouteInstructionDataCodec(): Codec<SharedAccountsExactOutRouteInstructionData> {
  return (dataCodec ??= withDiscriminator<SharedAccountsExactOutRouteInstructionData>(
    "shared_accounts_exact_out_route",
    SHARED_ACCOUNTS_EXACT_OUT_ROUTE_DISCRIMINATOR,
    [
      ["id", getU8Codec()],
      ["routePlan", getArrayCodec(getRoutePlanStepCodec())],
      ["outAmount", getU64Codec()],
      ["quotedInAmount", getU64Codec()],
      ["slippageBps", getU16Codec()],
      ["platformFeeBps", getU8Codec()],
    ],
  ));
}

/** `shared_accounts_exact_out_route`: through the program authority's token accounts, ExactOut. */
export function getSharedAccountsExactOutRouteInstruction(
  accounts: SharedAccountsInstructionAccounts,
  args: SharedAccountsExactOutRouteInstructionData,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys: sharedAccountsMetas(accounts),
    data: Buffer.from(getSharedAccountsExactOutRouteInstructionDataCodec().encode(args)),
  });
}
