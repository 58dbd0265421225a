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
import { PRIORITY_LEVELS, type PrioritizationInput } from "../../core/swap/request.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { ValidationError } from "../../core/validation-error.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import type { Store } from "../../store/index.js";
import { NoRouteError } from "../quote/no-route-error.js";
import type { SwapInstructionsOutcome } from "../swap/swap-instructions.js";
import type { BuildInput, BuildOperation, BuildOutcome } from "./build.js";
import type { AutoSlippageChoice } from "../../core/swap/auto-slippage.js";
import { parseIntegerInRange, parsePublicKey } from "../../core/request-fields.js";
import { referralTokenAccount } from "../../core/jupiter/referral.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID } from "../../core/solana/programs.js";
import type { PublicKey } from "@solana/web3.js";

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
  readonly receiver?: unknown;
  readonly referralAccount?: unknown;
  readonly referralFee?: unknown;
  readonly jitoTipLamports?: unknown;
  readonly broadcastFeeType?: unknown;
  readonly excludeRouters?: readonly string[] | undefined;
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
  /** The priority fee and the tip. */
  readonly prioritizationFeeLamports: number;
  /** Rent of the accounts the transaction creates and leaves open. */
  readonly rentFeeLamports: number;
  readonly totalTimeMs: number;
  /** The referral fee: where it goes and in which mint, when one was asked for. */
  readonly referral: { readonly account: string; readonly feeBps: number; readonly feeMint: string } | null;
  readonly autoSlippage: AutoSlippageChoice | undefined;
}

export type OrderOperation = (input: OrderInput) => Promise<OrderOutcome>;

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** Jupiter's routers (the v2 document's enum); swapd's own routing is what "metis" names. */
export const ROUTERS = ["metis", "jupiterz", "dflow", "okx"] as const;
/** Rent-exempt minimum of a 165-byte token account, lamports. */
const TOKEN_ACCOUNT_RENT_LAMPORTS = 2_039_280;

function u64Text(field: string, value: unknown): string {
  const text = typeof value === "bigint" || typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^\d{1,20}$/.test(text) || BigInt(text) > 0xffff_ffff_ffff_ffffn) {
    throw new ValidationError(field, "u64", "must be a non-negative integer (u64)");
  }
  return text;
}

/**
 * The order's fee rule: `priorityFeeLamports` paid exactly ("exactFee", the default) or as the cap of
 * the `priorityLevel` estimate ("maxCap"); without it, the `priorityLevel` percentile (medium 25th,
 * high 50th, veryHigh 75th) of the recent fees of the written accounts, capped at `maxLamports`
 * (default 5,000,000, Jupiter's cap of "auto"). Bad values are refused by their query name.
 */
export function orderPrioritization(input: OrderInput): PrioritizationInput {
  const feeType = broadcastFeeTypeOf(input.broadcastFeeType);
  const level = present(input.priorityLevel) ? input.priorityLevel : "medium";
  if (typeof level !== "string" || !(PRIORITY_LEVELS as readonly string[]).includes(level)) {
    throw new ValidationError("priorityLevel", "enum", 'must be "medium", "high" or "veryHigh"');
  }
  if (present(input.priorityFeeLamports)) {
    const lamports = u64Text("priorityFeeLamports", input.priorityFeeLamports);
    return feeType === "maxCap" ? { kind: "priorityLevel", level, maxLamports: lamports } : { kind: "lamports", lamports };
  }
  const maxLamports = present(input.maxLamports) ? u64Text("maxLamports", input.maxLamports) : DEFAULT_ORDER_MAX_LAMPORTS.toString();
  return { kind: "priorityLevel", level, maxLamports };
}

/** How `priorityFeeLamports` and `jitoTipLamports` are paid (also the API reference's list). */
export const BROADCAST_FEE_TYPES = ["maxCap", "exactFee"] as const;

