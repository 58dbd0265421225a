import type { AccountMeta, TransactionInstruction } from "@solana/web3.js";
import type { SwapAndAccountMetas } from "../amm/adapter.js";
import { getExactOutRouteInstruction } from "../jupiter/instructions/exact-out-route.js";
import { getRouteInstruction } from "../jupiter/instructions/route.js";
import { getSharedAccountsExactOutRouteInstruction } from "../jupiter/instructions/shared-accounts-exact-out-route.js";
import { getSharedAccountsRouteInstruction } from "../jupiter/instructions/shared-accounts-route.js";
import type { RoutePlanStep } from "../jupiter/route-plan.js";
import { readonlyAccount } from "../solana/account-meta.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import type { MintMap } from "../solana/token-accounts.js";
import type { ResolvedRoute } from "./route-accounts.js";
import { mintInfo } from "./route-accounts.js";
import type { ParsedSwapRequest } from "./request.js";

/**
 * The Jupiter v6 instruction for a resolved route: `route` / `exact_out_route` with the user's
 * own token accounts, `shared_accounts_*` through the program authority's. Fixed accounts in the
 * program's order (absent optionals = JUP6), then every step's accounts, then the tracking account.
 */
export function jupiterSwapInstruction(
  parsed: ParsedSwapRequest,
  route: ResolvedRoute,
  stepAccounts: readonly SwapAndAccountMetas[],
  mints: MintMap,
): TransactionInstruction {
  const { quote } = parsed;
  const routePlan: RoutePlanStep[] = route.steps.map((step, i) => ({
    swap: stepAccounts[i]!.swap,
    percent: quote.routePlan[i]!.percent,
    inputIndex: step.inputIndex,
    outputIndex: step.outputIndex,
  }));
  const remainingAccounts: AccountMeta[] = stepAccounts.flatMap((s) => s.accounts);
  // Appended after the steps: the program stops reading at the last step, so it is carried, not used.
  if (parsed.trackingAccount) remainingAccounts.push(readonlyAccount(parsed.trackingAccount));

  const platformFeeBps = quote.platformFee?.feeBps ?? 0;
  const destinationProgram = mintInfo(mints, quote.outputMint).tokenProgram;
  // The optional token_2022_program slot is filled when any mint of the route is a Token-2022 mint.
  const token2022Program = route.slotMints.some((mint) => mintInfo(mints, mint).tokenProgram.equals(TOKEN_2022_PROGRAM_ID))
    ? TOKEN_2022_PROGRAM_ID
    : undefined;
  const exactOut = quote.swapMode === "ExactOut";

  if (route.shared) {
    const accounts = {
      tokenProgram: TOKEN_PROGRAM_ID,
      programAuthority: route.programAuthority,
      userTransferAuthority: parsed.user,
      sourceTokenAccount: route.userSourceTokenAccount,
      programSourceTokenAccount: route.slotAccounts[0]!,
      programDestinationTokenAccount: route.slotAccounts[route.slotAccounts.length - 1]!,
      destinationTokenAccount: route.userDestinationTokenAccount,
      sourceMint: quote.inputMint,
      destinationMint: quote.outputMint,
      platformFeeAccount: parsed.feeAccount,
      token2022Program,
      remainingAccounts,
    };
    return exactOut
      ? getSharedAccountsExactOutRouteInstruction(accounts, {
          id: route.programAuthorityId,
          routePlan,
          outAmount: quote.outAmount,
          quotedInAmount: quote.inAmount,
          slippageBps: quote.slippageBps,
          platformFeeBps,
        })
      : getSharedAccountsRouteInstruction(accounts, {
          id: route.programAuthorityId,
          routePlan,
          inAmount: quote.inAmount,
          quotedOutAmount: quote.outAmount,
          slippageBps: quote.slippageBps,
          platformFeeBps,
        });
  }
  if (exactOut) {
    return getExactOutRouteInstruction(
      {
        tokenProgram: TOKEN_PROGRAM_ID,
        userTransferAuthority: parsed.user,
        userSourceTokenAccount: route.userSourceTokenAccount,
        userDestinationTokenAccount: route.userDestinationTokenAccount,
        sourceMint: quote.inputMint,
        destinationMint: quote.outputMint,
        platformFeeAccount: parsed.feeAccount,
        token2022Program,
        remainingAccounts,
      },
      {
        routePlan,
        outAmount: quote.outAmount,
        quotedInAmount: quote.inAmount,
        slippageBps: quote.slippageBps,
        platformFeeBps,
      },
    );
  }
  return getRouteInstruction(
    {
      // Jupiter's builder passes the destination mint's token program for `route`.
      tokenProgram: destinationProgram,
      userTransferAuthority: parsed.user,
      userSourceTokenAccount: route.userSourceTokenAccount,
      userDestinationTokenAccount: route.userDestinationTokenAccount,
      destinationMint: quote.outputMint,
      platformFeeAccount: parsed.feeAccount,
      remainingAccounts,
    },
    {
      routePlan,
      inAmount: quote.inAmount,
      quotedOutAmount: quote.outAmount,
      slippageBps: quote.slippageBps,
      platformFeeBps,
    },
  );
}
