import type { Logger } from "pino";
import { ChainRpcError, isChainError } from "../../chain/chain-errors.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { RpcTransactionError } from "../../core/trigger/index.js";
import type { ExecutionOutcome, ExecutionRecord, Store } from "../../store/index.js";
import {
  failureReason,
  landingConfirmationSeconds,
  landingFailed,
  landingLanded,
  landingRebroadcasts,
  landingSends,
} from "../../metrics/landing-metrics.js";
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
  /**
   * While the chain has not seen the transaction and its blockhash is valid, it is sent again
   * this often (a dropped send, an RPC that forwards late). Default 2000 ms.
   */
  readonly rebroadcastIntervalMs?: number;
}

/** Another RPC endpoint every send also goes to (`SEND_RPC_URLS`). */
export type TransactionSender = Pick<SolanaChain, "sendTransaction" | "url">;

/** Progress of one execution, for watchers (ExecuteAndWatch). */
export type ExecutionStage = "sent";

/** Called with every execution that reached its final status (after it is recorded). */
export type FinishedListener = (record: ExecutionRecord) => Promise<void>;

/**
 * `now`: send first (a fresh execution). `ifUnseen`: send only if the chain does not know the
 * signature and the blockhash is still valid (resuming after a restart: the process may have
 * died between recording and sending; re-sending is harmless, same signature). `never`: only wait.
 */
export type SendMode = "now" | "ifUnseen" | "never";

/** An execution being followed: its record, the signed wire transaction, its instructions' programs, its sends. */
interface Followed {
  readonly record: ExecutionRecord;
  readonly wire: Uint8Array;
  readonly instructionProgramIds: SignedTransaction["instructionProgramIds"];
  firstSentAt: number | undefined;
  lastSentAt: number;
}

/**
 * Drives recorded executions to a final status: sends (per mode), polls getSignatureStatuses and
 * getBlockHeight until the transaction is confirmed or its blockhash expired, and records the
 * outcome (the store keeps the first final outcome). Concurrent waits for one signature share
 * one loop, so a repeated Execute never sends again.
 */
export class ExecutionConfirmations {
  private readonly inFlight = new Map<string, Promise<ExecutionRecord>>();
  private readonly watchers = new Map<string, Set<(stage: ExecutionStage) => void>>();
  private readonly finishedListeners: FinishedListener[] = [];
  private readonly stopping = new AbortController();
  private readonly pollIntervalMs: number;
  private readonly maxWaitMs: number;
  private readonly rebroadcastIntervalMs: number;

  constructor(
    private readonly deps: {
      readonly chain: SolanaChain;
      readonly store: Pick<Store, "executions" | "issuedTransactions" | "orders">;
      readonly logger: Logger;
      /** More endpoints each send goes to besides `chain` (best effort; `chain` decides refusals). */
      readonly senders?: readonly TransactionSender[];
    },
    options: ConfirmationOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? 300_000;
    this.rebroadcastIntervalMs = options.rebroadcastIntervalMs ?? 2_000;
  }

  /** `listener` runs for every execution that reaches its final status, before its waiters answer. */
  onFinished(listener: FinishedListener): void {
    this.finishedListeners.push(listener);
  }

  /** Hears the stages of the execution of `signature` until the returned stop is called. */
  watch(signature: string, listener: (stage: ExecutionStage) => void): () => void {
    let set = this.watchers.get(signature);
    if (set === undefined) this.watchers.set(signature, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(signature);
    };
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
    const followed: Followed = {
      record,
      wire,
      instructionProgramIds: (parsed ?? parseSignedTransaction("signedTransaction", wire)).instructionProgramIds,
      firstSentAt: undefined,
      lastSentAt: Number.NEGATIVE_INFINITY,
    };
    if (mode === "now") {
      const refused = await this.send(followed, false);
      if (refused !== null) return this.finish(followed, refused);
    }
    // `ifUnseen` (resuming): the process may have died before sending; send when the chain does not know it.
    const mayResend = mode !== "never";
    const deadline = Date.now() + this.maxWaitMs;
    let firstPoll = mode !== "now";
    while (!this.closed && Date.now() < deadline) {
      if (!firstPoll) await this.sleep(this.pollIntervalMs);
      firstPoll = false;
      if (this.closed) break;
      try {
        const seen = await this.look(followed);
        if (typeof seen === "object") return this.finish(followed, seen);
        // Unseen and still valid: (re-)broadcast, at most every rebroadcastIntervalMs.
        if (seen === "unseen" && mayResend && Date.now() - followed.lastSentAt >= this.rebroadcastIntervalMs) {
          const refused = await this.send(followed, followed.lastSentAt !== Number.NEGATIVE_INFINITY);
          if (refused !== null) return this.finish(followed, refused);
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

  /**
   * Sends once through `chain` (and every extra endpoint, best effort). A refusal by `chain`'s
   * preflight is a final failure; anything else is followed. Re-broadcasts skip the preflight:
   * the first send already passed it, and a copy that arrives twice is the same signature.
   */
  private async send(followed: Followed, rebroadcast: boolean): Promise<ExecutionOutcome | null> {
    const { chain, logger } = this.deps;
    const { record, wire, instructionProgramIds } = followed;
    followed.lastSentAt = Date.now();
    followed.firstSentAt ??= followed.lastSentAt;
    if (rebroadcast) landingRebroadcasts.inc();
    const extra = this.sendToOthers(followed);
    try {
      landingSends.inc({ endpoint: chain.url });
      await chain.sendTransaction(wire, { skipPreflight: rebroadcast });
      return null;
    } catch (error) {
      if (!(error instanceof ChainRpcError) || rebroadcast) {
        // Unreachable RPC, or a copy refused: it may or may not have been sent; the status polls will tell.
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
    } finally {
      await extra;
      for (const watcher of this.watchers.get(record.signature) ?? []) watcher("sent");
    }
  }

  /** The same send through every `SEND_RPC_URLS` endpoint; their failures are logged, never final. */
  private async sendToOthers({ record, wire }: Followed): Promise<void> {
    const results = await Promise.allSettled(
      (this.deps.senders ?? []).map(async (sender) => {
        landingSends.inc({ endpoint: sender.url });
        await sender.sendTransaction(wire, { skipPreflight: true });
      }),
    );
    for (const r of results) {
      if (r.status === "rejected") this.deps.logger.warn({ err: r.reason, signature: record.signature }, "send through an extra endpoint failed");
    }
  }

  /**
   * Records the final outcome (the store keeps the first), counts it, tells the finished listeners
   * and, for a landed create, records the order.
   */
  private async finish({ record, firstSentAt }: Followed, outcome: ExecutionOutcome): Promise<ExecutionRecord> {
    const { store, logger } = this.deps;
    const done = (await store.executions.finish(record.signature, outcome)) ?? record;
    logger.info({ signature: record.signature, requestId: record.requestId, status: done.status, error: done.error }, "execution finished");
    if (firstSentAt !== undefined) landingConfirmationSeconds.observe((Date.now() - firstSentAt) / 1000);
    if (done.status === "Success") landingLanded.inc();
    else landingFailed.inc({ reason: failureReason(done.error) });
    for (const listener of this.finishedListeners) {
      await listener(done).catch((err: unknown) =>
        logger.error({ err, signature: done.signature }, "a finished-execution listener failed; the execution record stands"),
      );
    }
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
