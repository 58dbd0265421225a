/**
 * The REST answers of Jupiter's Trigger API v1 paths (`/trigger/v1/createOrder`, `/cancelOrder`,
 * `/cancelOrders`, `/execute`, `/getTriggerOrders`) as JSON schemas for the API reference: the JSON
 * of trigger-rest-routes.ts and core/trigger/order-record.ts (Jupiter's order record: UI and raw
 * amounts as text, `slippageBps` as text, timestamps without milliseconds), described by the
 * contract's comments.
 */
import {
  arrayOf,
  BASE64,
  DECIMAL_TEXT,
  nullable,
  object,
  oneOfStrings,
  PUBLIC_KEY,
  ref,
  SIGNATURE,
  STRING,
  U64_TEXT,
  UUID,
  INTEGER,
} from "../../server/json-schema.js";
import type { JsonSchema } from "../../server/route-doc.js";

/** Jupiter's timestamps: ISO 8601 UTC without milliseconds ("2025-03-10T14:40:08Z"). */
const TIMESTAMP: JsonSchema = { type: "string", format: "date-time" };
/** A signature, or "" where there is none yet (an open order's `closeTx`). */
const SIGNATURE_OR_EMPTY: JsonSchema = { anyOf: [SIGNATURE, { const: "" }] };

const TRADE = object(
  {
    orderKey: PUBLIC_KEY,
    keeper: PUBLIC_KEY,
    inputMint: PUBLIC_KEY,
    outputMint: PUBLIC_KEY,
    inputAmount: DECIMAL_TEXT,
    outputAmount: DECIMAL_TEXT,
    rawInputAmount: U64_TEXT,
    rawOutputAmount: U64_TEXT,
    feeMint: PUBLIC_KEY,
    feeAmount: DECIMAL_TEXT,
    rawFeeAmount: U64_TEXT,
    txId: SIGNATURE,
    confirmedAt: TIMESTAMP,
    action: STRING,
    productMeta: { type: "null" },
  },
  { describedBy: "swapd.trigger.v1.TriggerTrade" },
);

const ORDER = object(
  {
    userPubkey: PUBLIC_KEY,
    orderKey: PUBLIC_KEY,
    inputMint: PUBLIC_KEY,
    outputMint: PUBLIC_KEY,
    makingAmount: DECIMAL_TEXT,
    takingAmount: DECIMAL_TEXT,
    remainingMakingAmount: DECIMAL_TEXT,
    remainingTakingAmount: DECIMAL_TEXT,
    rawMakingAmount: U64_TEXT,
    rawTakingAmount: U64_TEXT,
    rawRemainingMakingAmount: U64_TEXT,
    rawRemainingTakingAmount: U64_TEXT,
    slippageBps: { type: "string", pattern: "^[0-9]+$" },
    expiredAt: nullable(TIMESTAMP),
    createdAt: TIMESTAMP,
    updatedAt: TIMESTAMP,
    status: oneOfStrings("Open", "Completed", "Cancelled"),
    openTx: SIGNATURE_OR_EMPTY,
    closeTx: SIGNATURE_OR_EMPTY,
    programVersion: PUBLIC_KEY,
    trades: arrayOf(ref("TriggerTrade")),
  },
  { describedBy: "swapd.trigger.v1.TriggerOrder", description: "Jupiter's order record." },
);

export const TRIGGER_V1_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  TriggerCreateOrderResponse: object({ order: PUBLIC_KEY, transaction: BASE64, requestId: UUID }, { describedBy: "swapd.trigger.v1.CreateOrderResponse" }),
  TriggerCancelOrderResponse: object({ transaction: BASE64, requestId: UUID }, { describedBy: "swapd.trigger.v1.CancelOrderResponse" }),
  TriggerCancelOrdersResponse: object({ transactions: arrayOf(BASE64), requestId: UUID }, { describedBy: "swapd.trigger.v1.CancelOrdersResponse" }),
  TriggerExecuteResponse: object(
    { signature: SIGNATURE, status: { const: "Success" }, code: { const: 0 } },
    {
      describedBy: "swapd.trigger.v1.ExecuteResponse",
      description: 'The transaction landed; a failure answers its `code` as the HTTP status, with `status: "Failed"`.',
    },
  ),
  GetTriggerOrdersResponse: object(
    { user: PUBLIC_KEY, orderStatus: oneOfStrings("active", "history"), orders: arrayOf(ref("TriggerOrder")), totalPages: INTEGER, page: INTEGER },
    { describedBy: "swapd.trigger.v1.GetTriggerOrdersResponse" },
  ),
  TriggerOrder: ORDER,
  TriggerTrade: TRADE,
};
