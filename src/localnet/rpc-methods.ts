import { createHash } from "node:crypto";
import { VersionedMessage } from "@solana/web3.js";
import bs58 from "bs58";
import { encodeAccount } from "./account-encoding.js";
import { LAMPORTS_PER_SIGNATURE, messageFee } from "./compute-budget-fee.js";
import { JsonRpcError, RpcErrorCode, invalidParams } from "./json-rpc-error.js";
import type { LocalChain } from "./local-chain.js";
import { matchesFilters, parseProgramAccountFilters } from "./program-account-filter.js";
import { arrayParam, configParam, encodedBytesParam, integerParam, publicKeyParam, stringParam } from "./rpc-params.js";
import { tokenBalance, tokenSupply } from "./token-balances.js";
import type { TransactionRecord } from "./transaction-history.js";
import { transactionJson } from "./transaction-json.js";
import { TransactionRejectedError } from "./transaction-rejected-error.js";

export type RpcMethod = (params: readonly unknown[]) => unknown;

const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const PRIORITIZATION_FEE_SLOTS = 150;
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;
/** A fixed genesis hash: the embedded chain is its own cluster. */
const LOCALNET_GENESIS_HASH = bs58.encode(createHash("sha256").update("swapd localnet genesis").digest());

function rejectionToRpcError(error: TransactionRejectedError): JsonRpcError {
  if (error.kind === "signature") {
    return new JsonRpcError(RpcErrorCode.transactionSignatureVerificationFailure, error.message);
  }
  if (error.kind === "invalid") return invalidParams(error.message);
  const o = error.outcome;
  return new JsonRpcError(RpcErrorCode.sendTransactionPreflightFailure, error.message, {
    err: o?.err ?? null,
    logs: o?.logs ?? [],
    accounts: null,
    unitsConsumed: o?.unitsConsumed ?? 0,
    returnData: o?.returnData ?? null,
    innerInstructions: null,
  });
}

function withRejections<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TransactionRejectedError) throw rejectionToRpcError(error);
    throw error;
  }
}

function signatureStatus(record: TransactionRecord) {
  return {
    slot: record.slot,
    confirmations: null,
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    confirmationStatus: "finalized",
  };
}

/** A result with the RPC's `{ context: { slot, apiVersion }, value }` wrapper. */
type WithContext = (value: unknown) => { context: { slot: number; apiVersion: string }; value: unknown };

/** The JSON-RPC methods of the embedded chain, by name, with Solana's request and response shapes. */
export function createRpcMethods(chain: LocalChain): Record<string, RpcMethod> {
  const withContext: WithContext = (value) => ({ context: { slot: chain.slot, apiVersion: "2.2.0" }, value });
  return {
    ...clusterMethods(chain, withContext),
    ...accountMethods(chain, withContext),
    ...transactionMethods(chain, withContext),
    ...historyMethods(chain, withContext),
    ...feeMethods(chain),
  };
}

