/**
 * The REST answers of Jupiter's Swap API v1 paths (`/swap/v1/quote`, `/swap`, `/swap-instructions`,
 * `/program-id-to-label`) and `POST /markets`, as JSON schemas for the API reference: Jupiter's JSON
 * as swapd writes it (core/quote/quote-response.ts, api/swap/jupiter-response-json.ts,
 * api/quote/quote-proto.ts), described by the contract's comments of the messages they mirror.
 * Also the REST form of the swap request's `prioritizationFeeLamports` (jupiter-request-json.ts).
 */
import {
  arrayOf,
  BASE64,
  BOOLEAN,
  DECIMAL_TEXT,
  described,
  INTEGER,
  nullable,
  NUMBER,
  object,
  oneOfStrings,
  PUBLIC_KEY,
  ref,
  STRING,
  U64_TEXT,
} from "../../server/json-schema.js";
import type { JsonSchema } from "../../server/route-doc.js";
import { INSTRUCTION_SCHEMAS } from "./instruction-schemas.js";

const SWAP_INFO_PROPERTIES = {
  ammKey: PUBLIC_KEY,
  label: STRING,
  inputMint: PUBLIC_KEY,
  outputMint: PUBLIC_KEY,
  inAmount: U64_TEXT,
  outAmount: U64_TEXT,
  feeAmount: U64_TEXT,
  feeMint: PUBLIC_KEY,
};

/** A route step whose swap info is `swapInfo` (the answer's, or the one a swap request reads). */
const routePlanStep = (swapInfo: string, optional: readonly string[] = []) =>
  object({ swapInfo: ref(swapInfo), percent: INTEGER, bps: INTEGER }, { describedBy: "swapd.swap.v1.RoutePlanStep", optional });

const QUOTE_PROPERTIES = {
  inputMint: PUBLIC_KEY,
  inAmount: U64_TEXT,
  outputMint: PUBLIC_KEY,
  outAmount: U64_TEXT,
  otherAmountThreshold: U64_TEXT,
  swapMode: oneOfStrings("ExactIn", "ExactOut"),
  slippageBps: INTEGER,
  platformFee: described(
    nullable(ref("PlatformFee")),
    'The platform fee, or null without one (REST, as Jupiter; Connect answers `{amount: "0", feeBps: 0}` instead: proto3 JSON leaves out an unset message).',
  ),
  priceImpactPct: DECIMAL_TEXT,
  routePlan: arrayOf(ref("RoutePlanStep")),
  contextSlot: INTEGER,
  timeTaken: NUMBER,
};

const QUOTE_RESPONSE = object(QUOTE_PROPERTIES, {
  describedBy: "swapd.swap.v1.QuoteResponse",
  description: "Jupiter's quote; pass it unmodified as a swap request's `quoteResponse`.",
});

/**
 * The quote as a swap request reads it: a QuoteResponse as /quote answers it, of which the swap needs
 * fewer fields (core/swap/request-quote.ts `parseQuote`; a step's `percent` may be given as `bps`).
 */
const SWAP_REQUEST_QUOTE = object(
  { ...QUOTE_PROPERTIES, routePlan: arrayOf(ref("SwapRequestRoutePlanStep")) },
  {
    describedBy: "swapd.swap.v1.QuoteResponse",
    optional: ["platformFee", "priceImpactPct", "contextSlot", "timeTaken"],
    description: "The quote, as /quote answered it.",
  },
);

const PRIORITIZATION_TYPE = nullable(
  object(
    {
      computeBudget: object(
        { microLamports: INTEGER, estimatedMicroLamports: nullable(INTEGER) },
        { describedBy: "swapd.swap.v1.ComputeBudgetPrioritization" },
      ),
      jito: object({ lamports: INTEGER }, { describedBy: "swapd.swap.v1.RelayTipPrioritization" }),
    },
    { optional: ["computeBudget", "jito"], description: "How the transaction is prioritized: one of the two; null without prioritization." },
  ),
);

const DYNAMIC_SLIPPAGE_REPORT = nullable(
  object(
    {
      slippageBps: INTEGER,
      otherAmount: INTEGER,
      simulatedIncurredSlippageBps: nullable(INTEGER),
      amplificationRatio: DECIMAL_TEXT,
      categoryName: STRING,
      heuristicMaxSlippageBps: INTEGER,
      priceImpactBps: INTEGER,
      poolMoveBps: INTEGER,
      windowSlots: INTEGER,
      minBps: INTEGER,
    },
    { describedBy: "swapd.swap.v1.DynamicSlippageReport", description: "What `dynamicSlippage` chose; null without it." },
  ),
);

const SIMULATION_ERROR = nullable(object({ errorCode: STRING, error: STRING }, { describedBy: "swapd.swap.v1.SimulationError" }));

