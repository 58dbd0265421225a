import type {
  AddressLookupTableAccount,
  ConfirmedSignatureInfo,
  GetProgramAccountsFilter,
  PublicKey,
  SignatureStatus,
  Transaction,
  TransactionError,
  VersionedTransaction,
  VersionedTransactionResponse,
} from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import type { MintAccountCache } from "./mint-account-cache.js";
import type { EndpointHealth } from "./rpc-endpoint.js";
import type { RpcTransportStats } from "./rpc-transport.js";

export interface LatestBlockhash {
  readonly blockhash: string;
  readonly lastValidBlockHeight: number;
}

export interface PrioritizationFee {
  readonly slot: number;
  /** micro-lamports per compute unit */
  readonly prioritizationFee: number;
}

export interface SimulationResult {
  readonly err: TransactionError | null;
  readonly logs: string[];
  readonly unitsConsumed: number | null;
  /** The blockhash the node used instead of the transaction's own. */
  readonly replacementBlockhash: LatestBlockhash | null;
  /** What the last instruction that set return data returned (e.g. a Jupiter route's out amount). */
  readonly returnData?: { readonly programId: string; readonly data: Uint8Array } | null;
}

export interface MintInfo {
  readonly address: PublicKey;
  /** SPL Token or Token-2022 */
  readonly programId: PublicKey;
  readonly decimals: number;
}

/** What the swap hot path reads in ONE round trip. */
export interface ReadBatchRequest {
  readonly accounts: readonly PublicKey[];
  /**
   * Mint accounts: served from `mintAccounts` when known, the rest read in the same request and
   * remembered. With everything cached and nothing else asked, no request is made at all.
   */
  readonly mints?: readonly PublicKey[];
  /** When present, `getRecentPrioritizationFees` for these (write-locked) accounts (the first 128: the RPC's limit). */
  readonly prioritizationFeeAccounts?: readonly PublicKey[];
  /** More account sets whose fees to read in the same request (background refresh of several routes). */
  readonly prioritizationFeeAccountSets?: readonly (readonly PublicKey[])[];
  /**
   * Include the latest blockhash (served from the ≤ 1 s cache when fresh, not re-requested);
   * `"refresh"` asks the node every time (the background keeper).
   */
  readonly latestBlockhash?: boolean | "refresh";
}

export interface ReadBatchResult {
  /** In request order; `null` = the account does not exist. */
  readonly accounts: (AccountData | null)[];
  /** Every requested mint by base58 (cached or read); `null` = the account does not exist. */
  readonly mints: ReadonlyMap<string, AccountData | null>;
  readonly prioritizationFees?: PrioritizationFee[];
  /** One entry per `prioritizationFeeAccountSets` entry, in order. */
  readonly prioritizationFeeSets?: PrioritizationFee[][];
  readonly latestBlockhash?: LatestBlockhash;
  /**
   * The slot the node read `accounts` (and the mints read with them) at — the lowest of the
   * `getMultipleAccounts` contexts; absent when nothing was read or the node sent no context.
   */
  readonly contextSlot?: number;
}

export interface SignaturesForAddressOptions {
  readonly before?: string;
  readonly until?: string;
  readonly limit?: number;
}

export interface ChainHealth {
  readonly ok: boolean;
  readonly slot?: number;
  readonly latencyMs: number;
  readonly error?: string;
}

/**
 * Everything the service needs from Solana. Reads retry within a bounded budget and fail with
 * `ChainUnavailableError`; node-side errors are `ChainRpcError` (see chain-errors.ts).
 */
export interface ProgramAccountsOptions {
  readonly timeoutMs?: number;
  readonly dataSlice?: { readonly offset: number; readonly length: number };
}

export interface SolanaChain {
  readonly url: string;
  /** Accounts in request order (missing = null); chunked at 100 keys per call, chunks in parallel. */
  getMultipleAccounts(keys: readonly PublicKey[]): Promise<(AccountData | null)[]>;
  /** Accounts + fees + blockhash in a single HTTP request (a JSON-RPC batch). */
  readBatch(request: ReadBatchRequest): Promise<ReadBatchResult>;
  /** Cached for at most 1 s. */
  getLatestBlockhash(): Promise<LatestBlockhash>;
  getRecentPrioritizationFees(accounts: readonly PublicKey[]): Promise<PrioritizationFee[]>;
  /** Signature verification off, blockhash replaced by the node's latest. */
  simulateTransaction(tx: VersionedTransaction | Transaction | Uint8Array): Promise<SimulationResult>;
  /** Sends a signed wire transaction once (never retried); returns its signature. */
  sendTransaction(wire: Uint8Array, options?: { skipPreflight?: boolean }): Promise<string>;
  getSignatureStatuses(signatures: readonly string[]): Promise<(SignatureStatus | null)[]>;
  /**
   * `timeoutMs` gives the call a budget of its own, spent on one attempt (no retry): a provider's
   * getProgramAccounts can take many seconds, and retrying a slow scan multiplies its cost.
   * `dataSlice` has the node send only those bytes of each account (the accounts' `data` is then the slice).
   */
  getProgramAccounts(programId: PublicKey, filters: readonly GetProgramAccountsFilter[], options?: ProgramAccountsOptions): Promise<AccountData[]>;
  getSignaturesForAddress(address: PublicKey, options?: SignaturesForAddressOptions): Promise<ConfirmedSignatureInfo[]>;
  /** With inner instructions and logs; v0 transactions included. */
  getTransaction(signature: string): Promise<VersionedTransactionResponse | null>;
  getSlot(): Promise<number>;
  getBlockHeight(): Promise<number>;
  /**
   * The one mint cache (whole mint accounts; what is read from them never changes). `readBatch`
   * (its `mints`) and `getMints` go through it.
   */
  readonly mintAccounts: MintAccountCache;
  /** Mint owner program and decimals, through `mintAccounts`; `null` = missing or not a mint. */
  getMints(keys: readonly PublicKey[]): Promise<Map<string, MintInfo | null>>;
  /** Lookup-table contents, cached; missing from the cache (or `refresh`) = read from the chain. */
  getLookupTables(keys: readonly PublicKey[], options?: { refresh?: boolean }): Promise<Map<string, AddressLookupTableAccount | null>>;
  /** `getHealth` + `getSlot` in one request, within `timeoutMs`, never throwing. */
  checkHealth(timeoutMs?: number): Promise<ChainHealth>;
  /** Each RPC endpoint's circuit breaker, speed and last successful answer. */
  endpointHealth(): EndpointHealth[];
  /** Round trips (HTTP requests) and calls sent so far by this instance. */
  stats(): RpcTransportStats;
}