/** Health, version, slots, blockhashes, rent and message fees. */
function clusterMethods(chain: LocalChain, withContext: WithContext): Record<string, RpcMethod> {
  return {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": "2.2.0", "feature-set": 0 }),
    getGenesisHash: () => LOCALNET_GENESIS_HASH,
    getSlot: () => chain.slot,
    getBlockHeight: () => chain.blockHeight,
    getEpochInfo: () => ({
      absoluteSlot: chain.slot,
      blockHeight: chain.blockHeight,
      epoch: 0,
      slotIndex: chain.slot,
      slotsInEpoch: 432_000,
      transactionCount: chain.recentRecords().length,
    }),
    getLatestBlockhash: () => withContext(chain.latestBlockhash()),
    // Deprecated (removed from Agave 2.0's RPC) but still asked by older clients, Jupiter's
    // JavaScript router among them: the latest blockhash with the fee per signature.
    getRecentBlockhash: () => withContext({ blockhash: chain.latestBlockhash().blockhash, feeCalculator: { lamportsPerSignature: LAMPORTS_PER_SIGNATURE } }),
    getFees: () => {
      const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
      // Block height equals the slot on the embedded chain.
      return withContext({
        blockhash,
        feeCalculator: { lamportsPerSignature: LAMPORTS_PER_SIGNATURE },
        lastValidSlot: lastValidBlockHeight,
        lastValidBlockHeight,
      });
    },
    isBlockhashValid: (params) => withContext(chain.isBlockhashValid(stringParam(params[0], "blockhash"))),
    getMinimumBalanceForRentExemption: (params) => Number(chain.minimumBalanceForRentExemption(integerParam(params[0] ?? 0, "dataLength"))),
    getFeeForMessage: (params) => {
      const bytes = encodedBytesParam(params[0], "base64", "message");
      let message;
      try {
        message = VersionedMessage.deserialize(bytes);
      } catch {
        throw invalidParams("message: failed to deserialize");
      }
      if (!chain.isBlockhashValid(message.recentBlockhash)) return withContext(null);
      const fee = messageFee(message.staticAccountKeys, message.compiledInstructions, message.header.numRequiredSignatures);
      return withContext(fee.fee);
    },
  };
}

/** Account, balance, token and program-account reads. */
function accountMethods(chain: LocalChain, withContext: WithContext): Record<string, RpcMethod> {
  return {
    getBalance: (params) => withContext(Number(chain.getAccount(publicKeyParam(params[0], "pubkey"))?.lamports ?? 0n)),
    getAccountInfo: (params) => {
      const account = chain.getAccount(publicKeyParam(params[0], "pubkey"));
      return withContext(account ? encodeAccount(account, configParam(params, 1)) : null);
    },
    getMultipleAccounts: (params) => {
      const keys = arrayParam(params[0], "pubkeys");
      if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
        throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      }
      const config = configParam(params, 1);
      return withContext(
        keys.map((k, i) => {
          const account = chain.getAccount(publicKeyParam(k, `pubkeys[${i}]`));
          return account ? encodeAccount(account, config) : null;
        }),
      );
    },
    getTokenAccountBalance: (params) => {
      const key = publicKeyParam(params[0], "pubkey");
      const balance = tokenBalance(chain.getAccount(key), (k) => chain.getAccount(k));
      if (!balance) throw invalidParams("Invalid param: could not find account or not a token account");
      return withContext(balance.uiTokenAmount);
    },
    getTokenSupply: (params) => {
      const supply = tokenSupply(chain.getAccount(publicKeyParam(params[0], "pubkey")));
      if (!supply) throw invalidParams("Invalid param: not a Token mint");
      return withContext(supply);
    },
    getProgramAccounts: (params) => {
      const owner = publicKeyParam(params[0], "programId");
      const config = configParam(params, 1);
      const filters = parseProgramAccountFilters(config.filters);
      const list = chain
        .programAccounts(owner)
        .filter((a) => matchesFilters(a, filters))
        .map((a) => ({ pubkey: a.address.toBase58(), account: encodeAccount(a, config) }));
      return config.withContext === true ? withContext(list) : list;
    },
  };
}

/** Airdrop, send and simulate. */
function transactionMethods(chain: LocalChain, withContext: WithContext): Record<string, RpcMethod> {
  return {
    requestAirdrop: (params) => {
      const to = publicKeyParam(params[0], "pubkey");
      const lamports = integerParam(params[1], "lamports");
      return withRejections(() => chain.airdrop(to, BigInt(lamports)));
    },
    sendTransaction: (params) => {
      const config = configParam(params, 1);
      const wire = encodedBytesParam(params[0], config.encoding, "transaction");
      return withRejections(() => chain.sendTransaction(wire, { skipPreflight: config.skipPreflight === true }).signature);
    },
    simulateTransaction: (params) => {
      const config = configParam(params, 1);
      const wire = encodedBytesParam(params[0], config.encoding, "transaction");
      const sigVerify = config.sigVerify === true;
      const replaceRecentBlockhash = config.replaceRecentBlockhash === true;
      if (sigVerify && replaceRecentBlockhash) {
        throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
      }
      const result = withRejections(() => chain.simulateTransaction(wire, { sigVerify, replaceRecentBlockhash }));
      return withContext({
        err: result.err,
        logs: result.logs,
        accounts: null,
        unitsConsumed: result.unitsConsumed,
        returnData: result.returnData,
        innerInstructions: config.innerInstructions === true ? result.innerInstructions : null,
        ...(result.replacementBlockhash ? { replacementBlockhash: result.replacementBlockhash } : {}),
      });
    },
  };
}

