import type { Logger } from "pino";
import { ChainRpcError, isChainError } from "../../chain/chain-errors.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { RpcTransactionError } from "../../core/trigger/index.js";
import type { ExecutionOutcome, ExecutionRecord, Store } from "../../store/index.js";
import { explainTransactionFailure } from "./execution-failure.js";
import { recordCreatedOrder } from "./record-created-order.js";
import { parseSignedTransaction } from "./signed-transaction.js";
import type { SignedTransaction } from "./signed-transaction.js";

/** Jupiter's code and text for a transaction that did not land before its blockhash expired. */
export const UNCONFIRMED_ERROR = "unable to confirm transaction";
/** Jupiter answers failed executions with code 500 (its REST status). */
export const FAILED_EXECUTION_CODE = 500;

export interface ConfirmationOptions {
  /** Between status polls, and before the first one after a send. Default 1000 ms. */
  readonly pollIntervalMs?: number;
  /**
   * Longest one wait lasts while the blockhash has not expired (e.g. the RPC is unreachable);
   * then the caller gets "still pending" and the record stays Pending. Default 5 min.
   */
  readonly maxWaitMs?: number;
}

/**
 * `now`: send first (a fresh execution). `ifUnseen`: send only if the chain does not know the
 * signature and the blockhash is still valid (resuming after a restart: the process may have
 * died between recording and sending; re-sending is harmless, same signature). `never`: only wait.
 */
export type SendMode = "now" | "ifUnseen" | "never";

/** An execution being followed: its record, the signed wire transaction, its instructions' programs. */
interface Followed {
  readonly record: ExecutionRecord;
  readonly wire: Uint8Array;
  readonly instructionProgramIds: SignedTransaction["instructionProgramIds"];
}

/**
 * Drives recorded executions to a final status: sends (per mode), polls getSignatureStatuses and
 * getBlockHeight until the transaction is confirmed or its blockhash expired, and records the
 * outcome (the store keeps the first final outcome). Concurrent waits for one signature share
 * one loop, so a repeated Execute never sends again.
 */
