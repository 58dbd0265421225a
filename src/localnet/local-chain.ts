import { Keypair, SystemProgram, Transaction, VersionedTransaction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { LiteSVM } from "litesvm";
import type { AccountData } from "../core/solana/account.js";
import { messageFee } from "./compute-budget-fee.js";
import { executeOnSvm } from "./execution-outcome.js";
import { outcomeWithoutExecution } from "./transaction-outcome.js";
import type { ExecutionOutcome } from "./transaction-outcome.js";
import { resolveAccountKeys } from "./lookup-table-keys.js";
import { LocalSlotClock, type LocalChainClock } from "./local-slot-clock.js";
import { CLOCK_SYSVAR } from "../core/solana/clock-sysvar.js";
import { keypairFromSeedText } from "./seeded-keypair.js";
import { advancedNonceAccount, decodeNonceAccount } from "../core/solana/durable-nonce.js";
import { readAccount, readProgramAccounts, svmAddress, writeAccount } from "./svm-accounts.js";
import type { AccountInput } from "./svm-accounts.js";
import { tokenBalances } from "./token-balances.js";
import { describeTransactionError, isDroppedBeforeExecution } from "./transaction-error.js";
import { TransactionHistory } from "./transaction-history.js";
import type { TransactionRecord } from "./transaction-history.js";
import { TransactionRejectedError } from "./transaction-rejected-error.js";

const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;

/**
 * The embedded chain: a LiteSVM instance plus what a validator's RPC needs and LiteSVM lacks —
 * advancing slots and blockhashes, one slot per landed transaction (local-slot-clock.ts), and the
 * history of executed transactions (transaction-history.ts). Accounts are read and written
 * through svm-accounts.ts, transactions run through execution-outcome.ts.
 */
export class LocalChain {
  readonly svm: LiteSVM;
  readonly faucet: Keypair = keypairFromSeedText("swapd localnet faucet");
  private readonly clock: LocalSlotClock;
  /** Transactions land in the clock's slot (LocalChainClock.holdSlot). */
  private readonly holdSlot: boolean;
  private readonly history = new TransactionHistory();
  private readonly writeListeners = new Set<(keys: readonly PublicKey[], slot: number) => void>();

  /**
   * `clock` starts the chain at a given slot and time (snapshots of oracle-priced pools only swap
   * near the slot they were taken at); time then runs with the wall clock, one slot per landed transaction.
   */
  constructor(clock?: LocalChainClock) {
    // Blockhash validity is checked here (a window of recent hashes) instead of by LiteSVM,
    // which accepts only its single latest blockhash.
    this.svm = new LiteSVM().withNativeMints().withBlockhashCheck(false);
    writeAccount(this.svm, this.faucet.publicKey, { lamports: FAUCET_LAMPORTS, data: new Uint8Array(0), owner: SystemProgram.programId });
    this.clock = new LocalSlotClock(this.svm, clock);
    this.holdSlot = clock?.holdSlot === true;
  }

  get slot(): number {
    return this.clock.slot;
  }

  /** Block height equals the slot: the embedded chain never skips a slot. */
  get blockHeight(): number {
    return this.clock.slot;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    return this.clock.latestBlockhash();
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.clock.isBlockhashValid(blockhash);
  }

  /**
   * A transaction's blockhash is usable: a recent blockhash still valid, or a durable nonce — its
   * first instruction advances a nonce account whose stored value is the transaction's blockhash
   * (as a validator checks; LiteSVM then executes it).
   */
  private isAgeValid(tx: VersionedTransaction): boolean {
    if (this.isBlockhashValid(tx.message.recentBlockhash)) return true;
    const first = tx.message.compiledInstructions[0];
    const keys = tx.message.staticAccountKeys;
    if (first === undefined) return false;
    const programId = keys[first.programIdIndex];
    if (programId === undefined) return false;
    const nonceAccount = advancedNonceAccount(programId, first.data, first.accountKeyIndexes.map((i) => keys[i]).filter(Boolean));
    if (nonceAccount === null) return false;
    return decodeNonceAccount(this.getAccount(nonceAccount))?.nonce === tx.message.recentBlockhash;
  }

  getAccount(key: PublicKey): AccountData | null {
    return readAccount(this.svm, key);
  }

  setAccount(key: PublicKey, account: AccountInput): void {
    writeAccount(this.svm, key, account);
    this.accountsWritten([key], this.clock.slot);
  }

  /**
   * Called with the accounts a landed transaction wrote (its writable accounts; only the fee payer
   * for a failed one) at its slot, and with each `setAccount` at the current slot (account subscriptions).
   */
  onAccountsWritten(listener: (keys: readonly PublicKey[], slot: number) => void): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  private accountsWritten(keys: readonly PublicKey[], slot: number): void {
    for (const listener of this.writeListeners) listener(keys, slot);
  }

  programAccounts(owner: PublicKey): AccountData[] {
    return readProgramAccounts(this.svm, owner);
  }

  addProgram(programId: PublicKey, elf: Uint8Array): void {
    this.svm.addProgram(svmAddress(programId), elf);
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
    const err = this.history.get(signature)?.err ?? null;
    if (err !== null) {
      // e.g. less than the rent-exempt minimum to a new account
      throw new Error(`airdrop of ${lamports} lamports to ${to.toBase58()} failed: ${describeTransactionError(err)}`);
    }
    return signature;
  }

  getRecord(signature: string): TransactionRecord | undefined {
    return this.history.get(signature);
  }

  /** Signatures that touched `key`, newest first. */
  signaturesFor(key: string): readonly TransactionRecord[] {
    return this.history.signaturesFor(key);
  }

  recentRecords(): readonly TransactionRecord[] {
    return this.history.all();
  }

  /** Called with each landed transaction (websocket signature subscriptions). */
  onTransaction(listener: (record: TransactionRecord) => void): () => void {
    return this.history.onTransaction(listener);
  }

  private decode(wire: Uint8Array): VersionedTransaction {
    try {
      return VersionedTransaction.deserialize(wire);
    } catch (error) {
      throw new TransactionRejectedError("invalid", `failed to deserialize transaction: ${String(error)}`);
    }
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
    } else if (!this.isAgeValid(tx)) {
      return outcomeWithoutExecution("BlockhashNotFound");
    }
    this.svm.withSigverify(options.sigVerify);
    try {
      return { ...executeOnSvm(this.svm, bytes, true), ...(replacementBlockhash ? { replacementBlockhash } : {}) };
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
    if (this.history.get(signature)) return { signature };
    if (!this.isAgeValid(tx)) {
      throw new TransactionRejectedError("preflight", "Transaction simulation failed: Blockhash not found", outcomeWithoutExecution("BlockhashNotFound"));
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
    const getAccount = (k: PublicKey) => this.getAccount(k);
    const { keys, loaded } = resolveAccountKeys(tx.message, getAccount);
    const preBalances = keys.map((k) => Number(this.getAccount(k)?.lamports ?? 0n));
    const preTokenBalances = tokenBalances(keys, getAccount);
    const outcome = executeOnSvm(this.svm, wire, false);
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
      slot: this.clock.slot,
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
    // The next slot first: listeners (signature subscriptions) see the chain past this transaction.
    if (!this.holdSlot) this.clock.enterSlot(this.clock.slot + 1);
    this.history.add(record);
    const written = outcome.err === null ? keys.filter((_, i) => message.isAccountWritable(i)) : keys.slice(0, 1);
    // A new slot rewrites the Clock sysvar, as on a real chain (its subscribers are told each slot).
    this.accountsWritten(this.holdSlot ? written : [...written, CLOCK_SYSVAR], record.slot);
    return { signature };
  }
}
