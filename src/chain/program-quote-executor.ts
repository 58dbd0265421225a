/**
 * The SVM side of a program quote: an in-memory LiteSVM holding the programs, into which a quote's
 * state accounts, the made-up taker's token accounts and the clock are written before its route is
 * simulated, once per amount. The program quoter (program-quoter.ts) builds what to run and runs it
 * here, in its own thread or in a worker (program-quote-worker.ts): everything it takes and gives is
 * plain data (base58 texts, bytes, bigints), so it crosses threads as it is.
 */
import { ACCOUNT_SIZE } from "@solana/spl-token";
import type { EncodedAccount, Transaction as KitTransaction } from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { encodeTokenAccount } from "../core/solana/token-accounts.js";
import { PublicKey } from "@solana/web3.js";

/** An account as the executor writes it. */
export interface ExecAccount {
  readonly address: string;
  readonly owner: string;
  readonly lamports: bigint;
  readonly data: Uint8Array;
  readonly executable: boolean;
}

/** One route to simulate at several amounts. */
export interface ExecJob {
  /** The compiled transaction; the amount is written at `amountOffset` of its message per run. */
  readonly messageBytes: Uint8Array;
  readonly signatures: Readonly<Record<string, Uint8Array | null>>;
  readonly amountOffset: number;
  /** The taker and its two token accounts (mint, token program), base58. */
  readonly taker: string;
  readonly source: { readonly address: string; readonly mint: string; readonly tokenProgram: string };
  readonly destination: { readonly address: string; readonly mint: string; readonly tokenProgram: string };
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
}

export interface ExecResult {
  readonly outAmount: bigint;
  readonly complete: boolean;
  readonly reason?: string;
  readonly unitsConsumed: number;
}

const TAKER_LAMPORTS = 1_000_000_000_000n;
/**
 * What the taker's source token account holds: more than any amount quoted, so that it is written
 * once per mint rather than per quote (simulations leave the SVM's accounts as they were). A real
 * taker holds at least the amount too; the route moves exactly the amount.
 */
export const TAKER_SOURCE_BALANCE = 2n ** 63n;
const NATIVE_MINT_TEXT = "So11111111111111111111111111111111111111112";
const SYSTEM_PROGRAM_TEXT = "11111111111111111111111111111111";

export class SvmExecutor {
  private readonly svm: LiteSVM;
  private readonly rentReserve: bigint;
  /** The taker's accounts as last written: mint, token program, amount. */
  private readonly takerAccounts = new Map<string, string>();
  private readonly written = new Map<string, ExecAccount>();
  private takerWritten = "";

  constructor() {
    // Simulation only: signatures and blockhashes are the quoter's own, history is not kept.
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
    this.rentReserve = this.svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
  }

  addProgram(programId: string, elf: Uint8Array): void {
    this.svm.addProgram(programId as never, elf);
  }

  /** Whether the SVM holds `address` itself: a program or a sysvar. */
  isResident(address: string): boolean {
    const account = this.svm.getAccount(address as never) as { exists: boolean; executable?: boolean; programAddress?: string };
    return account.exists && (account.executable === true || account.programAddress === "Sysvar1111111111111111111111111111111111111");
  }

  /** Writes the accounts that are not already the same objects as last written. */
  write(accounts: readonly ExecAccount[]): void {
    for (const account of accounts) {
      if (this.written.get(account.address) === account) continue;
      this.setAccount(account);
      this.written.set(account.address, account);
    }
  }

  /** Simulates the job's route at each amount (the state written first with `write`). */
  run(job: ExecJob, amounts: readonly bigint[]): ExecResult[] {
    if (this.takerWritten !== job.taker) {
      this.setAccount({ address: job.taker, owner: SYSTEM_PROGRAM_TEXT, lamports: TAKER_LAMPORTS, data: new Uint8Array(0), executable: false });
      this.takerWritten = job.taker;
    }
    this.writeTakerTokenAccount(job.taker, job.source, TAKER_SOURCE_BALANCE);
    this.writeTakerTokenAccount(job.taker, job.destination, 0n);
    const clock = this.svm.getClock();
    clock.slot = job.slot;
    clock.unixTimestamp = job.unixTimestamp;
    this.svm.setClock(clock);
    const message = Buffer.from(job.messageBytes);
    const transaction = { messageBytes: message, signatures: job.signatures } as unknown as KitTransaction;
    return amounts.map((amount) => {
      message.writeBigUInt64LE(amount, job.amountOffset);
      const result = this.svm.simulateTransaction(transaction);
      if (result instanceof FailedTransactionMetadata) {
        const logs = result.meta().logs();
        return {
          outAmount: 0n,
          complete: false,
          reason: `the program refused the swap: ${String(result.err())}${logs.length ? ` (${logs[logs.length - 1]})` : ""}`,
          unitsConsumed: Number(result.meta().computeUnitsConsumed()),
        };
      }
      // Jupiter's route returns the amount it delivered (u64); its token checks ensure it arrived.
      const returned = result.meta().returnData().data();
      if (returned.length !== 8) throw new Error(`program quote: Jupiter returned ${returned.length} bytes, not the u64 amount out`);
      return { outAmount: Buffer.from(returned).readBigUInt64LE(0), complete: true, unitsConsumed: Number(result.meta().computeUnitsConsumed()) };
    });
  }

  /** The taker's token account holding `amount`, unless it already does. */
  private writeTakerTokenAccount(taker: string, account: ExecJob["source"], amount: bigint): void {
    const content = `${account.mint}|${account.tokenProgram}|${amount}`;
    if (this.takerAccounts.get(account.address) === content) return;
    this.takerAccounts.set(account.address, content);
    const native = account.mint === NATIVE_MINT_TEXT;
    this.setAccount({
      address: account.address,
      lamports: this.rentReserve + (native ? amount : 0n),
      data: encodeTokenAccount(new PublicKey(account.mint), new PublicKey(taker), amount, native ? this.rentReserve : null),
      owner: account.tokenProgram,
      executable: false,
    });
  }

  private setAccount(account: ExecAccount): void {
    this.svm.setAccount({
      address: account.address,
      data: account.data,
      lamports: account.lamports,
      programAddress: account.owner,
      executable: account.executable,
      space: BigInt(account.data.length),
    } as unknown as EncodedAccount);
  }
}
