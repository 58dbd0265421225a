import { Connection } from "@solana/web3.js";
import type {
  AddressLookupTableAccount,
  Commitment,
  ConfirmedSignatureInfo,
  ConnectionConfig,
  Finality,
  GetProgramAccountsFilter,
  PublicKey,
  SignatureStatus,
  Transaction,
  VersionedTransaction,
  VersionedTransactionResponse,
} from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { decodeMintInfo } from "../core/solana/token-accounts.js";
import { MintAccountCache } from "./mint-account-cache.js";
import type { EndpointHealth } from "./rpc-endpoint.js";
import { RpcTransport } from "./rpc-transport.js";
import type { RpcTransportOptions, RpcTransportStats } from "./rpc-transport.js";
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
import type { RpcContext } from "./rpc-context.js";
import { viaConnection } from "./rpc-context.js";
import { AccountReads } from "./rpc-account-reads.js";
import { BlockhashCache } from "./rpc-blockhash-cache.js";
import { LookupTableCache } from "./rpc-lookup-table-cache.js";
import { sendTransaction, simulateTransaction } from "./rpc-transaction-sends.js";
import { checkHealth, getSignatureStatuses, getSignaturesForAddress, getTransaction } from "./rpc-status-reads.js";

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

/**
 * `SolanaChain` over JSON-RPC: web3.js `Connection` for the reads whose answers it validates
 * (transactions, statuses, signatures, program accounts; rpc-status-reads.ts), direct
 * JSON-RPC for the hot path (accounts, blockhash, fees: batchable; rpc-account-reads.ts)
 * and for send/simulate (full control of errors; rpc-transaction-sends.ts). All go through
 * the same `RpcTransport` (timeouts, retries, round-trip counting). This class only wires them.
 */
export class RpcSolanaChain implements SolanaChain {
  readonly url: string;
  readonly connection: Connection;
  readonly mintAccounts: MintAccountCache;
  private readonly transport: RpcTransport;
  private readonly rpc: RpcContext;
  private readonly blockhash: BlockhashCache;
  private readonly reads: AccountReads;
  private readonly lookupTables: LookupTableCache;

  constructor(options: RpcSolanaChainOptions) {
    this.url = options.url;
    this.transport = new RpcTransport(options);
    const commitment = options.commitment ?? "confirmed";
    this.mintAccounts = new MintAccountCache(options.mintCacheEntries);
    this.connection = new Connection(options.url, {
      commitment,
      fetch: this.transport.fetchForConnection as unknown as NonNullable<ConnectionConfig["fetch"]>,
      // The transport retries; web3.js's own 429 loop would multiply the attempts.
      disableRetryOnRateLimit: true,
    });
    this.rpc = {
      transport: this.transport,
      connection: this.connection,
      commitment,
      // Transaction history is not served at `processed`: those reads use `confirmed` at least.
      historyCommitment: commitment === "processed" ? "confirmed" : (commitment as Finality),
    };
    this.blockhash = new BlockhashCache(this.rpc, Math.min(options.blockhashMaxAgeMs ?? BLOCKHASH_MAX_AGE_MS, BLOCKHASH_MAX_AGE_MS));
    this.reads = new AccountReads(this.rpc, options.batchRequests ?? true, this.blockhash, this.mintAccounts);
    this.lookupTables = new LookupTableCache((keys) => this.getMultipleAccounts(keys));
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

  getMultipleAccounts(keys: readonly PublicKey[]): Promise<(AccountData | null)[]> {
    return this.reads.getMultipleAccounts(keys);
  }

  readBatch(request: ReadBatchRequest): Promise<ReadBatchResult> {
    return this.reads.readBatch(request);
  }

  getLatestBlockhash(): Promise<LatestBlockhash> {
    return this.blockhash.get();
  }

  getRecentPrioritizationFees(accounts: readonly PublicKey[]): Promise<PrioritizationFee[]> {
    return this.reads.getRecentPrioritizationFees(accounts);
  }

  simulateTransaction(tx: VersionedTransaction | Transaction | Uint8Array): Promise<SimulationResult> {
    return simulateTransaction(this.rpc, tx);
  }

  sendTransaction(wire: Uint8Array, options: { skipPreflight?: boolean } = {}): Promise<string> {
    return sendTransaction(this.rpc, wire, options);
  }

  getSignatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]> {
    return getSignatureStatuses(this.rpc, signatures);
  }

  getProgramAccounts(programId: PublicKey, filters: readonly GetProgramAccountsFilter[], options: ProgramAccountsOptions = {}): Promise<AccountData[]> {
    return this.reads.getProgramAccounts(programId, filters, options);
  }

  getSignaturesForAddress(address: PublicKey, options: SignaturesForAddressOptions = {}): Promise<ConfirmedSignatureInfo[]> {
    return getSignaturesForAddress(this.rpc, address, options);
  }

  getTransaction(signature: string): Promise<VersionedTransactionResponse | null> {
    return getTransaction(this.rpc, signature);
  }

  getSlot(): Promise<number> {
    return viaConnection("getSlot", () => this.connection.getSlot());
  }

  getBlockHeight(): Promise<number> {
    return viaConnection("getBlockHeight", () => this.connection.getBlockHeight());
  }

  async getMints(keys: readonly PublicKey[]): Promise<Map<string, MintInfo | null>> {
    const { known, unknown } = this.mintAccounts.lookup(keys);
    const accounts = new Map<string, AccountData | null>(known);
    const read = unknown.length > 0 ? await this.getMultipleAccounts(unknown) : [];
    read.forEach((account, i) => {
      this.mintAccounts.remember(account);
      accounts.set(base58Of(unknown[i]), account);
    });
    const out = new Map<string, MintInfo | null>();
    for (const key of keys) {
      const account = accounts.get(base58Of(key));
      const info = account ? decodeMintInfo(account) : undefined;
      out.set(base58Of(key), info ? { address: key, programId: info.tokenProgram, decimals: info.decimals } : null);
    }
    return out;
  }

  getLookupTables(keys: readonly PublicKey[], options: { refresh?: boolean } = {}): Promise<Map<string, AddressLookupTableAccount | null>> {
    return this.lookupTables.get(keys, options);
  }

  checkHealth(timeoutMs = 2_000): Promise<ChainHealth> {
    return checkHealth(this.rpc, timeoutMs);
  }
}
