/** Nonce orders (`/trigger/v2`): the keeper's rhythm and the bounds that keep strangers from flooding. */
import { integer, setting } from "./setting-parsers.js";

export const TRIGGER_SETTINGS = {
  NONCE_KEEPER_REFRESH_MS: setting({
    room: "trigger",
    parser: integer(50, 600_000, "ms"),
    default: 2_000,
    doc: "how often the keeper reads the armed orders changed since its last read (other replicas' arms and cancels; every order's changing fields every 30 s); an arm or cancel on this replica wakes it at once",
  }),
  NONCE_CHECK_MS: setting({
    room: "trigger",
    parser: integer(100, 3_600_000, "ms"),
    default: 10_000,
    doc: "how often every armed order's nonce account is compared with its legs' value besides the live account cache's notifications and, while the live state answers, its comparison in memory each second (without live state, or while it is degraded: the only check)",
  }),
  NONCE_RETRY_NOT_SENT_MS: setting({
    room: "trigger",
    parser: integer(50, 600_000, "ms"),
    default: 2_000,
    doc: "a fired leg whose simulation could not pay its floor is tried again at most this often",
  }),
  NONCE_ORDER_ARM_WITHIN_S: setting({
    room: "trigger",
    parser: integer(10, 86_400, "s"),
    default: 600,
    doc: "an issued order not armed (signed by its taker) within this is deleted",
  }),
  NONCE_ORDERS_PENDING_PER_CALLER: setting({
    room: "trigger",
    parser: integer(1, 1_000_000, "orders"),
    default: 200,
    doc: "issued orders not armed yet per caller (its API key, or its address without keys); past it `createOrder` answers 429 / `RESOURCE_EXHAUSTED`",
  }),
  NONCE_ORDERS_ACTIVE_PER_TAKER: setting({
    room: "trigger",
    parser: integer(1, 100_000, "orders"),
    default: 100,
    doc: "armed or triggered orders per taker; past it `arm` answers 429 / `RESOURCE_EXHAUSTED`",
  }),
  NONCE_DCA_MIN_INTERVAL_S: setting({
    room: "trigger",
    parser: integer(1, 31_536_000, "s"),
    default: 60,
    doc: "the shortest interval between a DCA's rounds that `createOrder` accepts (Jupiter's is 60 s; lower it only for tests and demos)",
  }),
} as const;
