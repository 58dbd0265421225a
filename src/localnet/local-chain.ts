import { address, getTransactionDecoder, lamports as toLamports } from "@solana/kit";
import type { EncodedAccount } from "@solana/kit";
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
} from "@solana/web3.js";
import bs58 from "bs58";
import { FailedTransactionMetadata, LiteSVM, SimulatedTransactionInfo } from "litesvm";
import type { TransactionMetadata } from "litesvm";
import type { AccountData } from "../core/solana/account.js";
import { messageFee } from "./compute-budget-fee.js";
import { keypairFromSeedText } from "./seeded-keypair.js";
import { tokenBalances } from "./token-balances.js";
import type { TokenBalanceJson } from "./token-balances.js";
import { describeTransactionError, isDroppedBeforeExecution, transactionErrorJson } from "./transaction-error.js";
import type { TransactionErrorJson } from "./transaction-error.js";

/** How many blocks a blockhash stays valid (Solana's MAX_PROCESSING_AGE). */
const BLOCKHASH_VALIDITY_BLOCKS = 150;
const SLOT_HASHES_KEPT = 150;
const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;

export interface InnerInstructionJson {
  readonly programIdIndex: number;
  readonly accounts: number[];
  readonly data: string;
  readonly stackHeight: number;
}

/** One executed transaction (successful or failed after execution), as kept for the RPC. */
export interface TransactionRecord {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number;
  readonly wire: Uint8Array;
  readonly transaction: VersionedTransaction;
  readonly accountKeys: readonly PublicKey[];
  readonly loadedAddresses: { readonly writable: string[]; readonly readonly: string[] };
  readonly writableKeys: ReadonlySet<string>;
  readonly err: TransactionErrorJson | null;
  readonly logs: string[];
  readonly innerInstructions: { index: number; instructions: InnerInstructionJson[] }[];
  readonly unitsConsumed: number;
  readonly fee: number;
  readonly computeUnitPrice: bigint;
  readonly preBalances: number[];
  readonly postBalances: number[];
  readonly preTokenBalances: TokenBalanceJson[];
  readonly postTokenBalances: TokenBalanceJson[];
  readonly returnData: { programId: string; data: [string, "base64"] } | null;
}

/** What executing or simulating a transaction produced. */
export interface ExecutionOutcome {
  readonly err: TransactionErrorJson | null;
  readonly logs: string[];
  readonly unitsConsumed: number;
  readonly innerInstructions: { index: number; instructions: InnerInstructionJson[] }[];
  readonly returnData: { programId: string; data: [string, "base64"] } | null;
}

/** A transaction the chain refused; `kind` tells the RPC layer which error code to answer. */
export class TransactionRejectedError extends Error {
  constructor(
    readonly kind: "preflight" | "signature" | "invalid",
    message: string,
    readonly outcome?: ExecutionOutcome,
  ) {
    super(message);
    this.name = "TransactionRejectedError";
  }
}

export interface AccountInput {
  readonly lamports: bigint;
  readonly data: Uint8Array;
  readonly owner: PublicKey;
  readonly executable?: boolean;
}

function toAddress(key: PublicKey) {
  return address(key.toBase58());
}

