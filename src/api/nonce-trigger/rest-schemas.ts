/**
 * The REST answers of the nonce-order paths (`/trigger/v2/createOrder`, `/arm`, `/cancelOrder`,
 * `/orders`) as JSON schemas for the API reference: the JSON of nonce-trigger-rest-routes.ts and
 * nonce-order-message.ts (the contract's names; amounts as text; null, not "" or 0, where there is
 * nothing yet), described by the contract's comments.
 */
import {
  arrayOf,
  BASE64,
  BOOLEAN,
  DATE_TIME,
  described,
  INTEGER,
  nullable,
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

const LEG_KIND = oneOfStrings("take_profit", "stop_loss", "trailing_stop");

const ISSUED_LEG = object(
  {
    kind: LEG_KIND,
    legIndex: INTEGER,
    routeIndex: INTEGER,
    transaction: BASE64,
    triggerOutAmount: described(nullable(U64_TEXT), "Output amount of the whole order amount that fires the leg; null for a trailing stop."),
    minOutAmount: U64_TEXT,
    quotedOutAmount: U64_TEXT,
    routeLabel: STRING,
  },
  { describedBy: "swapd.trigger.v2.IssuedLeg" },
);

const LEG = object(
  {
    kind: LEG_KIND,
    legIndex: INTEGER,
    routeIndex: INTEGER,
    triggerOutAmount: nullable(U64_TEXT),
    minOutAmount: U64_TEXT,
    status: oneOfStrings("issued", "armed", "sent", "landed", "failed", "voided", "cancelled"),
    signature: described(nullable(SIGNATURE), "The leg route's signature, only once swapd sent it (null before)."),
    inAmount: nullable(U64_TEXT),
    outAmount: nullable(U64_TEXT),
    slot: nullable(U64_TEXT),
    error: nullable(STRING),
  },
  { describedBy: "swapd.trigger.v2.Leg" },
);

const ORDER = object(
  {
    orderId: UUID,
    kind: oneOfStrings("single", "oco", "trailing"),
    taker: PUBLIC_KEY,
    inputMint: PUBLIC_KEY,
    outputMint: PUBLIC_KEY,
    amount: U64_TEXT,
    nonceAccount: PUBLIC_KEY,
    status: oneOfStrings("issued", "armed", "triggered", "landed", "failed", "cancelled"),
    note: nullable(STRING),
    trailBps: nullable(INTEGER),
    peakOutAmount: nullable(U64_TEXT),
    cancelRequested: BOOLEAN,
    cancelSignature: nullable(SIGNATURE),
    legs: arrayOf(ref("NonceOrderLeg")),
    createdAt: DATE_TIME,
    armedAt: nullable(DATE_TIME),
    triggeredAt: nullable(DATE_TIME),
    finishedAt: nullable(DATE_TIME),
  },
  { describedBy: "swapd.trigger.v2.Order" },
);

export const TRIGGER_V2_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  NonceCreateOrderResponse: object(
    {
      orderId: described({ anyOf: [UUID, { const: "" }] }, "The order's id; empty when only the nonce account's creation is returned."),
      nonceAccount: PUBLIC_KEY,
      nonceAccountTransaction: described(nullable(BASE64), "Unsigned creation of the nonce account; null when one was given."),
      currentOutAmount: U64_TEXT,
      legs: arrayOf(ISSUED_LEG),
    },
    { describedBy: "swapd.trigger.v2.CreateOrderResponse" },
  ),
  NonceArmResponse: object({ order: ref("NonceOrder") }, { describedBy: "swapd.trigger.v2.ArmResponse" }),
  NonceCancelOrderResponse: object(
    { transaction: BASE64, order: ref("NonceOrder"), signature: described(nullable(SIGNATURE), "With a signed cancel: its signature; else null.") },
    { describedBy: "swapd.trigger.v2.CancelOrderResponse" },
  ),
  NonceOrdersPage: object(
    { orders: arrayOf(ref("NonceOrder")), nextPageToken: described(nullable(STRING), "The next page's token; null on the last page.") },
    { describedBy: "swapd.trigger.v2.GetOrdersResponse" },
  ),
  NonceOrder: ORDER,
  NonceOrderLeg: LEG,
};
