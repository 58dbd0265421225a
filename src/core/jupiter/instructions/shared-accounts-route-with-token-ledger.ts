import { getArrayCodec, getU16Codec, getU64Codec, getU8Codec } from "@solana/kit";
import type { Codec } from "@solana/kit";
import { TransactionInstruction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID } from "../../solana/programs.js";
import { getRoutePlanStepCodec } from "../route-plan.js";
import type { RoutePlanStep } from "../route-plan.js";
import { readonlyAccount } from "../../solana/account-meta.js";
import { withDiscriminator } from "../../solana/anchor-instruction-data.js";
import { sharedAccountsMetas } from "./shared-accounts-route.js";
import type { SharedAccountsInstructionAccounts } from "./shared-accounts-route.js";

/** sha256("global:shared_accounts_route_with_token_ledger")[0..8] */
export const SHARED_ACCOUNTS_ROUTE_WITH_TOKEN_LEDGER_DISCRIMINATOR = new Uint8Array([230, 121, 143, 80, 119, 159, 106, 170]);

export interface SharedAccountsRouteWithTokenLedgerInstructionData {
  readonly id: number;
  readonly routePlan: readonly RoutePlanStep[];
  readonly quotedOutAmount: bigint;
  readonly slippageBps: number;
  readonly platformFeeBps: number;
}

// Built once: composing the codec is much more work than encoding with it.
let dataCodec: Codec<SharedAccountsRouteWithTokenLedgerInstructionData> | undefined;

export function getSharedAccountsRouteWithTokenLedgerInstructionDataCodec(): Codec<SharedAccountsRouteWithTokenLedgerInstructionData> {
  return (dataCodec ??= withDiscriminator<SharedAccountsRouteWithTokenLedgerInstructionData>(
    "shared_accounts_route_with_token_ledger",
    SHARED_ACCOUNTS_ROUTE_WITH_TOKEN_LEDGER_DISCRIMINATOR,
    [
      ["id", getU8Codec()],
      ["routePlan", getArrayCodec(getRoutePlanStepCodec())],
      ["quotedOutAmount", getU64Codec()],
      ["slippageBps", getU16Codec()],
      ["platformFeeBps", getU8Codec()],
    ],
  ));
}

export function getSharedAccountsRouteWithTokenLedgerInstruction(
  accounts: SharedAccountsInstructionAccounts & { readonly tokenLedger: PublicKey },
  args: SharedAccountsRouteWithTokenLedgerInstructionData,
): TransactionInstruction {
  const keys = sharedAccountsMetas(accounts);
  keys.splice(11, 0, readonlyAccount(accounts.tokenLedger)); // after token_2022_program
  return new TransactionInstruction({
    programId: JUPITER_V6_PROGRAM_ID,
    keys,
    data: Buffer.from(getSharedAccountsRouteWithTokenLedgerInstructionDataCodec().encode(args)),
  });
}
