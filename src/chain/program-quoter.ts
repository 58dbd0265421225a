/**
 * The program quoter: an in-process SVM (LiteSVM) holding the binaries of AMMs whose math is not
 * public. A quote writes the pool's state (as the live cache holds it) into the SVM, sets the clock
 * to the current slot, and simulates the AMM's own swap instruction for the amount from a made-up
 * taker whose source token account holds it; what arrives in the destination account is the quote.
 * A program is the one exact quoter of itself: the proprietary AMMs price by their own oracles.
 *
 * Bounded: the swap runs under a compute-unit limit (its CPU budget), results are memoised per
 * (state account versions, slot, amount, direction), and a state account is copied into the SVM only
 * when its version changed (a 1 MiB program-state account is not copied per quote).
 */
import { AccountLayout, ACCOUNT_SIZE } from "@solana/spl-token";
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { getTransactionDecoder } from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import type { EncodedAccount } from "@solana/kit";
import { AmmError } from "../core/amm/adapter.js";
import type { PoolQuote, ProgramSwap, ProgramSwapTaker, QuoteClock } from "../core/amm/adapter.js";
import type { AccountData, AccountMap } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { NATIVE_MINT } from "../core/solana/programs.js";
import { programQuoteMetrics } from "./program-quoter-metrics.js";

/** The compute units one program quote may use (a swap of these AMMs takes ~70k). */
export const DEFAULT_PROGRAM_QUOTE_COMPUTE_UNITS = 400_000;
const MEMO_ENTRIES = 4096;
const TAKER_LAMPORTS = 1_000_000_000_000n;

export interface ProgramQuoterOptions {
  /** The compute-unit limit of one quote's swap. */
  readonly computeUnits?: number;
}

/** What a quote read: the amounts, and the compute units the program used. */
export interface ProgramQuote extends PoolQuote {
  readonly unitsConsumed: number;
}

/** The made-up taker: a fixed keypair and two token accounts no real chain holds. */
const TAKER = Keypair.fromSeed(new Uint8Array(32).fill(7));
const TAKER_ACCOUNTS: ProgramSwapTaker = {
  wallet: TAKER.publicKey,
  sourceTokenAccount: Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey,
  destinationTokenAccount: Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey,
};

export function programQuoteTaker(): ProgramSwapTaker {
  return TAKER_ACCOUNTS;
}

function encodeTokenAccount(mint: PublicKey, owner: PublicKey, amount: bigint, nativeReserve: bigint | null): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1, // initialized
      isNativeOption: nativeReserve === null ? 0 : 1,
      isNative: nativeReserve ?? 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

export class ProgramQuoter {
  private readonly svm: LiteSVM;
  private readonly programs = new Set<string>();
  /** The account version (object identity: the live cache hands out one object per version) last copied in. */
  private readonly written = new Map<string, AccountData>();
  private memo = new BoundedLruMap<string, ProgramQuote>(MEMO_ENTRIES);
  private readonly versionIds = new WeakMap<AccountData, number>();
  private nextVersionId = 1;
  private readonly computeUnits: number;
  private readonly rentReserve: bigint;

  constructor(options: ProgramQuoterOptions = {}) {
    this.computeUnits = options.computeUnits ?? DEFAULT_PROGRAM_QUOTE_COMPUTE_UNITS;
    // Simulation only: signatures and blockhashes are the quoter's own, history is not kept.
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
    this.rentReserve = this.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
    this.writeAccount(TAKER.publicKey, { lamports: TAKER_LAMPORTS, data: new Uint8Array(0), owner: SystemProgram.programId, executable: false });
  }

  /** Loads (or replaces, after an upgrade) a program's binary. */
  addProgram(programId: PublicKey, elf: Uint8Array): void {
    this.svm.addProgram(programId.toBase58() as never, elf);
    this.programs.add(base58Of(programId));
    this.memo = new BoundedLruMap<string, ProgramQuote>(MEMO_ENTRIES);
  }

  hasProgram(programId: PublicKey): boolean {
    return this.programs.has(base58Of(programId));
  }

  /**
   * Executes `swap` (an ExactIn of `amount`) on `accounts` at `clock`. Throws AmmError when a state
   * account is missing or the program is not loaded; a swap the program refuses is an incomplete
   * quote (the pool cannot fill this amount now) with the program's error as the reason.
   */
  quote(swap: ProgramSwap, amount: bigint, accounts: AccountMap, clock: QuoteClock): ProgramQuote {
    const programId = base58Of(swap.instruction.programId);
    if (!this.programs.has(programId)) throw new AmmError(`program ${programId} is not loaded in the program quoter`);
    const state = swap.stateAccounts.map((key) => {
      const account = accounts.get(base58Of(key));
      if (!account) throw new AmmError(`program quote needs account ${base58Of(key)}, which was not read or does not exist`);
      return account;
    });
    const key = this.memoKey(swap, amount, state, clock);
    const known = this.memo.get(key);
    if (known) {
      programQuoteMetrics.memoHits.inc();
      return known;
    }
    const started = process.hrtime.bigint();
    const result = this.execute(swap, amount, state, clock);
    programQuoteMetrics.quoteSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    this.memo.set(key, result);
    return result;
  }

