/**
 * Drives recorded executions to the status the chain gives them. The chain is the judge: an
 * outcome comes from the signature's status on any configured endpoint (endpoint-reads.ts), and
 * "did not land" only once no endpoint knows the signature and it can no longer land: the chain's
 * block height passed the blockhash's last valid one, or (a durable-nonce transaction) its nonce
 * account holds another value (chain-verdict.ts). A send's error never decides (broadcast.ts), except a
 * preflight refusal, which answers Failed at once but is watched until expiry and corrected if
 * the transaction lands after all.
 *
 * One sender per transaction: every caller of one signature in this process joins one loop, and
 * of the processes sharing the database only the holder of the execution's send lease
 * (store `claimSend`) sends and re-broadcasts; the others only read the chain, and take the
 * lease over when its holder stops renewing it (it died).
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { VersionedTransaction } from "@solana/web3.js";
import type { VersionedTransactionResponse } from "@solana/web3.js";
import { isChainError } from "../chain/chain-errors.js";
import type { BlockEngine } from "../chain/block-engine.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import { durableNonceOf } from "../core/solana/durable-nonce.js";
import { failureReason, landingConfirmationSeconds, landingFailed, landingLanded, landingRebroadcasts } from "../metrics/landing-metrics.js";
import type { ExecutionOutcome, ExecutionRecord, Store } from "../store/index.js";
import { broadcast } from "./broadcast.js";
import type { PreflightRefusal, TransactionSender } from "./broadcast.js";
import { expiredOutcome, FAILED_EXECUTION_CODE, lookAtChain } from "./chain-verdict.js";
import type { ChainVerdictDeps, FollowedTransaction } from "./chain-verdict.js";
import { landedTransaction } from "./endpoint-reads.js";
import type { SignatureReader } from "./endpoint-reads.js";
import { explainTransactionFailure } from "./execution-failure.js";
import { defaultLandedHandlers } from "./landed-handlers.js";
import type { LandedHandler, LandedHandlers } from "./landed-handler.js";
import { relayTipLamports } from "./relay-tip.js";
import { parseSignedTransaction } from "./signed-transaction.js";
import type { SignedTransaction } from "./signed-transaction.js";

export { FAILED_EXECUTION_CODE, UNCONFIRMED_ERROR } from "./chain-verdict.js";

export interface ConfirmationOptions {
  /** Between status polls. Default 1000 ms. */
  readonly pollIntervalMs?: number;
  /** Longest one wait lasts while the blockhash has not expired; then "still pending". Default 5 min. */
  readonly maxWaitMs?: number;
  /** While no endpoint has seen the transaction and its blockhash is valid, its sender sends it again this often. Default 2000 ms. */
  readonly rebroadcastIntervalMs?: number;
  /** How long a send lease lasts unrenewed (a dead sender's executions are taken over after it). Default 10 s. */
  readonly sendLeaseMs?: number;
}

export interface LandingDeps {
  /** The main RPC: sends (with preflight), block height, reads. */
  readonly chain: SolanaChain;
  readonly store: Pick<Store, "executions" | "issuedTransactions" | "orders" | "swapOrders">;
  readonly logger: Logger;
  /** `SEND_RPC_URLS`: every send also goes there (no preflight); statuses are read there too. */
  readonly senders?: readonly TransactionSender[];
  /** `BLOCK_ENGINE_URL`: a transaction tipping one of `tipAccounts` is also sent to it as a bundle. */
  readonly blockEngine?: { readonly engine: BlockEngine; readonly tipAccounts: readonly string[] };
  /** More endpoints statuses are read from (the `SOLANA_RPC_URLS` after the first). */
  readonly readers?: readonly SignatureReader[];
  /** Handlers by issued kind, over swapd's own (swap, create_order). */
  readonly onLanded?: LandedHandlers;
}

/** The longest pause between the reads of a refused execution. */
const REFUSED_WATCH_MAX_PAUSE_MS = 5_000;

/** Progress of one execution, for watchers (ExecuteAndWatch). */
export type ExecutionStage = "sent";

/** An execution being followed by this process. */
interface Followed extends FollowedTransaction {
  readonly wire: Uint8Array;
  /** It tips a relay tip account: each send also goes to the block engine, as a bundle. */
  readonly bundle: boolean;
  firstSentAt: number | undefined;
  lastSentAt: number;
}

export class ExecutionConfirmations {
  /** This process's name on send leases. */
  readonly sender = randomUUID();
  private readonly inFlight = new Map<string, Promise<ExecutionRecord>>();
  private readonly watchers = new Map<string, Set<(stage: ExecutionStage) => void>>();
  private readonly handlers: Map<string, LandedHandler>;
  private readonly readers: readonly SignatureReader[];
  private readonly verdictDeps: ChainVerdictDeps;
  private readonly tipAccounts: ReadonlySet<string>;
  private readonly stopping = new AbortController();
  private readonly pollIntervalMs: number;
  private readonly maxWaitMs: number;
  private readonly rebroadcastIntervalMs: number;
  readonly sendLeaseMs: number;

