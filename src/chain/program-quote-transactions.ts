/**
 * What the program quoter's executor runs: the quote's transaction compiled once per route shape
 * (only the amount is written into it per quote, by the executor at `amountOffset`), the taker's
 * token accounts, and the clock.
 */
import { ComputeBudgetProgram, PublicKey, Transaction } from "@solana/web3.js";
import { getTransactionDecoder } from "@solana/kit";
import type { Transaction as KitTransaction } from "@solana/kit";
import { AmmError } from "../core/amm/adapter.js";
import type { QuoteClock } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import type { ExecJob } from "./program-quote-executor.js";
import { ROUTE_DATA_AMOUNTS_SIZE, TAKER_DESTINATION_TEXT, TAKER_KEY, TAKER_SOURCE_TEXT, TAKER_TEXT } from "./program-quote-swaps.js";
import type { QuoteSwap } from "./program-quote-swaps.js";

/** Any 64 bytes but zeros (which read as "not signed"): the quoter's SVM does not verify signatures. */
const PLACEHOLDER_SIGNATURE = Buffer.alloc(64, 1);

interface Template {
  readonly transaction: KitTransaction;
  readonly amountOffset: number;
}

export class QuoteTransactions {
  private readonly templates: BoundedLruMap<string, Template>;

  constructor(
    private readonly computeUnits: number,
    private readonly computeUnitPrice: number,
    entries: number,
  ) {
    this.templates = new BoundedLruMap(entries);
  }

  /** What the executor runs for `swap` over `state` at `clock` (amounts apart). */
  jobOf(swap: QuoteSwap, state: readonly AccountData[], clock: QuoteClock): ExecJob {
    const byAddress = new Map(state.map((a) => [base58Of(a.address), a]));
    const tokenProgram = (mint: PublicKey) => {
      const account = byAddress.get(base58Of(mint));
      if (!account) throw new AmmError(`program quote: mint ${base58Of(mint)} does not exist`);
      return base58Of(account.owner);
    };
    const template = this.templateOf(swap);
    return {
      messageBytes: template.transaction.messageBytes as unknown as Uint8Array,
      signatures: template.transaction.signatures,
      amountOffset: template.amountOffset,
      taker: TAKER_TEXT,
      source: { address: TAKER_SOURCE_TEXT, mint: base58Of(swap.sourceMint), tokenProgram: tokenProgram(swap.sourceMint) },
      destination: { address: TAKER_DESTINATION_TEXT, mint: base58Of(swap.destinationMint), tokenProgram: tokenProgram(swap.destinationMint) },
      slot: clock.slot,
      unixTimestamp: clock.unixTimestamp,
    };
  }

  /**
   * The quote's transaction, for any amount. Compiled once per route shape, then only the amount is
   * written into it (by the executor, at `amountOffset`): compiling (base58 of every key) and signing were most of a quote's cost.
   * Signatures are not checked here, so the taker's is a placeholder.
   */
  private templateOf(swap: QuoteSwap): Template {
    const data = Buffer.from(swap.route.data);
    const shape = swap.shape;
    let template = this.templates.get(shape);
    if (!template) {
      const tx = new Transaction({ feePayer: TAKER_KEY, blockhash: PublicKey.default.toBase58(), lastValidBlockHeight: 0 });
      // Both compute-budget instructions, as swapd's swaps carry them: SolFi V2 prices by the
      // transaction's compute-unit price (0, 1,000 and 1,000,000 µ-lamports and no price at all
      // give four different outputs for 1 SOL), so a quote assumes the swap's own.
      tx.add(ComputeBudgetProgram.setComputeUnitLimit({ units: this.computeUnits }));
      tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: this.computeUnitPrice }));
      tx.add(swap.route);
      tx.addSignature(TAKER_KEY, PLACEHOLDER_SIGNATURE);
      const transaction = getTransactionDecoder().decode(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
      const at = Buffer.from(transaction.messageBytes).indexOf(data);
      if (at < 0) throw new Error("program quote: the route's data is not in its compiled message");
      template = { transaction, amountOffset: at + data.length - ROUTE_DATA_AMOUNTS_SIZE };
      this.templates.set(shape, template);
    }
    return template;
  }
}
