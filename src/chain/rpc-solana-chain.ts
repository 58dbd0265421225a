import {
  AddressLookupTableAccount,
  AddressLookupTableProgram,
  Connection,
  SolanaJSONRPCError,
  Transaction,
  VersionedTransaction,
} from "@solana/web3.js";
import type {
  Commitment,
  ConfirmedSignatureInfo,
  ConnectionConfig,
  Finality,
  GetProgramAccountsFilter,
  PublicKey,
  SignatureStatus,
  VersionedTransactionResponse,
} from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { decodeMintInfo } from "../core/solana/token-accounts.js";
import { accountFromJson, contextSlot, contextValue } from "./account-json.js";
import { ChainRpcError, ChainUnavailableError, isChainError } from "./chain-errors.js";
import { MintAccountCache } from "./mint-account-cache.js";
import type { EndpointHealth } from "./rpc-endpoint.js";
import { RpcTransport } from "./rpc-transport.js";
import type { JsonRpcAnswer, JsonRpcCall, RpcTransportOptions, RpcTransportStats } from "./rpc-transport.js";
import type {
  ChainHealth,
  LatestBlockhash,
  MintInfo,
  PrioritizationFee,
  ReadBatchRequest,
  ReadBatchResult,
  SignaturesForAddressOptions,
  SimulationResult,
  ProgramAccountsOptions,
  SolanaChain,
} from "./solana-chain.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";

/** The RPC's limits per call. */
const MAX_ACCOUNTS_PER_CALL = 100;
const MAX_SIGNATURES_PER_STATUS_CALL = 256;
/** getRecentPrioritizationFees refuses more; the fees of the first 128 write-locked accounts stand for all. */
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;
const BLOCKHASH_MAX_AGE_MS = 1_000;