  constructor(
    private readonly deps: LandingDeps,
    options: ConfirmationOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? 300_000;
    this.rebroadcastIntervalMs = options.rebroadcastIntervalMs ?? 2_000;
    this.sendLeaseMs = options.sendLeaseMs ?? 10_000;
    this.handlers = new Map(Object.entries({ ...defaultLandedHandlers(deps), ...deps.onLanded }));
    const statusReaders = (deps.senders ?? []).filter((s): s is TransactionSender & SignatureReader => !!s.getSignatureStatuses && !!s.getTransaction);
    this.readers = [deps.chain, ...(deps.readers ?? []), ...statusReaders];
    this.verdictDeps = { chain: deps.chain, readers: this.readers };
    this.tipAccounts = new Set(deps.blockEngine?.tipAccounts ?? []);
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
   * The record once the chain decided it (or still Pending after `maxWaitMs` / on shutdown).
   * `created`: this caller recorded the execution just now, holding its send lease: the loop
   * sends before it first looks. Every caller of one signature shares one loop.
   */
  settle(
    record: ExecutionRecord,
    options: { readonly created?: boolean; readonly parsed?: Pick<SignedTransaction, "instructionProgramIds"> } = {},
  ): Promise<ExecutionRecord> {
    if (record.status !== "Pending") return Promise.resolve(record);
    const running = this.inFlight.get(record.signature);
    if (running !== undefined) return running;
    const run = this.run(record, options.created === true, options.parsed).finally(() => this.inFlight.delete(record.signature));
    this.inFlight.set(record.signature, run);
    return run;
  }

  /**
   * A final record the chain did not decide (a refusal, an expiry, or one from before the chain
   * decided outcomes): one look at every endpoint, and the chain's outcome recorded when it knows
   * the signature. What a repeated Execute answers.
   */
  async recheck(record: ExecutionRecord): Promise<ExecutionRecord> {
    if (record.status === "Pending" || record.decidedBy === "chain" || record.signedTransaction === null) return record;
    try {
      const followed = this.followed(record);
      const look = await lookAtChain(this.verdictDeps, followed, { expiry: false });
      return typeof look === "object" && "landed" in look ? await this.finish(followed, look.landed) : record;
    } catch (error) {
      if (!isChainError(error)) throw error;
      this.deps.logger.warn({ err: error, signature: record.signature }, "could not re-read a failed execution; answering the record");
      return record;
    }
  }

  /** Runs the landed handler of a successful execution again (e.g. its transaction was not served the first time). */
  async landed(record: ExecutionRecord): Promise<void> {
    if (record.status !== "Success") return;
    const issued = await this.deps.store.issuedTransactions.find(record.requestId, record.messageHash);
    const handler = issued === null ? undefined : this.handlers.get(issued.kind);
    if (issued === null || handler === undefined) return;
    let read: Promise<VersionedTransactionResponse | null> | undefined;
    await handler({ record, issued, transaction: () => (read ??= landedTransaction(this.readers, record.signature)) });
  }

  /** Stops every wait (graceful shutdown); the records stay Pending for the next start. */
  close(): void {
    this.stopping.abort();
  }

  get closed(): boolean {
    return this.stopping.signal.aborted;
  }

  private followed(record: ExecutionRecord, parsed?: Pick<SignedTransaction, "instructionProgramIds">): Followed {
    const wire = record.signedTransaction;
    if (wire === null) throw new Error(`execution ${record.signature} has no signed transaction to follow`);
    const instructionProgramIds = (parsed ?? parseSignedTransaction("signedTransaction", wire)).instructionProgramIds;
    const bundle = this.tipAccounts.size > 0 && relayTipLamports(wire, this.tipAccounts) > 0n;
    const durableNonce = durableNonceOf(VersionedTransaction.deserialize(wire).message);
    return { record, wire, bundle, instructionProgramIds, durableNonce, firstSentAt: undefined, lastSentAt: Number.NEGATIVE_INFINITY };
  }

  private async run(record: ExecutionRecord, created: boolean, parsed: Pick<SignedTransaction, "instructionProgramIds"> | undefined): Promise<ExecutionRecord> {
    const followed = this.followed(record, parsed);
    const deadline = Date.now() + this.maxWaitMs;
    if (created) {
      const refusal = await this.send(followed);
      if (refusal !== null) return this.refused(followed, refusal, deadline);
    }
    let first = !created;
    while (!this.closed && Date.now() < deadline) {
      if (!first) await this.sleep(this.pollIntervalMs);
      first = false;
      if (this.closed) break;
      try {
        const look = await lookAtChain(this.verdictDeps, followed, { expiry: true });
        if (typeof look === "object") return this.finish(followed, "landed" in look ? look.landed : expiredOutcome(look.expired));
        if (look !== "unseen" || Date.now() - followed.lastSentAt < this.rebroadcastIntervalMs) continue;
        // Unseen, blockhash valid: the lease holder (re-)sends; every other process only reads.
        if (!(await this.deps.store.executions.claimSend(record.signature, this.sender, this.sendLeaseMs))) continue;
        const refusal = await this.send(followed);
        if (refusal !== null) return this.refused(followed, refusal, deadline);
      } catch (error) {
        if (!isChainError(error)) throw error;
        this.deps.logger.warn({ err: error, signature: record.signature }, "confirmation poll failed; retrying");
      }
    }
    return (await this.deps.store.executions.findBySignature(record.signature)) ?? record;
  }

  /**
   * A preflight refusal: answered Failed at once (the node simulated it and it fails), and watched
   * without sending until its blockhash expires (or the wait ends), in case it lands after all
   * (another endpoint took it): then the chain's outcome replaces the refusal.
   */
  private async refused(followed: Followed, refusal: PreflightRefusal, deadline: number): Promise<ExecutionRecord> {
    const text = await explainTransactionFailure(this.deps.chain, refusal.err, {
      instructionProgramIds: followed.instructionProgramIds,
      ...(refusal.logs ? { logs: refusal.logs } : {}),
    });
    const done = await this.finish(followed, { status: "Failed", code: FAILED_EXECUTION_CODE, error: text, decidedBy: "refusal" });
    void this.watchAfterRefusal(followed, deadline);
    return done;
  }

  private async watchAfterRefusal(followed: Followed, deadline: number): Promise<void> {
    // A refused transaction seldom lands: the reads back off (doubling, at most every 5 s).
    let pause = this.pollIntervalMs;
    while (!this.closed && Date.now() < deadline) {
      await this.sleep(pause);
      pause = Math.min(pause * 2, Math.max(this.pollIntervalMs, REFUSED_WATCH_MAX_PAUSE_MS));
      try {
        const look = await lookAtChain(this.verdictDeps, followed, { expiry: true });
        if (typeof look === "object") {
          if ("landed" in look) await this.finish(followed, look.landed);
          return;
        }
      } catch (error) {
        // A failed read is retried at the next poll; the refusal stands meanwhile.
        this.deps.logger.debug({ err: error, signature: followed.record.signature }, "watching a refused execution: poll failed");
      }
    }
  }

  /**
   * Sends once everywhere (preflight on this process's first send). Returns a preflight refusal, if
   * any. Never a preflight for a durable-nonce transaction: it may still land whenever it is sent
   * until its nonce advances, so a refusal could not answer it (its sender simulates it first).
   */
  private async send(followed: Followed): Promise<PreflightRefusal | null> {
    const { record, wire, bundle } = followed;
    const first = followed.firstSentAt === undefined;
    followed.lastSentAt = Date.now();
    followed.firstSentAt ??= followed.lastSentAt;
    if (!first) landingRebroadcasts.inc();
    try {
      const blockEngine = bundle ? this.deps.blockEngine?.engine : undefined;
      const preflight = first && followed.durableNonce === null;
      return await broadcast(
        { chain: this.deps.chain, senders: this.deps.senders ?? [], blockEngine, logger: this.deps.logger },
        wire,
        record.signature,
        preflight,
      );
    } finally {
      for (const watcher of this.watchers.get(record.signature) ?? []) watcher("sent");
    }
  }

  /** Records the outcome (the store keeps the chain's word over any other), counts it, and runs the kind's landed handler. */
  private async finish({ record, firstSentAt }: Followed, outcome: ExecutionOutcome): Promise<ExecutionRecord> {
    const { store, logger } = this.deps;
    const done = (await store.executions.finish(record.signature, outcome)) ?? record;
    logger.info(
      { signature: record.signature, requestId: record.requestId, status: done.status, decidedBy: done.decidedBy, error: done.error },
      "execution finished",
    );
    if (firstSentAt !== undefined) landingConfirmationSeconds.observe((Date.now() - firstSentAt) / 1000);
    if (done.status === "Success") landingLanded.inc();
    else landingFailed.inc({ reason: failureReason(done.error) });
    await this.landed(done).catch((err: unknown) =>
      logger.error({ err, signature: done.signature }, "the landed handler failed; the execution record stands (a repeated Execute runs it again)"),
    );
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