  private memoKey(swap: ProgramSwap, amount: bigint, state: readonly AccountData[], clock: QuoteClock): string {
    const versions = state.map((account) => this.versionId(account)).join(",");
    return `${Buffer.from(swap.instruction.data).toString("hex")}|${amount}|${clock.slot}|${clock.unixTimestamp}|${versions}`;
  }

  private versionId(account: AccountData): number {
    let id = this.versionIds.get(account);
    if (id === undefined) {
      id = this.nextVersionId++;
      this.versionIds.set(account, id);
    }
    return id;
  }

  private execute(swap: ProgramSwap, amount: bigint, state: readonly AccountData[], clock: QuoteClock): ProgramQuote {
    for (const account of state) {
      const address = base58Of(account.address);
      if (this.written.get(address) === account) continue;
      this.writeAccount(account.address, account);
      this.written.set(address, account);
    }
    this.writeTakerTokenAccount(TAKER_ACCOUNTS.sourceTokenAccount, swap.source, amount);
    this.writeTakerTokenAccount(TAKER_ACCOUNTS.destinationTokenAccount, swap.destination, 0n);
    const svmClock = this.svm.getClock();
    svmClock.slot = clock.slot;
    svmClock.unixTimestamp = clock.unixTimestamp;
    this.svm.setClock(svmClock);

    const tx = new Transaction({ feePayer: TAKER.publicKey, blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: 0 });
    tx.add(ComputeBudgetProgram.setComputeUnitLimit({ units: this.computeUnits }));
    tx.add({ programId: swap.instruction.programId, keys: swap.instruction.keys, data: Buffer.from(swap.instruction.data) });
    tx.sign(TAKER);
    const result = this.svm.simulateTransaction(getTransactionDecoder().decode(tx.serialize()));
    const feeMint = swap.source.mint;
    if (result instanceof FailedTransactionMetadata) {
      programQuoteMetrics.refusals.inc();
      const logs = result.meta().logs();
      return {
        inAmount: 0n,
        outAmount: 0n,
        feeAmount: 0n,
        feeMint,
        complete: false,
        reason: `the program refused the swap: ${String(result.err())}${logs.length ? ` (${logs[logs.length - 1]})` : ""}`,
        unitsConsumed: Number(result.meta().computeUnitsConsumed()),
      };
    }
    const after = new Map(result.postAccounts().map((a) => [String(a.address), a]));
    const sourceLeft = tokenAmount(after.get(TAKER_ACCOUNTS.sourceTokenAccount.toBase58()), amount);
    const received = tokenAmount(after.get(TAKER_ACCOUNTS.destinationTokenAccount.toBase58()), 0n);
    return {
      inAmount: amount - sourceLeft,
      outAmount: received,
      // The program does not say which part of the price is its fee.
      feeAmount: 0n,
      feeMint,
      complete: sourceLeft === 0n,
      ...(sourceLeft === 0n ? {} : { reason: `the program took ${amount - sourceLeft} of ${amount}` }),
      unitsConsumed: Number(result.meta().computeUnitsConsumed()),
    };
  }

  private writeTakerTokenAccount(address: PublicKey, side: ProgramSwap["source"], amount: bigint): void {
    const native = side.mint.equals(NATIVE_MINT);
    this.writeAccount(address, {
      lamports: this.rentReserve + (native ? amount : 0n),
      data: encodeTokenAccount(side.mint, TAKER.publicKey, amount, native ? this.rentReserve : null),
      owner: side.tokenProgram,
      executable: false,
    });
  }

  private writeAccount(address: PublicKey, account: Omit<AccountData, "address">): void {
    this.svm.setAccount({
      address: address.toBase58(),
      data: account.data,
      lamports: account.lamports,
      programAddress: account.owner.toBase58(),
      executable: account.executable,
      space: BigInt(account.data.length),
    } as unknown as EncodedAccount);
  }
}

/** The amount of a token account as the simulation left it (`fallback` when it was not written). */
function tokenAmount(account: EncodedAccount | undefined, fallback: bigint): bigint {
  if (!account) return fallback;
  return AccountLayout.decode(account.data as Uint8Array).amount;
}
