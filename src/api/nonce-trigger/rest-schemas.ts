/**
 * The REST answers of the nonce-order paths (`/trigger/v2/createOrder`, `/arm`, `/cancelOrder`,
 * `/orders`) as JSON schemas for the API reference: the JSON of nonce-trigger-rest-routes.ts and
 * nonce-order-message.ts (the contract's names; amounts as text; null, not "" or 0, where there is
 * nothing yet), described by the contract's comments. Kinds and statuses are text (the contract's
 * comments list them): the nonce orders gain kinds as they gain features. The group fields (OTOCO,
 * DCA, expiry, prices in a stablecoin) are declared optional: answers carry them once nonce groups do.
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
  PUBLIC_KEY,
  ref,
  SIGNATURE,
  STRING,
  U64_TEXT,
  UUID,
} from "../../server/json-schema.js";
import type { JsonSchema } from "../../server/route-doc.js";

/** Fields the nonce groups add (OTOCO, DCA, expiry, stablecoin prices): optional until the answers carry them. */
const GROUPS = {
  order: ["groupId", "groupKind", "afterOrderId", "notBefore", "expiresAt", "priceMint"],
  leg: ["triggerMaxOutAmount"],
  issuedLeg: ["orderId", "nonceAccount", "amount", "notBefore", "triggerMaxOutAmount"],
  created: ["nonceAccounts", "nonceAccountTransactions", "pricedBy", "cancelTransaction", "expiresAt"],
} as const;

const ISSUED_LEG = object(
  {
    kind: STRING,
    legIndex: INTEGER,
    routeIndex: INTEGER,
    orderId: UUID,
    nonceAccount: PUBLIC_KEY,
    amount: U64_TEXT,
    notBefore: described(nullable(INTEGER), "A DCA round's due time, unix seconds; null for others."),
    transaction: BASE64,
    triggerOutAmount: described(nullable(U64_TEXT), "Output amount of the whole order amount that fires the leg; null for a trailing stop."),
    triggerMaxOutAmount: nullable(U64_TEXT),
    minOutAmount: U64_TEXT,
    quotedOutAmount: U64_TEXT,
    routeLabel: STRING,
  },
  { describedBy: "swapd.trigger.v2.IssuedLeg", optional: GROUPS.issuedLeg },
);

const LEG = object(
  {
    kind: STRING,
    legIndex: INTEGER,
    routeIndex: INTEGER,
    triggerOutAmount: nullable(U64_TEXT),
    triggerMaxOutAmount: nullable(U64_TEXT),
    minOutAmount: U64_TEXT,
    status: STRING,
    signature: described(nullable(SIGNATURE), "The leg route's signature, only once swapd sent it (null before)."),
    inAmount: nullable(U64_TEXT),
    outAmount: nullable(U64_TEXT),
    slot: nullable(U64_TEXT),
    error: nullable(STRING),
  },
  { describedBy: "swapd.trigger.v2.Leg", optional: GROUPS.leg },
);

const ORDER = object(
  {
    orderId: UUID,
    kind: STRING,
    taker: PUBLIC_KEY,
    inputMint: PUBLIC_KEY,
    outputMint: PUBLIC_KEY,
    amount: U64_TEXT,
    nonceAccount: PUBLIC_KEY,
    status: STRING,
    note: nullable(STRING),
    trailBps: nullable(INTEGER),
    peakOutAmount: nullable(U64_TEXT),
    cancelRequested: BOOLEAN,
    cancelSignature: nullable(SIGNATURE),
    groupId: nullable(UUID),
    groupKind: nullable(STRING),
    afterOrderId: nullable(UUID),
    notBefore: nullable(DATE_TIME),
    expiresAt: nullable(DATE_TIME),
    priceMint: nullable(PUBLIC_KEY),
    legs: arrayOf(ref("NonceOrderLeg")),
    createdAt: DATE_TIME,
    armedAt: nullable(DATE_TIME),
    triggeredAt: nullable(DATE_TIME),
    finishedAt: nullable(DATE_TIME),
  },
  { describedBy: "swapd.trigger.v2.Order", optional: GROUPS.order },
);

export const TRIGGER_V2_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  NonceCreateOrderResponse: object(
    {
      orderId: described({ anyOf: [UUID, { const: "" }] }, "The order's id; empty when only the nonce account's creation is returned."),
      nonceAccount: PUBLIC_KEY,
      nonceAccountTransaction: described(nullable(BASE64), "Unsigned creation of the nonce account; null when one was given."),
      nonceAccounts: arrayOf(PUBLIC_KEY),
      nonceAccountTransactions: arrayOf(BASE64),
      currentOutAmount: U64_TEXT,
      pricedBy: nullable(
        object(
          { inputMint: PUBLIC_KEY, outputMint: PUBLIC_KEY, inAmount: U64_TEXT, outAmount: U64_TEXT, routeLabel: STRING },
          { describedBy: "swapd.trigger.v2.CreateOrderResponse", description: "The quote the request's prices were checked against." },
        ),
      ),
      cancelTransaction: nullable(BASE64),
      expiresAt: described(nullable(INTEGER), "Unix seconds after which swapd sends nothing of the orders; null: none."),
      legs: arrayOf(ISSUED_LEG),
    },
    { describedBy: "swapd.trigger.v2.CreateOrderResponse", optional: GROUPS.created },
  ),
  NonceArmResponse: object(
    { order: ref("NonceOrder"), group: arrayOf(ref("NonceOrder")), replaced: nullable(ref("NonceOrder")) },
    { describedBy: "swapd.trigger.v2.ArmResponse", optional: ["group", "replaced"] },
  ),
  NonceCancelOrderResponse: object(
    {
      transaction: BASE64,
      order: ref("NonceOrder"),
      group: arrayOf(ref("NonceOrder")),
      signature: described(nullable(SIGNATURE), "With a signed cancel: its signature; else null."),
    },
    { describedBy: "swapd.trigger.v2.CancelOrderResponse", optional: ["group"] },
  ),
  NonceOrdersPage: object(
    { orders: arrayOf(ref("NonceOrder")), nextPageToken: described(nullable(STRING), "The next page's token; null on the last page.") },
    { describedBy: "swapd.trigger.v2.GetOrdersResponse" },
  ),
  NonceOrder: ORDER,
  NonceOrderLeg: LEG,
};