/** The parts `/swap` and `/swap-instructions` answer alike. */
const BUILT_SWAP_PARTS = {
  prioritizationFeeLamports: INTEGER,
  computeUnitLimit: INTEGER,
  prioritizationType: PRIORITIZATION_TYPE,
  simulationSlot: nullable(INTEGER),
  dynamicSlippageReport: DYNAMIC_SLIPPAGE_REPORT,
  simulationError: SIMULATION_ERROR,
  addressesByLookupTableAddress: described({ type: "null" }, "Always null (Jupiter's field): the tables are in `addressLookupTableAddresses`."),
};

const SWAP_RESPONSE = object({ swapTransaction: BASE64, lastValidBlockHeight: INTEGER, ...BUILT_SWAP_PARTS }, { describedBy: "swapd.swap.v1.SwapResponse" });

const SWAP_INSTRUCTIONS_RESPONSE = object(
  {
    tokenLedgerInstruction: described({ type: "null" }, "Always null: the token ledger is not supported."),
    computeBudgetInstructions: arrayOf(ref("Instruction")),
    setupInstructions: arrayOf(ref("Instruction")),
    swapInstruction: ref("Instruction"),
    cleanupInstruction: nullable(ref("Instruction")),
    otherInstructions: arrayOf(ref("Instruction")),
    addressLookupTableAddresses: arrayOf(PUBLIC_KEY),
    contextSlot: INTEGER,
    blockhashWithMetadata: ref("BlockhashWithMetadata"),
    ...BUILT_SWAP_PARTS,
  },
  { describedBy: "swapd.swap.v1.SwapInstructionsResponse", optional: ["contextSlot"] },
);

const MARKETS_RESPONSE = object(
  {
    added: arrayOf(object({ address: PUBLIC_KEY, label: STRING, mints: arrayOf(PUBLIC_KEY) })),
    refused: arrayOf(object({ address: STRING, reason: STRING })),
  },
  { description: "The pools now quoted, and those refused with the reason (HTTP 400 when none was added)." },
);

/** Jupiter's `prioritizationFeeLamports` in a REST swap request: a number, "auto", "disabled" or one kind's object. */
const PRIORITIZATION_FEE_LAMPORTS: JsonSchema = {
  description: "Priority fee or relay tip (Jupiter's forms; `relayTip…` names are accepted for `jitoTip…`). Absent: auto.",
  anyOf: [
    described({ type: "integer", minimum: 0 }, "A fixed priority fee in lamports."),
    oneOfStrings("auto", "disabled"),
    object(
      {
        priorityLevelWithMaxLamports: object(
          { priorityLevel: oneOfStrings("medium", "high", "veryHigh"), maxLamports: INTEGER, global: BOOLEAN },
          { optional: ["global"], describedBy: "swapd.swap.v1.PriorityLevelWithMaxLamports" },
        ),
      },
      { describedBy: "swapd.swap.v1.PrioritizationFeeLamports" },
    ),
    object({ jitoTipLamports: INTEGER }, { description: "A relay (Jito) tip in lamports from the user." }),
    object(
      { jitoTipLamportsWithPayer: object({ lamports: INTEGER, payer: PUBLIC_KEY }, { describedBy: "swapd.swap.v1.RelayTipLamportsWithPayer" }) },
      { description: "A relay (Jito) tip paid by another account." },
    ),
  ],
};

export const SWAP_V1_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ...INSTRUCTION_SCHEMAS,
  QuoteResponse: QUOTE_RESPONSE,
  PlatformFee: object({ amount: U64_TEXT, feeBps: INTEGER }, { describedBy: "swapd.swap.v1.PlatformFee" }),
  RoutePlanStep: routePlanStep("SwapInfo"),
  SwapInfo: object(SWAP_INFO_PROPERTIES, { describedBy: "swapd.swap.v1.SwapInfo" }),
  SwapRequestQuote: SWAP_REQUEST_QUOTE,
  SwapRequestRoutePlanStep: routePlanStep("SwapRequestSwapInfo", ["percent", "bps"]),
  SwapRequestSwapInfo: object(SWAP_INFO_PROPERTIES, { describedBy: "swapd.swap.v1.SwapInfo", optional: ["label", "feeAmount", "feeMint"] }),
  SwapResponse: SWAP_RESPONSE,
  SwapInstructionsResponse: SWAP_INSTRUCTIONS_RESPONSE,
  ProgramIdToLabel: { type: "object", description: "Program id (base58) → AMM label.", additionalProperties: STRING },
  MarketsResponse: MARKETS_RESPONSE,
  PrioritizationFeeLamports: PRIORITIZATION_FEE_LAMPORTS,
};
