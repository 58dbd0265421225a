import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import { computeBudgetInstructions } from "../solana/compute-budget.js";
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { associatedTokenAddress, createAssociatedTokenAccountIdempotent } from "../solana/token-accounts.js";
import type { MintInfo } from "../solana/token-accounts.js";
import { closeWrappedSolInstruction, wrapSolInstructions } from "../solana/wrap-sol.js";
import { ValidationError } from "../validation-error.js";
import { compileTransaction } from "../solana/transaction-message.js";
import type { CompiledTransaction } from "../solana/transaction-message.js";
import { resolveComputeUnitPrice } from "./compute-unit-price.js";
import { getInitializeOrderInstruction } from "./instructions/initialize-order.js";
import { findEventAuthorityAddress, findFeeAddress, findInputMintReserveAddress, findOrderAddress } from "./pdas.js";
import { resolveMint, validateCreateOrderRequest } from "./validate.js";
import type { CreateOrderRequest, ValidCreateOrderRequest } from "./validate.js";

/** The compute unit limit Jupiter sets on create-order transactions (observed: 132,000). */
export const CREATE_ORDER_COMPUTE_UNIT_LIMIT = 132_000;

export interface CreateOrderEnvironment {
  /** The two mint accounts as read from the chain (null = missing). */
  readonly accounts: AccountMap;
  /** The order's u64 unique_id; random in production, fixed in tests. */
  readonly uniqueId: bigint;
  readonly nowUnixSeconds: number;
  /** Recent prioritization fees in micro-lamports, for computeUnitPrice "auto". */
  readonly recentPriorityFees: readonly bigint[];
  readonly recentBlockhash: string;
  /** Build a legacy message instead of v0. */
  readonly legacyTransaction?: boolean;
}

export interface CreateOrderTransaction extends CompiledTransaction {
  readonly request: ValidCreateOrderRequest;
  readonly order: PublicKey;
  readonly uniqueId: bigint;
  readonly inputMintReserve: PublicKey;
  readonly inputMint: MintInfo;
  readonly outputMint: MintInfo;
  readonly computeUnitLimit: number;
  readonly computeUnitPriceMicroLamports: bigint;
  readonly instructions: readonly TransactionInstruction[];
}

/**
 * CreateOrder: validate, then build the transaction Jupiter builds (trigger-api.md §1.2):
 * compute budget; when selling SOL with wrapAndUnwrapSol, create the maker's wSOL ATA and wrap
 * makingAmount into it; the maker's output-mint ATA (idempotent, so fills can be paid out);
 * initialize_order; close the wSOL ATA (its SOL went into the order's reserve).
 */
export function buildCreateOrderTransaction(request: CreateOrderRequest, env: CreateOrderEnvironment): CreateOrderTransaction {
  const valid = validateCreateOrderRequest(request, { nowUnixSeconds: env.nowUnixSeconds });
  const inputMint = resolveMint("inputMint", valid.inputMint, env.accounts, valid.inputTokenProgram);
  const outputMint = resolveMint("outputMint", valid.outputMint, env.accounts, valid.outputTokenProgram);
  if (env.uniqueId < 0n || env.uniqueId >= 1n << 64n) {
    throw new RangeError("uniqueId must be a u64");
  }

  const order = findOrderAddress(valid.maker, env.uniqueId);
  const inputMintReserve = findInputMintReserveAddress(order, valid.inputMint, inputMint.tokenProgram);
  const makerInputAccount = associatedTokenAddress(valid.maker, valid.inputMint, inputMint.tokenProgram);
  const wrapsSol = valid.inputMint.equals(NATIVE_MINT) && valid.wrapAndUnwrapSol;
  if (wrapsSol && !inputMint.tokenProgram.equals(TOKEN_PROGRAM_ID)) {
    throw new ValidationError("inputMint", "mint_owner", "native SOL mint must be owned by the Token program");
  }
  const computeUnitPriceMicroLamports = resolveComputeUnitPrice(valid.computeUnitPrice, env.recentPriorityFees);

  const instructions: TransactionInstruction[] = computeBudgetInstructions(CREATE_ORDER_COMPUTE_UNIT_LIMIT, computeUnitPriceMicroLamports);
  if (wrapsSol) instructions.push(...wrapSolInstructions(valid.payer, valid.maker, valid.makingAmount));
  instructions.push(
    createAssociatedTokenAccountIdempotent(valid.payer, valid.maker, valid.outputMint, outputMint.tokenProgram),
    initializeOrderInstruction(valid, env.uniqueId, { order, inputMintReserve, makerInputAccount, inputMint, outputMint }),
  );
  if (wrapsSol) instructions.push(closeWrappedSolInstruction(valid.maker));

  const compiled = compileTransaction(instructions, valid.payer, env.recentBlockhash, {
    legacy: env.legacyTransaction ?? false,
  });
  return {
    ...compiled,
    request: valid,
    order,
    uniqueId: env.uniqueId,
    inputMintReserve,
    inputMint,
    outputMint,
    computeUnitLimit: CREATE_ORDER_COMPUTE_UNIT_LIMIT,
    computeUnitPriceMicroLamports,
    instructions,
  };
}

/** The order's addresses and mints, as `buildCreateOrderTransaction` derived and read them. */
interface OrderAccounts {
  readonly order: PublicKey;
  readonly inputMintReserve: PublicKey;
  readonly makerInputAccount: PublicKey;
  readonly inputMint: MintInfo;
  readonly outputMint: MintInfo;
}

/** Limit Order v2's `initialize_order` for a valid request. */
function initializeOrderInstruction(valid: ValidCreateOrderRequest, uniqueId: bigint, accounts: OrderAccounts): TransactionInstruction {
  return getInitializeOrderInstruction(
    {
      payer: valid.payer,
      maker: valid.maker,
      order: accounts.order,
      inputMintReserve: accounts.inputMintReserve,
      makerInputMintAccount: accounts.makerInputAccount,
      fee: findFeeAddress(),
      referral: valid.feeAccount,
      inputMint: valid.inputMint,
      outputMint: valid.outputMint,
      inputTokenProgram: accounts.inputMint.tokenProgram,
      outputTokenProgram: accounts.outputMint.tokenProgram,
      eventAuthority: findEventAuthorityAddress(),
    },
    {
      uniqueId,
      makingAmount: valid.makingAmount,
      takingAmount: valid.takingAmount,
      expiredAt: valid.expiredAt,
      feeBps: valid.feeBps,
      slippageBps: valid.slippageBps,
    },
  );
}
