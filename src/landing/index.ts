/**
 * Landing: issued transactions, signed by their owners, landed once and judged by the chain.
 *
 *   const landing = new ExecutionConfirmations({ chain, store, logger, senders, readers, onLanded }, options);
 *   const tx = parseSignedTransaction("signedTransaction", parseSignedWire(request.signedTransaction));
 *   // ... check tx.message against what was issued, then:
 *   checkSignatures("signedTransaction", tx);
 *   const record = await landOnce({ store, chain, confirmations: landing }, { tx, signature: transactionSignature(tx), requestId, messageHash, lastValidBlockHeight }, "request a new order");
 *   await resumePendingExecutions({ store, confirmations: landing, logger }); // at startup
 *
 * A kind of issued transaction plugs in with an `onLanded` handler (swap and create_order are
 * built in). The record's `status` is the chain's word (`decidedBy`), its `slot` where it landed.
 */
export { ExecutionConfirmations, FAILED_EXECUTION_CODE, UNCONFIRMED_ERROR } from "./confirmations.js";
export type { ConfirmationOptions, ExecutionStage, LandingDeps } from "./confirmations.js";
export type { TransactionSender } from "./broadcast.js";
export type { SignatureReader } from "./endpoint-reads.js";
export { landOnce } from "./land-once.js";
export type { IssuedSignedTransaction } from "./land-once.js";
export { resumePendingExecutions } from "./execution-resumer.js";
export type { ResumedExecutions } from "./execution-resumer.js";
export { ExecutionInterruptedError } from "./execution-interrupted-error.js";
export { explainTransactionFailure } from "./execution-failure.js";
export { checkSignatures, parseSignedTransaction, parseSignedWire, transactionSignature } from "./signed-transaction.js";
export type { SignedTransaction } from "./signed-transaction.js";
export type { LandedExecution, LandedHandler, LandedHandlers } from "./landed-handler.js";
export { recordCreatedOrder } from "./order-landed.js";
export { landedSwapOf } from "./swap-landed.js";