export class ExecutionConfirmations {
  private readonly inFlight = new Map<string, Promise<ExecutionRecord>>();
  private readonly stopping = new AbortController();
  private readonly pollIntervalMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly deps: { readonly chain: SolanaChain; readonly store: Pick<Store, "executions" | "issuedTransactions" | "orders">; readonly logger: Logger },
    options: ConfirmationOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? 300_000;
  }

  /**
   * The final record (or the still-Pending one after `maxWaitMs` / on shutdown). `parsed`: what
   * Execute already decoded from this transaction; without it (resuming a stored record) the
   * record's signed transaction is parsed here.
   */
  settle(record: ExecutionRecord, mode: SendMode, parsed?: Pick<SignedTransaction, "instructionProgramIds">): Promise<ExecutionRecord> {
    if (record.status !== "Pending") return Promise.resolve(record);
    const running = this.inFlight.get(record.signature);
    if (running !== undefined) return running;
    const run = this.run(record, mode, parsed).finally(() => this.inFlight.delete(record.signature));
    this.inFlight.set(record.signature, run);
    return run;
  }

  /** Stops every wait (graceful shutdown); the records stay Pending for the next start. */
  close(): void {
    this.stopping.abort();
  }

  get closed(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(
    record: ExecutionRecord,
    mode: SendMode,
    parsed: Pick<SignedTransaction, "instructionProgramIds"> | undefined,
  ): Promise<ExecutionRecord> {
    const wire = record.signedTransaction;
    if (wire === null) throw new Error(`execution ${record.signature} has no signed transaction to follow`);
    const followed: Followed = { record, wire, instructionProgramIds: (parsed ?? parseSignedTransaction("signedTransaction", wire)).instructionProgramIds };
    if (mode === "now") {
      const refused = await this.send(followed);
      if (refused !== null) return this.finish(record, refused);
    }
    let mayResend = mode === "ifUnseen";
    const deadline = Date.now() + this.maxWaitMs;
    let firstPoll = mode !== "now";
    while (!this.closed && Date.now() < deadline) {
      if (!firstPoll) await this.sleep(this.pollIntervalMs);
      firstPoll = false;
      if (this.closed) break;
      try {
        const seen = await this.look(followed);
        if (typeof seen === "object") return this.finish(record, seen);
        if (seen === "unseen" && mayResend) {
          mayResend = false;
          const refused = await this.send(followed);
          if (refused !== null) return this.finish(record, refused);
        }
      } catch (error) {
        if (!isChainError(error)) throw error;
        this.deps.logger.warn({ err: error, signature: record.signature }, "confirmation poll failed; retrying");
      }
    }
    return (await this.deps.store.executions.findBySignature(record.signature)) ?? record;
  }

  /**
   * One look at the chain: the final outcome when the transaction is confirmed or its blockhash
   * expired, `unseen` when the chain does not know it yet (blockhash still valid), `pending` while
   * it is processed but not confirmed (or just expired but seen at the last look).
   */
  private async look({ record, instructionProgramIds }: Followed): Promise<ExecutionOutcome | "unseen" | "pending"> {
    const { chain } = this.deps;
    const status = (await chain.getSignatureStatuses([record.signature]))[0] ?? null;
    if (status !== null && (status.err !== null || status.confirmationStatus !== "processed")) {
      if (status.err === null) return { status: "Success", code: 0, error: null };
      // The logs only sharpen the failure's text; without them (not served yet) it is still explained.
      const landed = await chain.getTransaction(record.signature).catch(() => null);
      const logs = landed?.meta?.logMessages ?? undefined;
      const text = await explainTransactionFailure(chain, status.err as RpcTransactionError, { instructionProgramIds, ...(logs ? { logs } : {}) });
      return { status: "Failed", code: FAILED_EXECUTION_CODE, error: text };
    }
    if (status !== null) return "pending"; // processed, not yet confirmed
    const height = await chain.getBlockHeight();
    if (record.lastValidBlockHeight === null || BigInt(height) <= record.lastValidBlockHeight) return "unseen";
    // One last look: it may have landed just before the expiry.
    const last = (await chain.getSignatureStatuses([record.signature]))[0] ?? null;
    if (last !== null) return "pending";
    return {
      status: "Failed",
      code: FAILED_EXECUTION_CODE,
      error: `${UNCONFIRMED_ERROR}: blockhash expired (block height ${height} > last valid ${record.lastValidBlockHeight})`,
    };
  }

  /** Sends once; a refusal by the node (preflight) is a final failure, anything else is followed. */
  private async send({ record, wire, instructionProgramIds }: Followed): Promise<ExecutionOutcome | null> {
    const { chain, logger } = this.deps;
    try {
      await chain.sendTransaction(wire, { skipPreflight: false });
      return null;
    } catch (error) {
      if (!(error instanceof ChainRpcError)) {
        // Unreachable RPC: it may or may not have been sent; the status polls will tell.
        logger.warn({ err: error, signature: record.signature }, "sendTransaction failed; following the signature");
        return null;
      }
      const err = (error.data as { err?: RpcTransactionError | null } | undefined)?.err ?? null;
      if (err === "AlreadyProcessed") return null;
      const text =
        err === null
          ? `transaction refused: ${error.rpcMessage}`
          : await explainTransactionFailure(chain, err, { instructionProgramIds, ...(error.logs ? { logs: error.logs } : {}) });
      return { status: "Failed", code: FAILED_EXECUTION_CODE, error: text };
    }
  }

  /** Records the final outcome (the store keeps the first) and, for a landed create, the order. */
  private async finish(record: ExecutionRecord, outcome: ExecutionOutcome): Promise<ExecutionRecord> {
    const { store, logger } = this.deps;
    const done = (await store.executions.finish(record.signature, outcome)) ?? record;
    logger.info({ signature: record.signature, requestId: record.requestId, status: done.status, error: done.error }, "execution finished");
    if (done.status === "Success") {
      await recordCreatedOrder(this.deps, done).catch((err: unknown) =>
        logger.error({ err, signature: done.signature }, "could not record the created order; the tracker learns it from active listings"),
      );
    }
    return done;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.stopping.signal;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
