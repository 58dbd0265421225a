import { createHash } from "node:crypto";

/**
 * The identity of an issued transaction: hex sha256 of its serialized message. Signatures do
 * not change the message, so the signed transaction Execute receives hashes to the same value
 * as the unsigned one CreateOrder/CancelOrder(s) issued.
 */
export function transactionMessageHash(message: Uint8Array): string {
  return createHash("sha256").update(message).digest("hex");
}
