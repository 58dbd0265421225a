/** What building a swap produces: its instruction groups and how its fee was set. */
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { ComputeUnitPricing } from "./compute-budget.js";

export type PrioritizationType =
  | { readonly kind: "computeBudget"; readonly microLamports: bigint; readonly estimatedMicroLamports: bigint | null }
  | { readonly kind: "relayTip"; readonly lamports: bigint };

export interface SwapInstructionsResult {
  readonly computeBudgetInstructions: TransactionInstruction[];
  readonly setupInstructions: TransactionInstruction[];
  readonly swapInstruction: TransactionInstruction;
  readonly cleanupInstruction: TransactionInstruction | undefined;
  readonly otherInstructions: TransactionInstruction[];
  /** Swap API v2's tip transfer (`tipAmount`), beside the compute unit price; absent without one. */
  readonly tipInstruction?: TransactionInstruction;
  readonly addressLookupTableAddresses: PublicKey[];
  readonly computeUnitLimit: number;
  readonly prioritizationFeeLamports: bigint;
  /** null with `"disabled"` (no price, no tip). */
  readonly prioritizationType: PrioritizationType | null;
  /** How the price follows the limit (for withComputeUnitLimit). */
  readonly computeUnitPricing: ComputeUnitPricing;
  /** Fee payer of the transaction (payer or user). */
  readonly payer: PublicKey;
  readonly asLegacyTransaction: boolean;
}
