/**
 * The swap instruction in Jupiter's v2 family, from the builder's v1 instruction: the same route
 * (steps, their accounts, amounts, slippage) re-encoded as `route_v2` / `shared_accounts_route_v2`.
 * Swap API v2 (`/swap/v2/build`, `/order`) answers with these. Only what v2 can express is
 * converted: ExactIn without a platform fee (v2 has no platform fee account in its fixed
 * accounts); anything else keeps the v1 instruction (`undefined` here).
 */
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { hasDiscriminator } from "../solana/discriminator.js";
import { JUPITER_V6_PROGRAM_ID } from "../solana/programs.js";
import { getRouteInstructionDataCodec, ROUTE_DISCRIMINATOR } from "../jupiter/instructions/route.js";
import { getSharedAccountsRouteInstructionDataCodec, SHARED_ACCOUNTS_ROUTE_DISCRIMINATOR } from "../jupiter/instructions/shared-accounts-route.js";
import { getRouteV2Instruction, getSharedAccountsRouteV2Instruction } from "../jupiter/instructions/route-v2.js";
import type { RoutePlanStepV2 } from "../jupiter/instructions/route-v2.js";
import type { RoutePlanStep } from "../jupiter/route-plan.js";

export interface RouteV2Context {
  readonly sourceMint: PublicKey;
  readonly sourceTokenProgram: PublicKey;
  readonly destinationTokenProgram: PublicKey;
}

/** Fixed accounts in front of the route steps' accounts: `route` 9, `shared_accounts_route` 13. */
const ROUTE_FIXED_ACCOUNTS = 9;
const SHARED_FIXED_ACCOUNTS = 13;

function v2Steps(plan: readonly RoutePlanStep[]): RoutePlanStepV2[] {
  return plan.map((s) => ({ swap: s.swap, bps: s.percent * 100, inputIndex: s.inputIndex, outputIndex: s.outputIndex }));
}

/** The v2 form of a v1 ExactIn swap instruction, or undefined when v2 cannot express it. */
export function toRouteV2(ix: TransactionInstruction, context: RouteV2Context): TransactionInstruction | undefined {
  if (!ix.programId.equals(JUPITER_V6_PROGRAM_ID)) return undefined;
  const keys = ix.keys;
  if (hasDiscriminator(ix.data, ROUTE_DISCRIMINATOR)) {
    const args = getRouteInstructionDataCodec().decode(ix.data);
    if (args.platformFeeBps !== 0) return undefined;
    // route: token_program, user, user_source, user_destination, destination_token_account?, destination_mint, fee?, event authority, program
    const destination = keys[4].pubkey.equals(JUPITER_V6_PROGRAM_ID) ? undefined : keys[4].pubkey;
    return getRouteV2Instruction(
      {
        userTransferAuthority: keys[1].pubkey,
        userSourceTokenAccount: keys[2].pubkey,
        userDestinationTokenAccount: keys[3].pubkey,
        sourceMint: context.sourceMint,
        destinationMint: keys[5].pubkey,
        sourceTokenProgram: context.sourceTokenProgram,
        destinationTokenProgram: context.destinationTokenProgram,
        ...(destination ? { destinationTokenAccount: destination } : {}),
        remainingAccounts: keys.slice(ROUTE_FIXED_ACCOUNTS),
      },
      {
        inAmount: args.inAmount,
        quotedOutAmount: args.quotedOutAmount,
        slippageBps: args.slippageBps,
        platformFeeBps: 0,
        positiveSlippageBps: 0,
        routePlan: v2Steps(args.routePlan),
      },
    );
  }
  if (hasDiscriminator(ix.data, SHARED_ACCOUNTS_ROUTE_DISCRIMINATOR)) {
    const args = getSharedAccountsRouteInstructionDataCodec().decode(ix.data);
    if (args.platformFeeBps !== 0) return undefined;
    // shared_accounts_route: token_program, authority, user, source, program source, program destination,
    // destination, source mint, destination mint, fee?, token_2022?, event authority, program
    return getSharedAccountsRouteV2Instruction(
      {
        programAuthority: keys[1].pubkey,
        userTransferAuthority: keys[2].pubkey,
        sourceTokenAccount: keys[3].pubkey,
        programSourceTokenAccount: keys[4].pubkey,
        programDestinationTokenAccount: keys[5].pubkey,
        destinationTokenAccount: keys[6].pubkey,
        sourceMint: keys[7].pubkey,
        destinationMint: keys[8].pubkey,
        sourceTokenProgram: context.sourceTokenProgram,
        destinationTokenProgram: context.destinationTokenProgram,
        remainingAccounts: keys.slice(SHARED_FIXED_ACCOUNTS),
      },
      {
        id: args.id,
        inAmount: args.inAmount,
        quotedOutAmount: args.quotedOutAmount,
        slippageBps: args.slippageBps,
        platformFeeBps: 0,
        positiveSlippageBps: 0,
        routePlan: v2Steps(args.routePlan),
      },
    );
  }
  return undefined;
}