/** Signature statuses, an address's signatures, and transactions. */
function historyMethods(chain: LocalChain, withContext: WithContext): Record<string, RpcMethod> {
  return {
    getSignatureStatuses: (params) => {
      const sigs = arrayParam(params[0], "signatures");
      if (sigs.length > MAX_SIGNATURE_STATUSES) {
        throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      }
      return withContext(
        sigs.map((s, i) => {
          const record = chain.getRecord(stringParam(s, `signatures[${i}]`));
          return record ? signatureStatus(record) : null;
        }),
      );
    },
    getSignaturesForAddress: (params) => {
      const key = publicKeyParam(params[0], "address").toBase58();
      const config = configParam(params, 1);
      const limit = config.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : integerParam(config.limit, "limit");
      if (limit > MAX_SIGNATURES_FOR_ADDRESS) throw invalidParams(`limit: at most ${MAX_SIGNATURES_FOR_ADDRESS}`);
      let records = chain.signaturesFor(key);
      if (typeof config.before === "string") {
        const at = records.findIndex((r) => r.signature === config.before);
        records = at >= 0 ? records.slice(at + 1) : [];
      }
      if (typeof config.until === "string") {
        const at = records.findIndex((r) => r.signature === config.until);
        if (at >= 0) records = records.slice(0, at);
      }
      return records.slice(0, limit).map((r) => ({
        signature: r.signature,
        slot: r.slot,
        err: r.err,
        memo: null,
        blockTime: r.blockTime,
        confirmationStatus: "finalized",
      }));
    },
    getTransaction: (params) => {
      const record = chain.getRecord(stringParam(params[0], "signature"));
      const config = configParam(params, 1);
      const encoding = config.encoding ?? "json";
      if (encoding !== "json" && encoding !== "base64") {
        throw invalidParams(`encoding: unsupported ${JSON.stringify(encoding)}`);
      }
      if (!record) return null;
      if (record.transaction.version === 0 && config.maxSupportedTransactionVersion === undefined) {
        throw new JsonRpcError(
          -32015,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        );
      }
      return transactionJson(record, encoding);
    },
  };
}

/** Recent prioritization fees. */
function feeMethods(chain: LocalChain): Record<string, RpcMethod> {
  return {
    getRecentPrioritizationFees: (params) => {
      const keys = params[0] === undefined ? [] : arrayParam(params[0], "accounts");
      if (keys.length > MAX_PRIORITIZATION_FEE_ACCOUNTS) {
        throw invalidParams(`Too many inputs provided; max ${MAX_PRIORITIZATION_FEE_ACCOUNTS}`);
      }
      const wanted = keys.map((k, i) => publicKeyParam(k, `accounts[${i}]`).toBase58());
      const fromSlot = chain.slot - PRIORITIZATION_FEE_SLOTS;
      // One transaction per slot here, so each slot's fee is that of its transaction when it
      // write-locks one of the accounts (or any transaction when none are given), else 0.
      return chain
        .recentRecords()
        .filter((r) => r.slot > fromSlot)
        .map((r) => ({
          slot: r.slot,
          prioritizationFee: wanted.length === 0 || wanted.some((k) => r.writableKeys.has(k)) ? Number(r.computeUnitPrice) : 0,
        }));
    },
  };
}
