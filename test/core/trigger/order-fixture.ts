import { BN } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { limitOrderCoder } from "./reference.js";

export interface OrderFixture {
  readonly address: PublicKey;
  readonly maker: PublicKey;
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inputTokenProgram: PublicKey;
  readonly outputTokenProgram: PublicKey;
  readonly inputMintReserve: PublicKey;
  readonly expiredAt?: bigint | null;
}

/** An Order account as the program (Anchor) writes it, via BorshCoder over the IDL. */
export async function orderAccountData(order: OrderFixture): Promise<AccountData> {
  const data = await limitOrderCoder.accounts.encode("Order", {
    maker: order.maker,
    input_mint: order.inputMint,
    output_mint: order.outputMint,
    input_token_program: order.inputTokenProgram,
    output_token_program: order.outputTokenProgram,
    input_mint_reserve: order.inputMintReserve,
    unique_id: new BN(1),
    ori_making_amount: new BN(1000),
    ori_taking_amount: new BN(2000),
    making_amount: new BN(1000),
    taking_amount: new BN(2000),
    borrow_making_amount: new BN(0),
    expired_at: order.expiredAt == null ? null : new BN(order.expiredAt.toString()),
    fee_bps: 10,
    fee_account: PublicKey.default,
    created_at: new BN(1_741_617_608),
    updated_at: new BN(1_741_617_608),
    bump: 255,
    slippage_bps: 0,
  });
  return { address: order.address, owner: LIMIT_ORDER_V2_PROGRAM_ID, lamports: 3_048_480n, data, executable: false };
}
