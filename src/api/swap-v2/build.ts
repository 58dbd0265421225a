/**
 * Jupiter's Swap API v2 `build`: one call = the quote engine's best ExactIn route for the taker,
 * then the swap builder's instructions with the swap instruction re-encoded in Jupiter v6's v2
 * family (`route_v2` / `shared_accounts_route_v2`, core/swap/route-v2.ts; the v1 instruction
 * stays when the quote has a platform fee, which v2 cannot carry). The lookup tables are returned
 * with their contents (`addressesByLookupTableAddress`).
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { toRouteV2 } from "../../core/swap/route-v2.js";
import type { PrioritizationInput } from "../../core/swap/request.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import { ValidationError } from "../../core/validation-error.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import type { SwapInstructionsOperation, SwapInstructionsOutcome } from "../swap/swap-instructions.js";

/** The request as it arrives (REST query strings or proto values). */
export interface BuildInput {
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
  readonly amount?: unknown;
  readonly taker?: unknown;
  readonly slippageBps?: unknown;
  readonly swapMode?: unknown;
  readonly dexes?: readonly string[] | undefined;
  readonly excludeDexes?: readonly string[] | undefined;
  readonly maxAccounts?: unknown;
  readonly platformFeeBps?: unknown;
  readonly feeAccount?: unknown;
  readonly mode?: unknown;
  readonly payer?: unknown;
}

export interface BuildOutcome {
  readonly quote: QuoteResponseJson;
  readonly instructions: SwapInstructionsOutcome;
  /** Which instruction family the swap instruction is in. */
  readonly instructionVersion: "V1" | "V2";
  readonly taker: PublicKey;
  readonly payer: PublicKey;
  readonly totalTimeMs: number;
}

export type BuildOperation = (input: BuildInput, prioritization?: PrioritizationInput) => Promise<BuildOutcome>;

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

function requiredKey(field: string, value: unknown): PublicKey {
  if (!present(value)) throw new ValidationError(field, "required", "is required");
  if (typeof value !== "string") throw new ValidationError(field, "pubkey", "must be a base58 public key");
  try {
    return publicKeyFromBase58(value);
  } catch {
    throw new ValidationError(field, "pubkey", "must be a base58 public key");
  }
}

/** v2 takes only ExactIn and `mode` "fast" (or nothing); anything else is refused by name. */
function checkV2Fields(input: BuildInput): void {
  if (present(input.swapMode) && input.swapMode !== "ExactIn") {
    throw new ValidationError("swapMode", "exactIn", "is not supported by Swap API v2: it is ExactIn only");
  }
  if (present(input.mode) && input.mode !== "fast") {
    throw new ValidationError("mode", "enum", 'must be "fast" or absent');
  }
  const feeBps = Number(input.platformFeeBps ?? 0);
  if (feeBps > 0 && !present(input.feeAccount)) {
    throw new ValidationError("feeAccount", "required", "is required when platformFeeBps is positive");
  }
}

export function createBuild(deps: {
  readonly engine: Pick<QuoteEngine, "quote">;
  readonly swapInstructions: SwapInstructionsOperation;
  readonly chain: Pick<SolanaChain, "getMints">;
  readonly clock?: () => number;
}): BuildOperation {
  const clock = deps.clock ?? (() => performance.now());
  return async function build(input, prioritization) {
    const started = clock();
    checkV2Fields(input);
    const taker = requiredKey("taker", input.taker);
    const payer = present(input.payer) ? requiredKey("payer", input.payer) : taker;
    const { response: quote } = await deps.engine.quote({
      inputMint: input.inputMint,
      outputMint: input.outputMint,
      amount: input.amount,
      slippageBps: input.slippageBps,
      swapMode: "ExactIn",
      dexes: input.dexes,
      excludeDexes: input.excludeDexes,
      maxAccounts: input.maxAccounts,
      platformFeeBps: input.platformFeeBps,
    });
    const built = await deps.swapInstructions({
      userPublicKey: taker.toBase58(),
      quote,
      ...(payer.equals(taker) ? {} : { payer: payer.toBase58() }),
      ...(present(input.feeAccount) ? { feeAccount: String(input.feeAccount) } : {}),
      ...(prioritization ? { prioritization } : {}),
    });
    const mints = await deps.chain.getMints([publicKeyFromBase58(quote.inputMint), publicKeyFromBase58(quote.outputMint)]);
    const source = mints.get(quote.inputMint);
    const destination = mints.get(quote.outputMint);
    const v2 =
      source && destination
        ? toRouteV2(built.swapInstruction, {
            sourceMint: source.address,
            sourceTokenProgram: source.programId,
            destinationTokenProgram: destination.programId,
          })
        : undefined;
    return {
      quote,
      instructions: v2 ? { ...built, swapInstruction: v2 } : built,
      instructionVersion: v2 ? "V2" : "V1",
      taker,
      payer,
      totalTimeMs: clock() - started,
    };
  };
}
