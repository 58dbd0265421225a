import { PublicKey } from "@solana/web3.js";
import { getU64Encoder } from "@solana/kit";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../solana/programs.js";
import { associatedTokenAddress, deriveAssociatedTokenAddress } from "../solana/token-accounts.js";

/** Program-derived addresses of Limit Order v2 (trigger-api.md §2.1; each verified against real txs). */

const ORDER_SEED = new TextEncoder().encode("order");
// Fixed addresses, derived once at load: every create and every cancel in a batch needs them.
const FEE_ADDRESS = PublicKey.findProgramAddressSync([new TextEncoder().encode("fee")], LIMIT_ORDER_V2_PROGRAM_ID)[0];
const EVENT_AUTHORITY_ADDRESS = PublicKey.findProgramAddressSync([new TextEncoder().encode("__event_authority")], LIMIT_ORDER_V2_PROGRAM_ID)[0];

/** Order = PDA(["order", maker, unique_id as u64 LE]). */
export function findOrderAddress(maker: PublicKey, uniqueId: bigint): PublicKey {
  const uniqueIdLe = Uint8Array.from(getU64Encoder().encode(uniqueId));
  return PublicKey.findProgramAddressSync([ORDER_SEED, maker.toBytes(), uniqueIdLe], LIMIT_ORDER_V2_PROGRAM_ID)[0];
}

/** The program's fee config account, PDA(["fee"]) = 27ZASRji… */
export function findFeeAddress(): PublicKey {
  return FEE_ADDRESS;
}

/** Anchor emit_cpi! authority, PDA(["__event_authority"]) = ArsDfE54… */
export function findEventAuthorityAddress(): PublicKey {
  return EVENT_AUTHORITY_ADDRESS;
}

/**
 * The order's escrow: the order PDA's associated token account for the input mint. Derived once per
 * new order, so not memoised (see deriveAssociatedTokenAddress).
 */
export function findInputMintReserveAddress(order: PublicKey, inputMint: PublicKey, inputTokenProgram: PublicKey): PublicKey {
  return deriveAssociatedTokenAddress(order, inputMint, inputTokenProgram);
}

/** The default order fee_account: the fee PDA's associated token account for the output mint. */
export function findDefaultFeeTokenAccount(outputMint: PublicKey, outputTokenProgram: PublicKey): PublicKey {
  return associatedTokenAddress(findFeeAddress(), outputMint, outputTokenProgram);
}