function broadcastFeeTypeOf(value: unknown): (typeof BROADCAST_FEE_TYPES)[number] {
  if (!present(value)) return "exactFee";
  const type = BROADCAST_FEE_TYPES.find((t) => t === value);
  if (type === undefined) throw new ValidationError("broadcastFeeType", "enum", 'must be "maxCap" or "exactFee"');
  return type;
}

/** `excludeRouters`: Jupiter's router names; excluding "metis" (swapd's routing) leaves no route. */
function checkRouters(excludeRouters: readonly string[] | undefined): void {
  for (const router of excludeRouters ?? []) {
    if (!(ROUTERS as readonly string[]).includes(router)) {
      throw new ValidationError("excludeRouters", "enum", `must list routers among ${ROUTERS.join(", ")}, got ${JSON.stringify(router)}`);
    }
  }
  if (excludeRouters?.includes("metis")) throw new NoRouteError('excludeRouters excludes "metis", the only router swapd has');
}

/** `referralAccount` + `referralFee` (50–255 bps): both or neither. */
function referralOf(input: OrderInput): { account: PublicKey; feeBps: number } | undefined {
  if (!present(input.referralAccount) && !present(input.referralFee)) return undefined;
  if (!present(input.referralAccount)) throw new ValidationError("referralAccount", "required", "is required with referralFee");
  if (!present(input.referralFee)) throw new ValidationError("referralFee", "required", "is required with referralAccount");
  const account = parsePublicKey("referralAccount", input.referralAccount);
  const feeBps = parseIntegerInRange("referralFee", input.referralFee, 50, 255);
  return { account, feeBps };
}

/** Jupiter answers `mode` "manual" when optional parameters were used, "ultra" otherwise. */
function modeOf(input: OrderInput): "ultra" | "manual" {
  const optional = [
    input.slippageBps,
    input.excludeDexes?.length ? input.excludeDexes : undefined,
    input.excludeRouters?.length ? input.excludeRouters : undefined,
    input.priorityFeeLamports,
    input.priorityLevel,
    input.maxLamports,
    input.payer,
    input.receiver,
    input.referralAccount,
    input.jitoTipLamports,
    input.broadcastFeeType,
  ];
  return optional.some(present) ? "manual" : "ultra";
}

/** Rent the transaction leaves locked: each account its setup creates, but the wSOL account its cleanup closes. */
function rentOf(instructions: SwapInstructionsOutcome): number {
  const closed = instructions.cleanupInstruction?.keys[0]?.pubkey;
  const created = instructions.setupInstructions.filter(
    (ix) => ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID) && !(closed && ix.keys[1]?.pubkey.equals(closed)),
  );
  return created.length * TOKEN_ACCOUNT_RENT_LAMPORTS;
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

/** The built swap as one v0 transaction for the taker (at most 1,232 bytes), recorded for Execute. */
async function assembleAndIssue(store: Pick<Store, "transaction">, built: BuildOutcome) {
  const { instructions } = built;
  const { transaction: tx, wire } = compileSwapTransaction(
    instructions,
    built.payer,
    instructions.blockhashWithMetadata.blockhash,
    instructions.lookupTableAccounts,
  );
  const { requestId, expireAt } = await issueSwap(store, {
    message: tx.message.serialize(),
    lastValidBlockHeight: instructions.blockhashWithMetadata.lastValidBlockHeight,
    taker: built.taker.toBase58(),
    inputMint: built.quote.inputMint,
    outputMint: built.quote.outputMint,
    inAmount: BigInt(built.quote.inAmount),
    outAmount: BigInt(built.quote.outAmount),
  });
  return { wire, requestId, expireAt, signatures: tx.message.header.numRequiredSignatures };
}

/** Order's parameters on top of Build's: the referral's fee account, the documented subset of Build's. */
function buildInputOf(input: OrderInput, referral: { feeBps: number } | undefined, feeAccount: string | undefined): BuildInput {
  return {
    inputMint: input.inputMint,
    outputMint: input.outputMint,
    amount: input.amount,
    taker: input.taker,
    slippageBps: input.slippageBps,
    swapMode: input.swapMode,
    excludeDexes: input.excludeDexes,
    payer: input.payer,
    ...(referral ? { platformFeeBps: referral.feeBps, feeAccount } : {}),
  };
}

