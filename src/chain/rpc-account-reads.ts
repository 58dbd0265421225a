/**
 * The hot-path reads over direct JSON-RPC: accounts (in calls of 100), prioritization fees, and
 * `readBatch` (accounts, mints, fees and the blockhash as one JSON-RPC batch, or parallel singles
 * where the provider refuses batches); program accounts.
 */
import type { GetProgramAccountsFilter, PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { accountFromJson, contextSlot, contextValue } from "./account-json.js";
import { ChainRpcError } from "./chain-errors.js";
import type { MintAccountCache } from "./mint-account-cache.js";
import type { JsonRpcAnswer, JsonRpcCall } from "./rpc-transport.js";
import type { PrioritizationFee, ProgramAccountsOptions, ReadBatchRequest, ReadBatchResult } from "./solana-chain.js";
import type { BlockhashCache } from "./rpc-blockhash-cache.js";
import { chunks, parseAccounts, parseAnswer, parseBlockhash, parseFees, uniqueKeys, viaConnection } from "./rpc-context.js";
import type { RpcContext } from "./rpc-context.js";

/** The RPC's limits per call. */
const MAX_ACCOUNTS_PER_CALL = 100;
/** getRecentPrioritizationFees refuses more; the fees of the first 128 write-locked accounts stand for all. */
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;

export class AccountReads {
  constructor(
    private readonly rpc: RpcContext,
    private readonly batchRequests: boolean,
    private readonly blockhash: BlockhashCache,
    private readonly mintAccounts: MintAccountCache,
  ) {}

  private accountsCall(keys: readonly PublicKey[]): JsonRpcCall {
    return {
      method: "getMultipleAccounts",
      params: [keys.map((k) => base58Of(k)), { encoding: "base64", commitment: this.rpc.commitment }],
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
        const answer = await this.rpc.transport.call(call.method, call.params, { retry: true });
        return parseAnswer("getMultipleAccounts", () => parseAccounts(part, contextValue(answer)));
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
    const feesIndex = request.prioritizationFeeAccounts ? calls.push(this.prioritizationFeesCall(request.prioritizationFeeAccounts)) - 1 : -1;
    const setIndices = (request.prioritizationFeeAccountSets ?? []).map((set) => calls.push(this.prioritizationFeesCall(set)) - 1);
    const cachedBlockhash = request.latestBlockhash === true ? this.blockhash.fresh() : undefined;
    const blockhashIndex =
      request.latestBlockhash && !cachedBlockhash ? calls.push({ method: "getLatestBlockhash", params: [{ commitment: this.rpc.commitment }] }) - 1 : -1;
    const requestedAt = Date.now();
    const answers = await this.send(calls);
    const resultOf = (i: number): unknown => {
      const answer = answers[i];
      if ("error" in answer) throw new ChainRpcError(calls[i].method, answer.error.code, answer.error.message, answer.error.data);
      return answer.result;
    };
    const read = parseAnswer("batch", () => accountChunks.flatMap((part, i) => parseAccounts(part, contextValue(resultOf(i)))));
    const slots = accountChunks.map((_, i) => contextSlot(resultOf(i))).filter((s): s is number => s !== undefined);
    const mints = new Map<string, AccountData | null>(known);
    unknown.forEach((mint, i) => {
      const account = read[request.accounts.length + i] ?? null;
      this.mintAccounts.remember(account);
      mints.set(base58Of(mint), account);
    });
    return parseAnswer("batch", () => ({
      accounts: read.slice(0, request.accounts.length),
      mints,
      ...(slots.length > 0 ? { contextSlot: Math.min(...slots) } : {}),
      ...(feesIndex >= 0 ? { prioritizationFees: parseFees(resultOf(feesIndex)) } : {}),
      ...(setIndices.length > 0 ? { prioritizationFeeSets: setIndices.map((i) => parseFees(resultOf(i))) } : {}),
      ...(request.latestBlockhash
        ? {
            latestBlockhash: cachedBlockhash ?? this.blockhash.remember(parseBlockhash(contextValue(resultOf(blockhashIndex))), requestedAt),
          }
        : {}),
    }));
  }

  /** Calls as one batch request (or parallel singles when batching is off); none = no request. */
  private async send(calls: readonly JsonRpcCall[]): Promise<JsonRpcAnswer[]> {
    if (calls.length === 0) return [];
    if (this.batchRequests) return this.rpc.transport.batch(calls, { retry: true });
    return Promise.all(
      calls.map(async (c): Promise<JsonRpcAnswer> => {
        try {
          return { result: await this.rpc.transport.call(c.method, c.params, { retry: true }) };
        } catch (error) {
          if (error instanceof ChainRpcError) return { error: { code: error.rpcCode, message: error.rpcMessage, data: error.data } };
          throw error;
        }
      }),
    );
  }

  async getRecentPrioritizationFees(accounts: readonly PublicKey[]): Promise<PrioritizationFee[]> {
    const call = this.prioritizationFeesCall(accounts);
    const answer = await this.rpc.transport.call(call.method, call.params, { retry: true });
    return parseAnswer("getRecentPrioritizationFees", () => parseFees(answer));
  }

  async getProgramAccounts(programId: PublicKey, filters: readonly GetProgramAccountsFilter[], options: ProgramAccountsOptions = {}): Promise<AccountData[]> {
    const { connection, commitment, transport } = this.rpc;
    const slice = options.dataSlice ? { dataSlice: { ...options.dataSlice } } : {};
    if (options.timeoutMs === undefined) {
      const list = await viaConnection("getProgramAccounts", () =>
        connection.getProgramAccounts(programId, { filters: [...filters], encoding: "base64", commitment, ...slice }),
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
    const answer = await transport.call("getProgramAccounts", [base58Of(programId), { filters: [...filters], encoding: "base64", commitment, ...slice }], {
      retry: false,
      timeoutMs,
      attemptTimeoutMs: timeoutMs,
    });
    return parseAnswer("getProgramAccounts", () => {
      if (!Array.isArray(answer)) throw new TypeError("expected an array of accounts");
      return answer.map((item: { pubkey?: unknown; account?: unknown }) => {
        if (typeof item?.pubkey !== "string") throw new TypeError("an entry without a pubkey");
        const account = accountFromJson(publicKeyFromBase58(item.pubkey), item.account);
        if (!account) throw new TypeError(`entry ${item.pubkey} without an account`);
        return account;
      });
    });
  }
}
