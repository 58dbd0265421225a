import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { SystemProgram } from "@solana/web3.js";
import { AmmError } from "../amm/adapter.js";
import type { SwapAndAccountMetas } from "../amm/adapter.js";
import type { AccountMap } from "../solana/account.js";
import { tokenAccountMint } from "../solana/token-accounts.js";
import type { MintMap } from "../solana/token-accounts.js";
import { ValidationError } from "../validation-error.js";
import { computeBudgetInstructions } from "../solana/compute-budget.js";
import { DEFAULT_COMPUTE_UNIT_LIMIT, computeUnitPrice, priorityFeeLamports, pricingFor } from "./compute-budget.js";
import type { ComputeUnitPricing } from "./compute-budget.js";
import { orderedInstructions } from "./assemble.js";
import type { InstructionGroups } from "./assemble.js";
import { selectLookupTables } from "./lookup-tables.js";
import type { LookupTable } from "./lookup-tables.js";
import { SwapPreconditionError } from "./precondition-error.js";
import type { ResolvedRoute } from "./route-accounts.js";
import { stepOf } from "./route-pools.js";
import type { RoutePool } from "./route-pools.js";
import type { ParsedSwapRequest } from "./request.js";
import { cleanupInstruction, setupInstructions } from "./setup.js";
import { jupiterSwapInstruction } from "./swap-instruction.js";
import { base58Of } from "../solana/base58-strings.js";
import type { PrioritizationType, SwapInstructionsResult } from "./swap-instructions-result.js";

export type { PrioritizationType, SwapInstructionsResult } from "./swap-instructions-result.js";

export interface SwapBuildInputs {
  /** Everything read so far (pools, mints, user accounts, dependencies); `null` = read, missing. */
  readonly accounts: AccountMap;
  /** Each route step's decoded pool (see decodeRoutePools). */
  readonly pools: readonly RoutePool[];
  readonly mints: MintMap;
  /** Recent prioritization fees (µlamports per CU) for the estimate modes. */
  readonly prioritizationFees?: readonly number[];
  /** Where a relay tip goes (chosen by the caller from RELAY_TIP_ACCOUNTS). */
  readonly relayTipAccount?: PublicKey;
  readonly lookupTables?: readonly LookupTable[];
  /**
   * The request's token accounts and step indices: `resolveRoute(parsed, mints, programAuthorityId)`,
   * resolved once by the caller (who also plans the dependencies from it); the program authority id
   * 0–7 is chosen there, e.g. at random, so tests are deterministic.
   */
  readonly route: ResolvedRoute;
}

function checkFeeAccount(parsed: ParsedSwapRequest, accounts: AccountMap): void {
  if (!parsed.feeAccount) return;
  const account = accounts.get(base58Of(parsed.feeAccount));
  if (account === undefined) return; // not read (skipped by the caller): the program checks it
  const mint = account ? tokenAccountMint(account) : undefined;
  if (!mint) throw new ValidationError("feeAccount", "token_account", "must be an initialized token account");
  if (!mint.equals(parsed.quote.inputMint) && !mint.equals(parsed.quote.outputMint)) {
    throw new ValidationError("feeAccount", "fee_account_mint", "its mint must be the input or the output mint");
  }
}

function budget(pricing: ComputeUnitPricing, limit: number, tipLamports?: bigint) {
  const microLamports = computeUnitPrice(pricing, limit);
  const prioritizationType: PrioritizationType | null =
    tipLamports !== undefined
      ? { kind: "relayTip", lamports: tipLamports }
      : pricing.kind === "none"
        ? null
        : {
            kind: "computeBudget",
            microLamports: microLamports ?? 0n,
            estimatedMicroLamports: pricing.kind === "estimate" ? pricing.estimatedMicroLamports : null,
          };
  return {
    computeBudgetInstructions: computeBudgetInstructions(limit, microLamports),
    computeUnitLimit: limit,
    prioritizationFeeLamports: tipLamports ?? priorityFeeLamports(limit, microLamports ?? 0n),
    prioritizationType,
  };
}

