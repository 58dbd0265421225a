import type { PublicKey } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { associatedTokenAddress, decodeMintInfo } from "../solana/token-accounts.js";
import type { MintInfo } from "../solana/token-accounts.js";
import { SwapPreconditionError } from "./precondition-error.js";
import { usesSharedAccounts } from "./route-accounts.js";
import type { ResolvedRoute } from "./route-accounts.js";
import type { ImmutablePoolCache, RoutePool } from "./route-pools.js";
import type { ParsedSwapRequest } from "./request.js";
import { base58Of } from "../solana/base58-strings.js";

function unique(keys: readonly PublicKey[]): PublicKey[] {
  const seen = new Map<string, PublicKey>();
  for (const key of keys) seen.set(base58Of(key), key);
  return [...seen.values()];
}

/** Every mint of the route: input, intermediates, output. */
export function routeMints(parsed: ParsedSwapRequest): PublicKey[] {
  return unique([parsed.quote.inputMint, ...parsed.quote.routePlan.map((s) => s.outputMint), parsed.quote.outputMint]);
}

/**
 * The user accounts whose existence decides setup instructions. A mint's token program is not
 * known before its account is read, so the ATA under both token programs is listed (the builder
 * picks the right one); wSOL is always classic Token.
 */
function userAccountsToCheck(parsed: ParsedSwapRequest, mints: readonly PublicKey[]): PublicKey[] {
  if (parsed.skipUserAccountsRpcCalls) return [];
  const owned: PublicKey[] = [];
  if (parsed.destinationTokenAccount === undefined) owned.push(parsed.quote.outputMint);
  if (parsed.quote.inputMint.equals(NATIVE_MINT) && parsed.wrapAndUnwrapSol) owned.push(NATIVE_MINT);
  if (!usesSharedAccounts(parsed)) owned.push(...mints.slice(1, -1));
  return unique(
    owned.flatMap((mint) =>
      mint.equals(NATIVE_MINT)
        ? [associatedTokenAddress(parsed.user, mint, TOKEN_PROGRAM_ID)]
        : [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID].map((program) => associatedTokenAddress(parsed.user, mint, program)),
    ),
  );
}

/**
 * The keys a request's reads are planned from, derived once per request and passed along (the
 * user accounts are ATA derivations, each a PDA search).
 */
export interface RouteReadKeys {
  /** Every mint of the route (`routeMints`). */
  readonly mints: readonly PublicKey[];
  /** The user accounts whose existence decides setup instructions; none with `skipUserAccountsRpcCalls`. */
  readonly userAccounts: readonly PublicKey[];
}

export function routeReadKeys(parsed: ParsedSwapRequest): RouteReadKeys {
  const mints = routeMints(parsed);
  return { mints, userAccounts: userAccountsToCheck(parsed, mints) };
}

/**
 * The first (and usually only) batched read: pools not in the immutable-pool cache, every mint
 * of the route, the fee account (its mint is checked), and the user accounts of `keys`.
 */
export function planAccountReads(parsed: ParsedSwapRequest, keys: RouteReadKeys, poolCache?: ImmutablePoolCache): PublicKey[] {
  const pools = parsed.quote.routePlan.map((s) => s.ammKey).filter((key) => !poolCache?.has(base58Of(key)));
  return unique([...pools, ...keys.mints, ...(parsed.feeAccount ? [parsed.feeAccount] : []), ...keys.userAccounts]);
}

/**
 * Accounts whose recent prioritization fees price the transaction (`getRecentPrioritizationFees`):
 * the pools (writable in every AMM); none (= global) with `priorityLevelWithMaxLamports.global`.
 */
export function planPriorityFeeAccounts(parsed: ParsedSwapRequest): PublicKey[] {
  const p = parsed.prioritization;
  if (p.kind === "priorityLevel" && p.global) return [];
  return unique(parsed.quote.routePlan.map((s) => s.ammKey));
}

/** Mint infos of the route's mints (`RouteReadKeys.mints`) from the first read; a missing mint is a precondition failure. */
export function mintsFromAccounts(routeMintKeys: readonly PublicKey[], accounts: AccountMap): Map<string, MintInfo> {
  const mints = new Map<string, MintInfo>();
  for (const mint of routeMintKeys) {
    const account = accounts.get(base58Of(mint));
    const info = account ? decodeMintInfo(account) : undefined;
    if (!info) throw new SwapPreconditionError("MINT_NOT_FOUND", `mint ${base58Of(mint)} not found or not a token mint`);
    mints.set(base58Of(mint), info);
  }
  return mints;
}

/**
 * The second read, when an AMM needs more than its pool (tick arrays, bin arrays, markets):
 * each adapter's `dependencies` for the step's swap, minus what was already read. `route` is
 * the request's `resolveRoute`, resolved once by the caller and passed on to the builder too.
 */
export function planDependencies(inputs: { readonly accounts: AccountMap; readonly pools: readonly RoutePool[]; readonly route: ResolvedRoute }): PublicKey[] {
  const keys = inputs.route.steps.flatMap((step, i) => {
    const { adapter, pool } = inputs.pools[i];
    return adapter.dependencies(pool, step.params);
  });
  return unique(keys).filter((key) => !inputs.accounts.has(base58Of(key)));
}
