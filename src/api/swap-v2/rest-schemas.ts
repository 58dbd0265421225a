/**
 * The REST answers of Jupiter's Swap API v2 paths (`/swap/v2/build`, `/order`, `/execute`, and
 * swapd's `/priority-fees` and `/swap/v1/execute`) as JSON schemas for the API reference: the JSON
 * of api/swap-v2/jupiter-v2-json.ts and priority-fees.ts, described by the contract's comments.
 * Unlike v1's quote, v2's `platformFee` is always an object (`{amount: "0", feeBps: 0}` without a
 * fee), as Jupiter's v2 document has it.
 */
import {
  arrayOf,
  BASE64,
  BOOLEAN,
  DATE_TIME,
  DECIMAL_TEXT,
  described,
  INTEGER,
  nullable,
  NUMBER,
  object,
  oneOfStrings,
  PUBLIC_KEY,
  ref,
  SIGNATURE,
  STRING,
  U64_TEXT,
  UUID,
} from "../../server/json-schema.js";
import type { JsonSchema } from "../../server/route-doc.js";
import { INSTRUCTION_SCHEMAS } from "../swap/instruction-schemas.js";
import { ROUTERS } from "./order.js";

/** A route step as v2 answers it: the swap info without the fee fields. */
const ROUTE_PLAN_STEP_V2 = object(
  {
    swapInfo: object(
      { ammKey: PUBLIC_KEY, label: STRING, inputMint: PUBLIC_KEY, outputMint: PUBLIC_KEY, inAmount: U64_TEXT, outAmount: U64_TEXT },
      { describedBy: "swapd.swap.v1.SwapInfo" },
    ),
    percent: INTEGER,
    bps: INTEGER,
  },
  { describedBy: "swapd.swap.v1.RoutePlanStep" },
);

/** The quote's part of a v2 answer. */
const V2_QUOTE_PARTS = {
  inputMint: PUBLIC_KEY,
  outputMint: PUBLIC_KEY,
  inAmount: U64_TEXT,
  outAmount: U64_TEXT,
  otherAmountThreshold: U64_TEXT,
  swapMode: oneOfStrings("ExactIn"),
  slippageBps: INTEGER,
  priceImpactPct: DECIMAL_TEXT,
  routePlan: arrayOf(ref("RoutePlanStepV2")),
  contextSlot: INTEGER,
  autoSlippage: ref("AutoSlippage"),
};

const BUILD_RESPONSE = object(
  {
    ...V2_QUOTE_PARTS,
    platformFee: object({ amount: U64_TEXT, feeBps: INTEGER }, { describedBy: "swapd.swap.v1.PlatformFee" }),
    computeBudgetInstructions: arrayOf(ref("Instruction")),
    setupInstructions: arrayOf(ref("Instruction")),
    swapInstruction: ref("Instruction"),
    cleanupInstruction: nullable(ref("Instruction")),
    otherInstructions: arrayOf(ref("Instruction")),
    tipInstruction: nullable(ref("Instruction")),
    addressesByLookupTableAddress: {
      type: "object",
      description: "Lookup table (base58) → its addresses, in table order.",
      additionalProperties: arrayOf(PUBLIC_KEY),
    },
    blockhashWithMetadata: ref("BlockhashWithMetadata"),
    instructionVersion: oneOfStrings("V1", "V2"),
  },
  { describedBy: "swapd.swap.v1.BuildResponse", optional: ["autoSlippage"] },
);

const ORDER_RESPONSE = object(
  {
    mode: oneOfStrings("ultra", "manual"),
    ...V2_QUOTE_PARTS,
    priceImpact: described(NUMBER, "The price impact in percentage points, negative for a loss (Jupiter's v2 field)."),
    referralAccount: PUBLIC_KEY,
    feeMint: PUBLIC_KEY,
    feeBps: INTEGER,
    platformFee: object({ amount: U64_TEXT, feeBps: INTEGER, feeMint: PUBLIC_KEY }, { describedBy: "swapd.swap.v1.PlatformFee", optional: ["feeMint"] }),
    signatureFeeLamports: INTEGER,
    signatureFeePayer: nullable(PUBLIC_KEY),
    prioritizationFeeLamports: INTEGER,
    prioritizationFeePayer: nullable(PUBLIC_KEY),
    rentFeeLamports: INTEGER,
    rentFeePayer: nullable(PUBLIC_KEY),
    swapType: oneOfStrings("aggregator"),
    router: oneOfStrings(...ROUTERS),
    transaction: described(nullable(BASE64), "The unsigned transaction; null without a taker (a quote only)."),
    lastValidBlockHeight: U64_TEXT,
    gasless: BOOLEAN,
    requestId: UUID,
    totalTime: INTEGER,
    taker: nullable(PUBLIC_KEY),
    expireAt: DATE_TIME,
  },
  { describedBy: "swapd.swap.v1.OrderResponse", optional: ["referralAccount", "feeMint", "lastValidBlockHeight", "expireAt", "autoSlippage"] },
);

const EXECUTE_RESPONSE = object(
  {
    status: oneOfStrings("Success", "Failed"),
    signature: SIGNATURE,
    slot: U64_TEXT,
    code: INTEGER,
    error: STRING,
    inputAmountResult: U64_TEXT,
    outputAmountResult: U64_TEXT,
    totalInputAmount: U64_TEXT,
    totalOutputAmount: U64_TEXT,
    swapEvents: arrayOf(
      object({ inputMint: PUBLIC_KEY, inputAmount: U64_TEXT, outputMint: PUBLIC_KEY, outputAmount: U64_TEXT }, { describedBy: "swapd.swap.v1.SwapEvent" }),
    ),
  },
  {
    describedBy: "swapd.swap.v1.ExecuteResponse",
    optional: ["slot", "error", "inputAmountResult", "outputAmountResult", "totalInputAmount", "totalOutputAmount", "swapEvents"],
  },
);

const PRIORITY_FEES_RESPONSE = object(
  {
    percentiles: arrayOf(
      object(
        { percentileBps: INTEGER, level: oneOfStrings("", "medium", "high", "veryHigh"), microLamports: U64_TEXT },
        { describedBy: "swapd.swap.v1.PercentileFee" },
      ),
    ),
    sampleCount: INTEGER,
    readAt: nullable(DATE_TIME),
    forAccounts: BOOLEAN,
  },
  { describedBy: "swapd.swap.v1.PriorityFeesResponse" },
);

const AUTO_SLIPPAGE = object(
  { slippageBps: INTEGER, priceImpactBps: INTEGER, poolMoveBps: INTEGER, windowSlots: INTEGER, minBps: INTEGER, maxBps: INTEGER },
  { describedBy: "swapd.swap.v1.AutoSlippage", description: "What automatic slippage chose and from what (swapd's addition); only when it chose." },
);

export const SWAP_V2_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ...INSTRUCTION_SCHEMAS,
  RoutePlanStepV2: ROUTE_PLAN_STEP_V2,
  AutoSlippage: AUTO_SLIPPAGE,
  BuildResponse: BUILD_RESPONSE,
  OrderResponse: ORDER_RESPONSE,
  ExecuteResponse: EXECUTE_RESPONSE,
  PriorityFeesResponse: PRIORITY_FEES_RESPONSE,
};