/** The instruction groups of a swap, from the parsed request and what was read. Pure. */
export function buildSwapInstructions(parsed: ParsedSwapRequest, inputs: SwapBuildInputs): SwapInstructionsResult {
  checkFeeAccount(parsed, inputs.accounts);
  const { route } = inputs;
  const stepAccounts: SwapAndAccountMetas[] = route.steps.map((step, i) => {
    const { adapter, pool } = inputs.pools[i];
    for (const mint of [step.params.sourceMint, step.params.destinationMint]) {
      const hook = inputs.mints.get(base58Of(mint))?.transferHookProgram;
      if (hook) {
        throw new SwapPreconditionError(
          "UNSUPPORTED_MINT",
          `mint ${base58Of(mint)} has a Token-2022 transfer hook (program ${base58Of(hook)}) whose extra accounts swapd does not pass`,
          stepOf(parsed.quote.routePlan[i], i),
        );
      }
    }
    try {
      return adapter.build(pool, step.params, inputs.accounts);
    } catch (error) {
      if (error instanceof AmmError) throw new SwapPreconditionError(error.code, error.message, stepOf(parsed.quote.routePlan[i], i), { cause: error });
      throw error;
    }
  });
  const swapInstruction = jupiterSwapInstruction(parsed, route, stepAccounts, inputs.mints);
  const setup = setupInstructions(parsed, route, inputs.accounts, inputs.mints);
  const cleanup = cleanupInstruction(parsed);

  const p = parsed.prioritization;
  const otherInstructions: TransactionInstruction[] = [];
  if (p.kind === "relayTip") {
    if (!inputs.relayTipAccount) throw new SwapPreconditionError("NOT_CONFIGURED", "no relay tip account configured");
    otherInstructions.push(SystemProgram.transfer({ fromPubkey: p.payer, toPubkey: inputs.relayTipAccount, lamports: p.lamports }));
  }
  let tipInstruction: TransactionInstruction | undefined;
  if (parsed.tip) {
    if (!inputs.relayTipAccount) throw new SwapPreconditionError("NOT_CONFIGURED", "no relay tip account configured");
    tipInstruction = SystemProgram.transfer({ fromPubkey: parsed.tip.payer, toPubkey: inputs.relayTipAccount, lamports: parsed.tip.lamports });
  }
  const pricing = pricingFor(p, inputs.prioritizationFees ?? []);
  const budgetPart = budget(pricing, DEFAULT_COMPUTE_UNIT_LIMIT, p.kind === "relayTip" ? p.lamports : undefined);

  const groups: InstructionGroups = {
    computeBudgetInstructions: budgetPart.computeBudgetInstructions,
    setupInstructions: setup,
    swapInstruction,
    cleanupInstruction: cleanup,
    otherInstructions,
    ...(tipInstruction ? { tipInstruction } : {}),
  };
  return {
    ...budgetPart,
    ...groups,
    addressLookupTableAddresses: parsed.asLegacyTransaction ? [] : selectLookupTables(orderedInstructions(groups), inputs.lookupTables ?? []),
    computeUnitPricing: pricing,
    payer: parsed.payer,
    asLegacyTransaction: parsed.asLegacyTransaction,
  };
}

/** Margin over simulated units for `dynamicComputeUnitLimit`: +20%, at most the 1.4M maximum. */
export const DEFAULT_COMPUTE_UNIT_MARGIN_PERCENT = 20;

/**
 * `dynamicComputeUnitLimit`: the same result with limit = simulated units + margin, and the price
 * recomputed for the modes that price a lamport total (fixed lamports, capped estimates).
 */
export function withComputeUnitLimit(
  result: SwapInstructionsResult,
  simulatedUnits: number,
  marginPercent: number = DEFAULT_COMPUTE_UNIT_MARGIN_PERCENT,
): SwapInstructionsResult {
  const withMargin = Math.ceil((simulatedUnits * (100 + marginPercent)) / 100);
  const limit = Math.max(1, Math.min(DEFAULT_COMPUTE_UNIT_LIMIT, withMargin));
  const tip = result.prioritizationType?.kind === "relayTip" ? result.prioritizationType.lamports : undefined;
  const budgetPart = budget(result.computeUnitPricing, limit, tip);
  return { ...result, ...budgetPart };
}
