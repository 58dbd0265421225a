/**
 * Jupiter's Swap API v2 `order`: Build's route and instructions assembled into one unsigned v0
 * transaction for the taker, recorded durably under a new `requestId` (the exact message, its
 * blockhash's last valid height, and what it swaps) so that Execute relays only this transaction.
 * Without a taker: the quote alone, no transaction, nothing recorded.
 *
 * Priority fee: `priorityFeeLamports` when given; else the `priorityLevel` percentile (medium 25th,
 * high 50th, veryHigh 75th) of the recent prioritization fees of the accounts the route writes,
 * capped at `maxLamports` (default 5,000,000, Jupiter's cap of "auto") — the swap builder's
 * `priorityLevelWithMaxLamports`, fed with the written accounts' fee samples.
 */
import { randomUUID } from "node:crypto";
import { compileSwapTransaction } from "../../core/swap/assemble.js";
import type { PrioritizationInput } from "../../core/swap/request.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { ValidationError } from "../../core/validation-error.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import type { Store } from "../../store/index.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import type { BuildInput, BuildOperation } from "./build.js";

/** Jupiter's cap of the automatic priority fee (0.005 SOL), also the default `maxLamports` here. */
export const DEFAULT_ORDER_MAX_LAMPORTS = 5_000_000n;
/** Lamports per signature (Solana's base fee). */
const LAMPORTS_PER_SIGNATURE = 5_000;
/** About 150 blocks of 400–600 ms: informational; Execute enforces the block height. */
const ORDER_LIFETIME_MS = 90_000;

export interface OrderInput extends BuildInput {
  readonly priorityFeeLamports?: unknown;
  readonly priorityLevel?: unknown;
  readonly maxLamports?: unknown;
}

export interface OrderOutcome {
  readonly mode: "ultra" | "manual";
  readonly quote: QuoteResponseJson;
  readonly transaction: Uint8Array | null;
  readonly requestId: string;
  readonly lastValidBlockHeight: bigint | null;
  readonly expireAt: Date | null;
  readonly taker: string | null;
  readonly payer: string | null;
  readonly signatureFeeLamports: number;
  readonly prioritizationFeeLamports: number;
  readonly totalTimeMs: number;
}

export type OrderOperation = (input: OrderInput) => Promise<OrderOutcome>;

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

const PRIORITY_LEVELS = new Set(["medium", "high", "veryHigh"]);

function u64Text(field: string, value: unknown): string {
  const text = typeof value === "bigint" || typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^\d{1,20}$/.test(text) || BigInt(text) > 0xffff_ffff_ffff_ffffn) {
    throw new ValidationError(field, "u64", "must be a non-negative integer (u64)");
  }
  return text;
}

/** The order's fee rule (see the module comment); bad values are refused by their query name. */
export function orderPrioritization(input: OrderInput): PrioritizationInput {
  if (present(input.priorityFeeLamports)) {
    return { kind: "lamports", lamports: u64Text("priorityFeeLamports", input.priorityFeeLamports) };
  }
  const level = present(input.priorityLevel) ? input.priorityLevel : "medium";
  if (typeof level !== "string" || !PRIORITY_LEVELS.has(level)) {
    throw new ValidationError("priorityLevel", "enum", 'must be "medium", "high" or "veryHigh"');
  }
  const maxLamports = present(input.maxLamports) ? u64Text("maxLamports", input.maxLamports) : DEFAULT_ORDER_MAX_LAMPORTS.toString();
  return { kind: "priorityLevel", level, maxLamports };
}

/** Jupiter answers `mode` "manual" when optional parameters were used, "ultra" otherwise. */
function modeOf(input: OrderInput): "ultra" | "manual" {
  const optional = [input.slippageBps, input.excludeDexes?.length ? input.excludeDexes : undefined, input.priorityFeeLamports, input.priorityLevel, input.maxLamports, input.payer];
  return optional.some(present) ? "manual" : "ultra";
}

/** What an issued swap transaction is: its exact message and what it swaps. */
export interface SwapToIssue {
  readonly message: Uint8Array;
  readonly lastValidBlockHeight: bigint;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

/**
 * Records an issued swap transaction under a new requestId (UUID v4), all or nothing: the message
 * Execute will accept (issued kind "swap") and what it swaps. Returns the requestId.
 */
export async function issueSwap(store: Pick<Store, "transaction">, swap: SwapToIssue): Promise<{ requestId: string; expireAt: Date }> {
  const requestId = randomUUID();
  const expireAt = new Date(Date.now() + ORDER_LIFETIME_MS);
  await store.transaction(async (stores) => {
    await stores.issuedTransactions.record([
      {
        requestId,
        txIndex: 0,
        kind: "swap",
        maker: swap.taker,
        orderKeys: [],
        message: swap.message,
        messageHash: transactionMessageHash(swap.message),
        lastValidBlockHeight: swap.lastValidBlockHeight,
        expiresAt: expireAt,
      },
    ]);
    await stores.swapOrders.record({
      requestId,
      taker: swap.taker,
      inputMint: swap.inputMint,
      outputMint: swap.outputMint,
      inAmount: swap.inAmount,
      outAmount: swap.outAmount,
    });
  });
  return { requestId, expireAt };
}

export function createOrder(deps: {
  readonly build: BuildOperation;
  readonly engine: Pick<QuoteEngine, "quote">;
  readonly store: Pick<Store, "transaction">;
  readonly clock?: () => number;
}): OrderOperation {
  const clock = deps.clock ?? (() => performance.now());
  return async function order(input) {
    const started = clock();
    const mode = modeOf(input);
    if (!present(input.taker)) {
      const { response } = await deps.engine.quote({
        inputMint: input.inputMint,
        outputMint: input.outputMint,
        amount: input.amount,
        slippageBps: input.slippageBps,
        swapMode: input.swapMode ?? "ExactIn",
        excludeDexes: input.excludeDexes,
      });
      return {
        mode,
        quote: response,
        transaction: null,
        requestId: randomUUID(),
        lastValidBlockHeight: null,
        expireAt: null,
        taker: null,
        payer: null,
        signatureFeeLamports: 0,
        prioritizationFeeLamports: 0,
        totalTimeMs: clock() - started,
      };
    }
    const prioritization = orderPrioritization(input);
    const built = await deps.build(input, prioritization);
    const { instructions } = built;
    const { transaction: tx, wire } = compileSwapTransaction(
      instructions,
      built.payer,
      instructions.blockhashWithMetadata.blockhash,
      instructions.lookupTableAccounts,
    );
    const message = tx.message.serialize();
    const lastValidBlockHeight = instructions.blockhashWithMetadata.lastValidBlockHeight;
    const taker = built.taker.toBase58();
    const { requestId, expireAt } = await issueSwap(deps.store, {
      message: tx.message.serialize(),
      lastValidBlockHeight,
      taker,
      inputMint: built.quote.inputMint,
      outputMint: built.quote.outputMint,
      inAmount: BigInt(built.quote.inAmount),
      outAmount: BigInt(built.quote.outAmount),
    });
    return {
      mode,
      quote: built.quote,
      transaction: wire,
      requestId,
      lastValidBlockHeight,
      expireAt,
      taker,
      payer: built.payer.toBase58(),
      signatureFeeLamports: LAMPORTS_PER_SIGNATURE * tx.message.header.numRequiredSignatures,
      prioritizationFeeLamports: Number(instructions.prioritizationFeeLamports),
      totalTimeMs: clock() - started,
    };
  };
}