export interface RpcSolanaChainOptions extends RpcTransportOptions {
  /** Default `confirmed`. */
  readonly commitment?: Commitment;
  /** Blockhash cache lifetime, at most (and by default) 1 000 ms. */
  readonly blockhashMaxAgeMs?: number;
  /**
   * Send `readBatch` as one JSON-RPC batch (default). Some providers refuse batches: with
   * `false`, its calls go out as parallel single requests.
   */
  readonly batchRequests?: boolean;
  /** How many mint accounts the mint cache keeps (least recently used out first). */
  readonly mintCacheEntries?: number;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Keys without repeats, first occurrence kept. */
function uniqueKeys(keys: readonly PublicKey[]): PublicKey[] {
  const seen = new Set<string>();
  return keys.filter((key) => {
    const text = base58Of(key);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

function parseBlockhash(value: unknown): LatestBlockhash {
  const v = value as LatestBlockhash;
  if (typeof v?.blockhash !== "string" || typeof v.lastValidBlockHeight !== "number") {
    throw new TypeError("unexpected getLatestBlockhash value");
  }
  return { blockhash: v.blockhash, lastValidBlockHeight: v.lastValidBlockHeight };
}

function parseFees(value: unknown): PrioritizationFee[] {
  if (!Array.isArray(value)) throw new TypeError("unexpected getRecentPrioritizationFees value");
  return value.map((f: PrioritizationFee) => ({ slot: Number(f.slot), prioritizationFee: Number(f.prioritizationFee) }));
}

function parseAccounts(keys: readonly PublicKey[], value: unknown): (AccountData | null)[] {
  if (!Array.isArray(value) || value.length !== keys.length) {
    throw new TypeError(`unexpected getMultipleAccounts value (expected ${keys.length} entries)`);
  }
  return keys.map((key, i) => accountFromJson(key, value[i]));
}

function wireOf(tx: VersionedTransaction | Transaction | Uint8Array): Uint8Array {
  if (tx instanceof Uint8Array) return tx;
  if (tx instanceof VersionedTransaction) return tx.serialize();
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false });
}

/**
 * `SolanaChain` over JSON-RPC: web3.js `Connection` for the reads whose answers it validates
 * (transactions, statuses, signatures, program accounts), direct JSON-RPC for the hot path
 * (accounts, blockhash, fees: batchable) and for send/simulate (full control of errors). Both go
 * through the same `RpcTransport` (timeouts, retries, round-trip counting).
 */
export class RpcSolanaChain implements SolanaChain {
  readonly url: string;
  readonly connection: Connection;
  private readonly transport: RpcTransport;
  private readonly commitment: Commitment;
  /** Transaction history is not served at `processed`: those reads use `confirmed` at least. */
  private readonly historyCommitment: Finality;
  private readonly blockhashMaxAgeMs: number;
  private readonly batchRequests: boolean;
  private blockhashCache: { value: LatestBlockhash; at: number } | undefined;
  private blockhashInFlight: Promise<LatestBlockhash> | undefined;
  readonly mintAccounts: MintAccountCache;
  private readonly lookupTableCache = new Map<string, AddressLookupTableAccount>();

  constructor(options: RpcSolanaChainOptions) {
    this.url = options.url;
    this.transport = new RpcTransport(options);
    this.commitment = options.commitment ?? "confirmed";
    this.historyCommitment = this.commitment === "processed" ? "confirmed" : (this.commitment as Finality);
    this.blockhashMaxAgeMs = Math.min(options.blockhashMaxAgeMs ?? BLOCKHASH_MAX_AGE_MS, BLOCKHASH_MAX_AGE_MS);
    this.batchRequests = options.batchRequests ?? true;
    this.mintAccounts = new MintAccountCache(options.mintCacheEntries);
    this.connection = new Connection(options.url, {
      commitment: this.commitment,
      fetch: this.transport.fetchForConnection as unknown as NonNullable<ConnectionConfig["fetch"]>,
      // The transport retries; web3.js's own 429 loop would multiply the attempts.
      disableRetryOnRateLimit: true,
    });
  }

  stats(): RpcTransportStats {
    return this.transport.stats();
  }

  endpointHealth(): EndpointHealth[] {
    return this.transport.endpointHealth();
  }

  /** Closes the kept-alive connections to the RPC (shutdown). */
  close(): void {
    this.transport.close();
  }

  /** Runs a web3.js call, turning its errors into the chain layer's. */
  private async viaConnection<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isChainError(error)) throw error;
      if (error instanceof SolanaJSONRPCError && typeof error.code === "number") {
        throw new ChainRpcError(method, error.code, error.message, error.data);
      }
      // web3.js validates answers; a shape it rejects means the node misbehaved.
      throw new ChainUnavailableError(method, `malformed answer (${(error as Error).message})`, 1, { cause: error });
    }
  }

  private parse<T>(method: string, run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (isChainError(error)) throw error;
      throw new ChainUnavailableError(method, `malformed answer (${(error as Error).message})`, 1, { cause: error });
    }
  }

  private freshBlockhash(): LatestBlockhash | undefined {
    const cached = this.blockhashCache;
    return cached && Date.now() - cached.at < this.blockhashMaxAgeMs ? cached.value : undefined;
  }

  private remember(value: LatestBlockhash, requestedAt: number): LatestBlockhash {
    if (!this.blockhashCache || this.blockhashCache.at <= requestedAt) this.blockhashCache = { value, at: requestedAt };
    return value;
  }

  private accountsCall(keys: readonly PublicKey[]): JsonRpcCall {
    return {
      method: "getMultipleAccounts",
      params: [keys.map((k) => base58Of(k)), { encoding: "base64", commitment: this.commitment }],
    };
  }

  private prioritizationFeesCall(accounts: readonly PublicKey[]): JsonRpcCall {
    return {
      method: "getRecentPrioritizationFees",
      params: [accounts.slice(0, MAX_PRIORITIZATION_FEE_ACCOUNTS).map((k) => base58Of(k))],
    };
  }

  async getMultipleAccounts(keys: readonly PublicKey[]): Promise<(AccountData | null)[]> {
    const parts = await Promise.all(
      chunks(keys, MAX_ACCOUNTS_PER_CALL).map(async (part) => {
        const call = this.accountsCall(part);
        const answer = await this.transport.call(call.method, call.params, { retry: true });
        return this.parse("getMultipleAccounts", () => parseAccounts(part, contextValue(answer)));
      }),
    );
    return parts.flat();
  }

  async readBatch(request: ReadBatchRequest): Promise<ReadBatchResult> {
    // Mints the cache knows are served from it; the others are read with the accounts.
    const { known, unknown } = this.mintAccounts.lookup(uniqueKeys(request.mints ?? []));
    const reads = unknown.length > 0 ? [...request.accounts, ...unknown] : request.accounts;
    const accountChunks = chunks(reads, MAX_ACCOUNTS_PER_CALL);
    const calls: JsonRpcCall[] = accountChunks.map((part) => this.accountsCall(part));
    const feesIndex = request.prioritizationFeeAccounts
      ? calls.push(this.prioritizationFeesCall(request.prioritizationFeeAccounts)) - 1
      : -1;
    const setIndices = (request.prioritizationFeeAccountSets ?? []).map((set) => calls.push(this.prioritizationFeesCall(set)) - 1);
    const cachedBlockhash = request.latestBlockhash === true ? this.freshBlockhash() : undefined;
    const blockhashIndex =
      request.latestBlockhash && !cachedBlockhash
        ? calls.push({ method: "getLatestBlockhash", params: [{ commitment: this.commitment }] }) - 1
        : -1;
    const requestedAt = Date.now();
    const answers = await this.send(calls);
    const resultOf = (i: number): unknown => {
      const answer = answers[i]!;
      if ("error" in answer) throw new ChainRpcError(calls[i]!.method, answer.error.code, answer.error.message, answer.error.data);
      return answer.result;
    };
    const read = this.parse("batch", () => accountChunks.flatMap((part, i) => parseAccounts(part, contextValue(resultOf(i)))));
    const slots = accountChunks.map((_, i) => contextSlot(resultOf(i))).filter((s): s is number => s !== undefined);
    const mints = new Map<string, AccountData | null>(known);
    unknown.forEach((mint, i) => {
      const account = read[request.accounts.length + i] ?? null;
      this.mintAccounts.remember(account);
      mints.set(base58Of(mint), account);
    });
    return this.parse("batch", () => ({
      accounts: read.slice(0, request.accounts.length),
      mints,
      ...(slots.length > 0 ? { contextSlot: Math.min(...slots) } : {}),
      ...(feesIndex >= 0 ? { prioritizationFees: parseFees(resultOf(feesIndex)) } : {}),
      ...(setIndices.length > 0 ? { prioritizationFeeSets: setIndices.map((i) => parseFees(resultOf(i))) } : {}),
      ...(request.latestBlockhash
        ? {
            latestBlockhash:
              cachedBlockhash ?? this.remember(parseBlockhash(contextValue(resultOf(blockhashIndex))), requestedAt),
          }
        : {}),
    }));
  }

  /** Calls as one batch request (or parallel singles when batching is off); none = no request. */
  private async send(calls: readonly JsonRpcCall[]): Promise<JsonRpcAnswer[]> {
    if (calls.length === 0) return [];
    if (this.batchRequests) return this.transport.batch(calls, { retry: true });
    return Promise.all(
      calls.map(async (c): Promise<JsonRpcAnswer> => {
        try {
          return { result: await this.transport.call(c.method, c.params, { retry: true }) };
        } catch (error) {
          if (error instanceof ChainRpcError) return { error: { code: error.rpcCode, message: error.rpcMessage, data: error.data } };
          throw error;
        }
      }),
    );
  }

  async getLatestBlockhash(): Promise<LatestBlockhash> {
    const fresh = this.freshBlockhash();
    if (fresh) return fresh;
    // Concurrent callers share one request.
    this.blockhashInFlight ??= (async () => {
      const requestedAt = Date.now();
      try {
        const answer = await this.transport.call("getLatestBlockhash", [{ commitment: this.commitment }], { retry: true });
        return this.remember(this.parse("getLatestBlockhash", () => parseBlockhash(contextValue(answer))), requestedAt);
      } finally {
        this.blockhashInFlight = undefined;
      }
    })();
    return this.blockhashInFlight;
  }

  async getRecentPrioritizationFees(accounts: readonly PublicKey[]): Promise<PrioritizationFee[]> {
    const call = this.prioritizationFeesCall(accounts);
    const answer = await this.transport.call(call.method, call.params, { retry: true });
    return this.parse("getRecentPrioritizationFees", () => parseFees(answer));
  }

  async simulateTransaction(tx: VersionedTransaction | Transaction | Uint8Array): Promise<SimulationResult> {
    const config = { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, commitment: this.commitment };
    const answer = await this.transport.call(
      "simulateTransaction",
      [Buffer.from(wireOf(tx)).toString("base64"), config],
      { retry: true },
    );
    return this.parse("simulateTransaction", () => {
      const v = contextValue(answer) as {
        err?: SimulationResult["err"];
        logs?: string[] | null;
        unitsConsumed?: number;
        replacementBlockhash?: LatestBlockhash | null;
        returnData?: { programId?: unknown; data?: unknown } | null;
      };
      if (v === null || typeof v !== "object") throw new TypeError("unexpected simulateTransaction value");
      return {
        err: v.err ?? null,
        logs: v.logs ?? [],
        unitsConsumed: typeof v.unitsConsumed === "number" ? v.unitsConsumed : null,
        replacementBlockhash: v.replacementBlockhash ? parseBlockhash(v.replacementBlockhash) : null,
        returnData: parseReturnData(v.returnData),
      };
    });
  }

  async sendTransaction(wire: Uint8Array, options: { skipPreflight?: boolean } = {}): Promise<string> {
    const config = {
      encoding: "base64",
      skipPreflight: options.skipPreflight ?? false,
      preflightCommitment: this.commitment,
    };
    const answer = await this.transport.call("sendTransaction", [Buffer.from(wire).toString("base64"), config], { retry: false });
    if (typeof answer !== "string") throw new ChainUnavailableError("sendTransaction", "malformed answer (expected a signature)", 1);
    return answer;
  }

  async getSignatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]> {
    const parts = await Promise.all(
      chunks(signatures, MAX_SIGNATURES_PER_STATUS_CALL).map((part) =>
        this.viaConnection("getSignatureStatuses", async () =>
          (await this.connection.getSignatureStatuses(part, { searchTransactionHistory: true })).value,
        ),
      ),
    );
    return parts.flat();
  }

  async getProgramAccounts(programId: PublicKey, filters: readonly GetProgramAccountsFilter[], options: ProgramAccountsOptions = {}): Promise<AccountData[]> {
    const slice = options.dataSlice ? { dataSlice: { ...options.dataSlice } } : {};
    if (options.timeoutMs === undefined) {
      const list = await this.viaConnection("getProgramAccounts", () =>
        this.connection.getProgramAccounts(programId, { filters: [...filters], encoding: "base64", commitment: this.commitment, ...slice }),
      );
      return list.map(({ pubkey, account }) => ({
        address: pubkey,
        owner: account.owner,
        lamports: BigInt(account.lamports),
        data: new Uint8Array(account.data),
        executable: account.executable,
      }));
    }
    // One attempt with the whole budget: a slow scan retried would cost the provider (and the quota) again.
    const timeoutMs = options.timeoutMs;
    const answer = await this.transport.call("getProgramAccounts", [base58Of(programId), { filters: [...filters], encoding: "base64", commitment: this.commitment, ...slice }], {
      retry: false,
      timeoutMs,
      attemptTimeoutMs: timeoutMs,
    });
    return this.parse("getProgramAccounts", () => {
      if (!Array.isArray(answer)) throw new TypeError("expected an array of accounts");
      return answer.map((item: { pubkey?: unknown; account?: unknown }) => {
        if (typeof item?.pubkey !== "string") throw new TypeError("an entry without a pubkey");
        const account = accountFromJson(publicKeyFromBase58(item.pubkey), item.account);
        if (!account) throw new TypeError(`entry ${item.pubkey} without an account`);
        return account;
      });
    });
  }

  getSignaturesForAddress(address: PublicKey, options: SignaturesForAddressOptions = {}): Promise<ConfirmedSignatureInfo[]> {
    return this.viaConnection("getSignaturesForAddress", () =>
      this.connection.getSignaturesForAddress(address, { ...options }, this.historyCommitment),
    );
  }

  getTransaction(signature: string): Promise<VersionedTransactionResponse | null> {
    return this.viaConnection("getTransaction", () =>
      this.connection.getTransaction(signature, {
        maxSupportedTransactionVersion: 0,
        commitment: this.historyCommitment,
      }),
    );
  }

  getSlot(): Promise<number> {
    return this.viaConnection("getSlot", () => this.connection.getSlot());
  }

  getBlockHeight(): Promise<number> {
    return this.viaConnection("getBlockHeight", () => this.connection.getBlockHeight());
  }

  async getMints(keys: readonly PublicKey[]): Promise<Map<string, MintInfo | null>> {
    const { known, unknown } = this.mintAccounts.lookup(keys);
    const accounts = new Map<string, AccountData | null>(known);
    const read = unknown.length > 0 ? await this.getMultipleAccounts(unknown) : [];
    read.forEach((account, i) => {
      this.mintAccounts.remember(account);
      accounts.set(base58Of(unknown[i]!), account);
    });
    const out = new Map<string, MintInfo | null>();
    for (const key of keys) {
      const account = accounts.get(base58Of(key));
      const info = account ? decodeMintInfo(account) : undefined;
      out.set(base58Of(key), info ? { address: key, programId: info.tokenProgram, decimals: info.decimals } : null);
    }
    return out;
  }

  async getLookupTables(
    keys: readonly PublicKey[],
    options: { refresh?: boolean } = {},
  ): Promise<Map<string, AddressLookupTableAccount | null>> {
    const out = new Map<string, AddressLookupTableAccount | null>();
    const missing = options.refresh ? [...keys] : keys.filter((k) => !this.lookupTableCache.has(base58Of(k)));
    const accounts = missing.length > 0 ? await this.getMultipleAccounts(missing) : [];
    accounts.forEach((account, i) => {
      const key = missing[i]!;
      if (account && account.owner.equals(AddressLookupTableProgram.programId)) {
        const state = AddressLookupTableAccount.deserialize(account.data);
        this.lookupTableCache.set(base58Of(key), new AddressLookupTableAccount({ key, state }));
      } else {
        this.lookupTableCache.delete(base58Of(key));
      }
    });
    for (const key of keys) out.set(base58Of(key), this.lookupTableCache.get(base58Of(key)) ?? null);
    return out;
  }

  async checkHealth(timeoutMs = 2_000): Promise<ChainHealth> {
    const started = Date.now();
    try {
      const [health, slot] = await this.transport.batch(
        [
          { method: "getHealth", params: [] },
          { method: "getSlot", params: [{ commitment: this.commitment }] },
        ],
        { retry: false, timeoutMs },
      );
      const latencyMs = Date.now() - started;
      if (health && "error" in health) return { ok: false, latencyMs, error: `getHealth: ${health.error.message}` };
      if (!slot || !("result" in slot) || typeof slot.result !== "number") {
        return { ok: false, latencyMs, error: "getSlot: no slot in the answer" };
      }
      return { ok: true, slot: slot.result, latencyMs };
    } catch (error) {
      return { ok: false, latencyMs: Date.now() - started, error: (error as Error).message };
    }
  }
}

/** `returnData: {programId, data: [base64, "base64"]}` of a simulation; null when absent or malformed. */
function parseReturnData(value: { programId?: unknown; data?: unknown } | null | undefined): SimulationResult["returnData"] {
  if (value === null || value === undefined || typeof value.programId !== "string" || !Array.isArray(value.data) || typeof value.data[0] !== "string") return null;
  return { programId: value.programId, data: new Uint8Array(Buffer.from(value.data[0], "base64")) };
}
