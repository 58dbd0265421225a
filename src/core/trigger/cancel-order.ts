import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { computeBudgetInstructions } from "../solana/compute-budget.js";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT } from "../solana/programs.js";
import { associatedTokenAddress, createAssociatedTokenAccountIdempotent } from "../solana/token-accounts.js";
import { ValidationError } from "../validation-error.js";
import { compileTransaction } from "../solana/transaction-message.js";
import type { CompiledTransaction } from "../solana/transaction-message.js";
import { resolveComputeUnitPrice } from "./compute-unit-price.js";
import { getCancelOrderInstruction } from "./instructions/cancel-order.js";
import { decodeOrderAccount, hasOrderAccountDiscriminator } from "./order-account.js";
import type { OrderAccount } from "./order-account.js";
import { findEventAuthorityAddress } from "./pdas.js";
import { validateCancelOrderRequest } from "./validate.js";
import type { CancelOrderRequest, ValidCancelOrderRequest } from "./validate.js";

/** Compute units per cancel_order (Jupiter's single-cancel transactions set 36,000). */
export const CANCEL_ORDER_COMPUTE_UNITS = 36_000;
/** Headroom per idempotent ATA creation that precedes a cancel (creating one costs ~20–30k CU). */
export const CREATE_ATA_COMPUTE_UNITS = 30_000;

export interface OpenOrder {
  readonly orderKey: PublicKey;
  readonly account: OrderAccount;
}

/**
 * The order as read from the chain, if it is a Limit Order v2 Order of this maker; else a
 * ValidationError on `field` (Jupiter answers "no matching orders found").
 */
export function resolveMakersOrder(field: string, orderKey: PublicKey, maker: PublicKey, accounts: AccountMap): OpenOrder {
  const data = accounts.get(base58Of(orderKey));
  if (data === undefined || data === null)
    throw new ValidationError(field, "order_exists", "no matching order found (the account does not exist)", "ORDER_NOT_FOUND");
  if (!data.owner.equals(LIMIT_ORDER_V2_PROGRAM_ID) || !hasOrderAccountDiscriminator(data.data)) {
    throw new ValidationError(field, "order_account", "is not a Limit Order v2 order account", "ORDER_NOT_FOUND");
  }
  const account = decodeOrderAccount(data.data);
  if (!account.maker.equals(maker)) throw new ValidationError(field, "order_maker", "no matching order found for this maker", "ORDER_NOT_FOUND");
  return { orderKey, account };
}

export interface CancelInstructions {
  readonly instructions: readonly TransactionInstruction[];
  readonly computeUnits: number;
}

/**
 * cancel_order for one order. A wSOL input passes the maker input account as None, so the
 * program returns native SOL; any other input goes back to the maker's ATA, created first
 * (idempotently) because it may have been closed since. `createdAtas` de-duplicates the ATA
 * creation across the cancels of one transaction.
 */
export function getCancelInstructionsForOrder(signer: PublicKey, order: OpenOrder, createdAtas: Set<string> = new Set()): CancelInstructions {
  const { account } = order;
  const instructions: TransactionInstruction[] = [];
  let computeUnits = CANCEL_ORDER_COMPUTE_UNITS;
  let makerInputMintAccount: PublicKey | null = null;
  if (!account.inputMint.equals(NATIVE_MINT)) {
    makerInputMintAccount = associatedTokenAddress(account.maker, account.inputMint, account.inputTokenProgram);
    const ataKey = base58Of(makerInputMintAccount);
    if (!createdAtas.has(ataKey)) {
      createdAtas.add(ataKey);
      instructions.push(createAssociatedTokenAccountIdempotent(signer, account.maker, account.inputMint, account.inputTokenProgram));
      computeUnits += CREATE_ATA_COMPUTE_UNITS;
    }
  }
  instructions.push(
    getCancelOrderInstruction({
      signer,
      maker: account.maker,
      order: order.orderKey,
      // The reserve recorded in the order, not a re-derivation: it is what the program checks.
      inputMintReserve: account.inputMintReserve,
      makerInputMintAccount,
      inputMint: account.inputMint,
      inputTokenProgram: account.inputTokenProgram,
      eventAuthority: findEventAuthorityAddress(),
    }),
  );
  return { instructions, computeUnits };
}

export interface CancelEnvironment {
  /** The order account(s) as read from the chain (null = missing). */
  readonly accounts: AccountMap;
  readonly recentPriorityFees: readonly bigint[];
  readonly recentBlockhash: string;
  readonly legacyTransaction?: boolean;
}

export interface CancelTransaction extends CompiledTransaction {
  readonly orderKeys: readonly PublicKey[];
  readonly computeUnitLimit: number;
  readonly computeUnitPriceMicroLamports: bigint;
  readonly instructions: readonly TransactionInstruction[];
}

/** One transaction: compute budget, then the cancels of the given orders (signer = fee payer = maker). */
export function buildCancelTransaction(
  maker: PublicKey,
  orders: readonly OpenOrder[],
  computeUnitPriceMicroLamports: bigint,
  env: Pick<CancelEnvironment, "recentBlockhash" | "legacyTransaction">,
): CancelTransaction {
  const createdAtas = new Set<string>();
  const cancels = orders.map((order) => getCancelInstructionsForOrder(maker, order, createdAtas));
  const computeUnitLimit = cancels.reduce((sum, cancel) => sum + cancel.computeUnits, 0);
  const instructions: TransactionInstruction[] = [
    ...computeBudgetInstructions(computeUnitLimit, computeUnitPriceMicroLamports),
    ...cancels.flatMap((cancel) => cancel.instructions),
  ];
  const compiled = compileTransaction(instructions, maker, env.recentBlockhash, { legacy: env.legacyTransaction ?? false });
  return {
    ...compiled,
    orderKeys: orders.map((order) => order.orderKey),
    computeUnitLimit,
    computeUnitPriceMicroLamports,
    instructions,
  };
}

export interface CancelOrderTransaction extends CancelTransaction {
  readonly request: ValidCancelOrderRequest;
  readonly order: OpenOrder;
}

/** CancelOrder: validate; the order must exist on chain and belong to the maker; build. */
export function buildCancelOrderTransaction(request: CancelOrderRequest, env: CancelEnvironment): CancelOrderTransaction {
  const valid = validateCancelOrderRequest(request);
  const order = resolveMakersOrder("order", valid.order, valid.maker, env.accounts);
  const price = resolveComputeUnitPrice(valid.computeUnitPrice, env.recentPriorityFees);
  return { ...buildCancelTransaction(valid.maker, [order], price, env), request: valid, order };
}
