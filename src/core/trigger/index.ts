/** Jupiter Limit Order v2 (Trigger API v1): encoding, decoding and transaction plans. Pure. */
export * from "./instructions/initialize-order.js";
export * from "./instructions/cancel-order.js";
export * from "./pdas.js";
export * from "./order-account.js";
export * from "./events.js";
export * from "./transaction-failure.js";
export * from "./validate.js";
export * from "./ui-amount.js";
export * from "./compute-unit-price.js";
export * from "./message-hash.js";
export * from "./create-order.js";
export * from "./cancel-order.js";
export * from "./cancel-orders.js";
export * from "./created-order.js";
