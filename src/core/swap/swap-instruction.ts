import type { AccountMeta, PublicKey, TransactionInstruction } from "@solana/web3.js";
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

/** What every variant of the instruction takes: the route plan, the steps' accounts, the fee, the Token-2022 slot. */
interface RouteInstructionParts {
  readonly routePlan: RoutePlanStep[];
  readonly remainingAccounts: AccountMeta[];
  readonly platformFeeBps: number;
  readonly token2022Program: PublicKey | undefined;
}

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
  const destinationProgram = mintInfo(mints, parsed.quote.outputMint).tokenProgram;
  const parts = routeInstructionParts(parsed, route, stepAccounts, mints);
  if (route.shared) return sharedAccountsInstruction(parsed, route, parts);
  if (parsed.quote.swapMode === "ExactOut") return exactOutRouteInstruction(parsed, route, parts);
  return routeInstruction(parsed, route, parts, destinationProgram);
}

function routeInstructionParts(
  parsed: ParsedSwapRequest,
  route: ResolvedRoute,
  stepAccounts: readonly SwapAndAccountMetas[],
  mints: MintMap,
): RouteInstructionParts {
  const { quote } = parsed;
  const routePlan: RoutePlanStep[] = route.steps.map((step, i) => ({
    swap: stepAccounts[i].swap,
    percent: quote.routePlan[i].percent,
    inputIndex: step.inputIndex,
    outputIndex: step.outputIndex,
  }));
  const remainingAccounts: AccountMeta[] = stepAccounts.flatMap((s) => s.accounts);
  // Appended after the steps: the program stops reading at the last step, so it is carried, not used.
  if (parsed.trackingAccount) remainingAccounts.push(readonlyAccount(parsed.trackingAccount));
  // The optional token_2022_program slot is filled when any mint of the route is a Token-2022 mint.
  const token2022Program = route.slotMints.some((mint) => mintInfo(mints, mint).tokenProgram.equals(TOKEN_2022_PROGRAM_ID)) ? TOKEN_2022_PROGRAM_ID : undefined;
  return { routePlan, remainingAccounts, platformFeeBps: quote.platformFee?.feeBps ?? 0, token2022Program };
}

/** `shared_accounts_route` / `shared_accounts_exact_out_route`: the steps swap between the program authority's accounts. */
function sharedAccountsInstruction(parsed: ParsedSwapRequest, route: ResolvedRoute, parts: RouteInstructionParts): TransactionInstruction {
  const { quote } = parsed;
  const { routePlan, platformFeeBps } = parts;
  const accounts = {
    tokenProgram: TOKEN_PROGRAM_ID,
    programAuthority: route.programAuthority,
    userTransferAuthority: parsed.user,
    sourceTokenAccount: route.userSourceTokenAccount,
    programSourceTokenAccount: route.slotAccounts[0],
    programDestinationTokenAccount: route.slotAccounts[route.slotAccounts.length - 1],
    destinationTokenAccount: route.userDestinationTokenAccount,
    sourceMint: quote.inputMint,
    destinationMint: quote.outputMint,
    platformFeeAccount: parsed.feeAccount,
    token2022Program: parts.token2022Program,
    remainingAccounts: parts.remainingAccounts,
  };
  const id = route.programAuthorityId;
  return quote.swapMode === "ExactOut"
    ? getSharedAccountsExactOutRouteInstruction(accounts, {
        id,
        routePlan,
        outAmount: quote.outAmount,
        quotedInAmount: quote.inAmount,
        slippageBps: quote.slippageBps,
        platformFeeBps,
      })
    : getSharedAccountsRouteInstruction(accounts, {
        id,
        routePlan,
        inAmount: quote.inAmount,
        quotedOutAmount: quote.outAmount,
        slippageBps: quote.slippageBps,
        platformFeeBps,
      });
}

/** `exact_out_route` with the user's own token accounts. */
function exactOutRouteInstruction(parsed: ParsedSwapRequest, route: ResolvedRoute, parts: RouteInstructionParts): TransactionInstruction {
  const { quote } = parsed;
  return getExactOutRouteInstruction(
    {
      tokenProgram: TOKEN_PROGRAM_ID,
      userTransferAuthority: parsed.user,
      userSourceTokenAccount: route.userSourceTokenAccount,
      userDestinationTokenAccount: route.userDestinationTokenAccount,
      sourceMint: quote.inputMint,
      destinationMint: quote.outputMint,
      platformFeeAccount: parsed.feeAccount,
      token2022Program: parts.token2022Program,
      remainingAccounts: parts.remainingAccounts,
    },
    {
      routePlan: parts.routePlan,
      outAmount: quote.outAmount,
      quotedInAmount: quote.inAmount,
      slippageBps: quote.slippageBps,
      platformFeeBps: parts.platformFeeBps,
    },
  );
}

/** `route` with the user's own token accounts. */
function routeInstruction(
  parsed: ParsedSwapRequest,
  route: ResolvedRoute,
  parts: RouteInstructionParts,
  destinationProgram: PublicKey,
): TransactionInstruction {
  const { quote } = parsed;
  return getRouteInstruction(
    {
      // Jupiter's builder passes the destination mint's token program for `route`.
      tokenProgram: destinationProgram,
      userTransferAuthority: parsed.user,
      userSourceTokenAccount: route.userSourceTokenAccount,
      userDestinationTokenAccount: route.userDestinationTokenAccount,
      // SOL output paid out as lamports (`nativeDestinationAccount`; the program does it in the v2 family).
      ...(parsed.nativeDestinationAccount ? { destinationTokenAccount: parsed.nativeDestinationAccount } : {}),
      destinationMint: quote.outputMint,
      platformFeeAccount: parsed.feeAccount,
      remainingAccounts: parts.remainingAccounts,
    },
    {
      routePlan: parts.routePlan,
      inAmount: quote.inAmount,
      quotedOutAmount: quote.outAmount,
      slippageBps: quote.slippageBps,
      platformFeeBps: parts.platformFeeBps,
    },
  );
}