function outcomeOf(meta: TransactionMetadata, err: TransactionErrorJson | null): ExecutionOutcome {
  const innerInstructions = meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: Array.from(ix.accounts()),
          data: bs58.encode(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
  const ret = meta.returnData();
  const retData = ret.data();
  return {
    err,
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    innerInstructions,
    returnData:
      retData.length > 0
        ? {
            programId: new PublicKey(ret.programId()).toBase58(),
            data: [Buffer.from(retData).toString("base64"), "base64"],
          }
        : null,
  };
}

/**
 * The embedded chain: a LiteSVM instance plus what a validator's RPC needs and LiteSVM lacks —
 * advancing slots and blockhashes (one slot per landed transaction), a window of valid blockhashes,
 * a SlotHashes sysvar that lists recent slots (so lookup tables can be created at `getSlot()`),
 * and the history of executed transactions by signature and by address.
 */
export class LocalChain {
  readonly svm: LiteSVM;
  readonly faucet: Keypair = keypairFromSeedText("swapd localnet faucet");
  private slotValue = 1;
  private readonly validBlockhashes = new Map<string, number>();
  private readonly slotHashes: { slot: bigint; hash: string }[] = [];
  private readonly records = new Map<string, TransactionRecord>();
  private readonly recordsInOrder: TransactionRecord[] = [];
  private readonly signaturesByAddress = new Map<string, string[]>();
  private readonly listeners = new Set<(record: TransactionRecord) => void>();

  constructor() {
    // Blockhash validity is checked here (a window of recent hashes) instead of by LiteSVM,
    // which accepts only its single latest blockhash.
    this.svm = new LiteSVM().withNativeMints().withBlockhashCheck(false);
    this.svm.setAccount({
      address: toAddress(this.faucet.publicKey),
      data: new Uint8Array(0),
      lamports: toLamports(FAUCET_LAMPORTS),
      programAddress: address(SystemProgram.programId.toBase58()),
      executable: false,
      space: 0n,
    } as EncodedAccount);
    this.enterSlot(1);
  }

  get slot(): number {
    return this.slotValue;
  }

  /** Block height equals the slot: the embedded chain never skips a slot. */
  get blockHeight(): number {
    return this.slotValue;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const blockhash = this.svm.latestBlockhash();
    return { blockhash, lastValidBlockHeight: this.validBlockhashes.get(blockhash) ?? this.blockHeight };
  }

  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.validBlockhashes.get(blockhash);
    return lastValid !== undefined && lastValid >= this.blockHeight;
  }

  /** Moves to a new slot with a fresh blockhash, keeping SlotHashes and the clock in step. */
  private enterSlot(slot: number): void {
    this.slotValue = slot;
    this.svm.warpToSlot(BigInt(slot));
    this.svm.expireBlockhash();
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
    const blockhash = this.svm.latestBlockhash();
    this.validBlockhashes.set(blockhash, slot + BLOCKHASH_VALIDITY_BLOCKS);
    for (const [hash, lastValid] of this.validBlockhashes) {
      if (lastValid < slot) this.validBlockhashes.delete(hash);
    }
    // LiteSVM's warp leaves a single SlotHashes entry; the lookup-table program needs the
    // recent slots (newest first) to accept `recentSlot` = a slot a client just read.
    this.slotHashes.unshift({ slot: BigInt(slot), hash: blockhash });
    this.slotHashes.length = Math.min(this.slotHashes.length, SLOT_HASHES_KEPT);
    this.svm.setSlotHashes(this.slotHashes as unknown as Parameters<LiteSVM["setSlotHashes"]>[0]);
  }

  getAccount(key: PublicKey): AccountData | null {
    const account = this.svm.getAccount(toAddress(key));
    if (!account.exists) return null;
    return {
      address: key,
      owner: new PublicKey(account.programAddress),
      lamports: BigInt(account.lamports),
      data: account.data,
      executable: account.executable,
    };
  }

  setAccount(key: PublicKey, account: AccountInput): void {
    this.svm.setAccount({
      address: toAddress(key),
      data: account.data,
      lamports: toLamports(account.lamports),
      programAddress: toAddress(account.owner),
      executable: account.executable ?? false,
      space: BigInt(account.data.length),
    } as EncodedAccount);
  }

  programAccounts(owner: PublicKey): AccountData[] {
    return this.svm.getProgramAccounts(toAddress(owner)).map((a) => ({
      address: new PublicKey(a.address),
      owner,
      lamports: BigInt(a.lamports),
      data: a.data as Uint8Array,
      executable: a.executable,
    }));
  }

  addProgram(programId: PublicKey, elf: Uint8Array): void {
    this.svm.addProgram(toAddress(programId), elf);
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  /**
   * Sends lamports from the faucet in a real System transfer; returns its signature, or throws
   * when the transfer failed (it is still recorded, as on a real chain).
   */
  airdrop(to: PublicKey, lamports: bigint): string {
    const tx = new Transaction({
      feePayer: this.faucet.publicKey,
      blockhash: this.svm.latestBlockhash(),
      lastValidBlockHeight: this.latestBlockhash().lastValidBlockHeight,
    }).add(SystemProgram.transfer({ fromPubkey: this.faucet.publicKey, toPubkey: to, lamports }));
    tx.sign(this.faucet);
    const { signature } = this.sendTransaction(tx.serialize(), { skipPreflight: true });
    const err = this.records.get(signature)?.err ?? null;
    if (err !== null) {
      // e.g. less than the rent-exempt minimum to a new account
      throw new Error(`airdrop of ${lamports} lamports to ${to.toBase58()} failed: ${describeTransactionError(err)}`);
    }
    return signature;
  }

  getRecord(signature: string): TransactionRecord | undefined {
    return this.records.get(signature);
  }

  /** Signatures that touched `key`, newest first. */
  signaturesFor(key: string): readonly TransactionRecord[] {
    const sigs = this.signaturesByAddress.get(key) ?? [];
    const out: TransactionRecord[] = [];
    for (let i = sigs.length - 1; i >= 0; i -= 1) out.push(this.records.get(sigs[i]!)!);
    return out;
  }

  recentRecords(): readonly TransactionRecord[] {
    return this.recordsInOrder;
  }

  /** Called with each landed transaction (websocket signature subscriptions). */
  onTransaction(listener: (record: TransactionRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private decode(wire: Uint8Array): VersionedTransaction {
    try {
      return VersionedTransaction.deserialize(wire);
    } catch (error) {
      throw new TransactionRejectedError("invalid", `failed to deserialize transaction: ${String(error)}`);
    }
  }

  /** Static keys followed by the lookup tables' writable then read-only addresses. */
  private resolveKeys(tx: VersionedTransaction): {
    keys: PublicKey[];
    loaded: { writable: string[]; readonly: string[] };
  } {
    const writable: PublicKey[] = [];
    const readonly: PublicKey[] = [];
    for (const lookup of tx.message.addressTableLookups) {
      const table = this.getAccount(lookup.accountKey);
      if (!table) return { keys: [...tx.message.staticAccountKeys], loaded: { writable: [], readonly: [] } };
      const { addresses } = AddressLookupTableAccount.deserialize(table.data);
      for (const i of lookup.writableIndexes) if (addresses[i]) writable.push(addresses[i]!);
      for (const i of lookup.readonlyIndexes) if (addresses[i]) readonly.push(addresses[i]!);
    }
    return {
      keys: [...tx.message.staticAccountKeys, ...writable, ...readonly],
      loaded: { writable: writable.map((k) => k.toBase58()), readonly: readonly.map((k) => k.toBase58()) },
    };
  }

  private execute(wire: Uint8Array, simulate: boolean): ExecutionOutcome {
    let result;
    try {
      const kitTx = getTransactionDecoder().decode(wire);
      result = simulate ? this.svm.simulateTransaction(kitTx) : this.svm.sendTransaction(kitTx);
    } catch (error) {
      // litesvm's wrapper refuses unsigned transactions before executing them.
      throw new TransactionRejectedError("signature", `Transaction signature verification failure: ${String(error)}`);
    }
    if (result instanceof FailedTransactionMetadata) {
      return outcomeOf(result.meta(), transactionErrorJson(result.err()));
    }
    return outcomeOf(result instanceof SimulatedTransactionInfo ? result.meta() : result, null);
  }

  /**
   * Simulates without changing state. `sigVerify: false` skips signature checks;
   * `replaceRecentBlockhash` runs the transaction with the latest blockhash instead of its own.
   */
  simulateTransaction(
    wire: Uint8Array,
    options: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): ExecutionOutcome & { replacementBlockhash?: { blockhash: string; lastValidBlockHeight: number } } {
    const tx = this.decode(wire);
    let bytes = wire;
    let replacementBlockhash;
    if (options.replaceRecentBlockhash) {
      replacementBlockhash = this.latestBlockhash();
      tx.message.recentBlockhash = replacementBlockhash.blockhash;
      bytes = tx.serialize();
    } else if (!this.isBlockhashValid(tx.message.recentBlockhash)) {
      return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0, innerInstructions: [], returnData: null };
    }
    this.svm.withSigverify(options.sigVerify);
    try {
      return { ...this.execute(bytes, true), ...(replacementBlockhash ? { replacementBlockhash } : {}) };
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /**
   * Executes a signed transaction. With preflight, a failing transaction is refused and leaves no
   * trace (as a validator's RPC does); without, it lands, pays its fee and is recorded as failed.
   * Errors that a validator would drop before execution (bad blockhash, already processed...) are
   * refused in both modes, so that no client waits for a transaction that never lands.
   */
  sendTransaction(wire: Uint8Array, options: { skipPreflight: boolean }): { signature: string } {
    const tx = this.decode(wire);
    const first = tx.signatures[0];
    if (!first) throw new TransactionRejectedError("invalid", "transaction has no signatures");
    const signature = bs58.encode(first);
    if (this.records.has(signature)) return { signature };
    if (!this.isBlockhashValid(tx.message.recentBlockhash)) {
      throw new TransactionRejectedError("preflight", "Transaction simulation failed: Blockhash not found", {
        err: "BlockhashNotFound", logs: [], unitsConsumed: 0, innerInstructions: [], returnData: null,
      });
    }
    if (!options.skipPreflight) {
      const preflight = this.simulateTransaction(wire, { sigVerify: true, replaceRecentBlockhash: false });
      if (preflight.err === "SignatureFailure") {
        throw new TransactionRejectedError("signature", "Transaction signature verification failure", preflight);
      }
      if (preflight.err !== null) {
        throw new TransactionRejectedError("preflight", `Transaction simulation failed: ${describeTransactionError(preflight.err)}`, preflight);
      }
    }
    const { keys, loaded } = this.resolveKeys(tx);
    const getAccount = (k: PublicKey) => this.getAccount(k);
    const preBalances = keys.map((k) => Number(this.getAccount(k)?.lamports ?? 0n));
    const preTokenBalances = tokenBalances(keys, getAccount);
    const outcome = this.execute(wire, false);
    if (outcome.err !== null && isDroppedBeforeExecution(outcome.err)) {
      throw new TransactionRejectedError("preflight", `Transaction failed: ${outcome.err}`, outcome);
    }
    const postBalances = keys.map((k) => Number(this.getAccount(k)?.lamports ?? 0n));
    const postTokenBalances = tokenBalances(keys, getAccount);
    const message = tx.message;
    const fee = messageFee(keys, message.compiledInstructions, message.header.numRequiredSignatures);
    const writableKeys = new Set<string>();
    keys.forEach((k, i) => {
      if (message.isAccountWritable(i)) writableKeys.add(k.toBase58());
    });
    const record: TransactionRecord = {
      signature,
      slot: this.slotValue,
      blockTime: Math.floor(Date.now() / 1000),
      wire: new Uint8Array(wire),
      transaction: tx,
      accountKeys: keys,
      loadedAddresses: loaded,
      writableKeys,
      ...outcome,
      fee: fee.fee,
      computeUnitPrice: fee.computeUnitPrice,
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances,
    };
    this.records.set(signature, record);
    this.recordsInOrder.push(record);
    for (const key of new Set(keys.map((k) => k.toBase58()))) {
      const list = this.signaturesByAddress.get(key) ?? [];
      list.push(signature);
      this.signaturesByAddress.set(key, list);
    }
    this.enterSlot(this.slotValue + 1);
    for (const listener of this.listeners) listener(record);
    return { signature };
  }
}