/** The order's build; a missing referral token account (derived here) is the referral account's fault. */
async function buildForTaker(
  build: BuildOperation,
  input: BuildInput,
  options: Parameters<BuildOperation>[1],
  referral: { readonly feeAccount: string | undefined; readonly feeMint: string | undefined } | undefined,
): Promise<BuildOutcome> {
  try {
    return await build(input, options);
  } catch (error) {
    if (referral && error instanceof ValidationError && error.field === "feeAccount") {
      throw new ValidationError(
        "referralAccount",
        "referral_token_account",
        `has no initialized referral token account ${referral.feeAccount} for the output mint ${referral.feeMint} (the referral program's initializeReferralTokenAccount creates it)`,
      );
    }
    throw error;
  }
}

export function createOrder(deps: {
  readonly build: BuildOperation;
  readonly store: Pick<Store, "transaction">;
  readonly clock?: () => number;
}): OrderOperation {
  const clock = deps.clock ?? (() => performance.now());
  return async function order(input) {
    const started = clock();
    const mode = modeOf(input);
    checkRouters(input.excludeRouters);
    const referral = referralOf(input);
    const prioritization = orderPrioritization(input);
    const tipLamports = present(input.jitoTipLamports) ? BigInt(u64Text("jitoTipLamports", input.jitoTipLamports)) : undefined;
    if (present(input.receiver)) parsePublicKey("receiver", input.receiver);
    const feeMint = present(input.outputMint) && typeof input.outputMint === "string" ? input.outputMint : undefined;
    const feeAccount = referral && feeMint ? referralTokenAccount(referral.account, parsePublicKey("outputMint", feeMint)).toBase58() : undefined;
    const buildInput = buildInputOf(input, referral, feeAccount);
    const referralOut = referral && feeMint ? { account: referral.account.toBase58(), feeBps: referral.feeBps, feeMint } : null;
    if (!present(input.taker)) {
      const quoted = await deps.build.quote(buildInput, { slippageDefault: "auto", path: "order" });
      return {
        mode,
        quote: quoted.quote,
        transaction: null,
        requestId: randomUUID(),
        lastValidBlockHeight: null,
        expireAt: null,
        taker: null,
        payer: null,
        signatureFeeLamports: 0,
        prioritizationFeeLamports: 0,
        rentFeeLamports: 0,
        totalTimeMs: clock() - started,
        referral: referralOut,
        autoSlippage: quoted.autoSlippage,
      };
    }
    const built = await buildForTaker(
      deps.build,
      buildInput,
      {
        prioritization,
        slippageDefault: "auto",
        path: "order",
        ...(present(input.receiver) ? { receiver: String(input.receiver) } : {}),
        ...(tipLamports !== undefined ? { tipLamports } : {}),
      },
      referral ? { feeAccount, feeMint } : undefined,
    );
    const { instructions } = built;
    const { wire, requestId, expireAt, signatures } = await assembleAndIssue(deps.store, built);
    const lastValidBlockHeight = instructions.blockhashWithMetadata.lastValidBlockHeight;
    const taker = built.taker.toBase58();
    return {
      mode,
      quote: built.quote,
      transaction: wire,
      requestId,
      lastValidBlockHeight,
      expireAt,
      taker,
      payer: built.payer.toBase58(),
      signatureFeeLamports: LAMPORTS_PER_SIGNATURE * signatures,
      prioritizationFeeLamports: Number(instructions.prioritizationFeeLamports) + Number(tipLamports ?? 0n),
      rentFeeLamports: rentOf(instructions),
      totalTimeMs: clock() - started,
      referral: referralOut,
      autoSlippage: built.autoSlippage,
    };
  };
}
