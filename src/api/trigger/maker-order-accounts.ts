import bs58 from "bs58";
import type { GetProgramAccountsFilter, PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { AccountData } from "../../core/solana/account.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../core/solana/programs.js";
import { ORDER_ACCOUNT_DISCRIMINATOR, ORDER_ACCOUNT_OFFSETS } from "../../core/trigger/order-account.js";

export interface MintFilter {
  readonly inputMint: PublicKey | null;
  readonly outputMint: PublicKey | null;
}

function memcmp(offset: number, bytes: Uint8Array): GetProgramAccountsFilter {
  return { memcmp: { offset, bytes: bs58.encode(bytes) } };
}

/** getProgramAccounts filters: Order accounts (discriminator) of this maker, optionally of these mints. */
export function makerOrderFilters(maker: PublicKey, mints?: MintFilter): GetProgramAccountsFilter[] {
  const filters = [memcmp(ORDER_ACCOUNT_OFFSETS.discriminator, ORDER_ACCOUNT_DISCRIMINATOR), memcmp(ORDER_ACCOUNT_OFFSETS.maker, maker.toBytes())];
  if (mints?.inputMint) filters.push(memcmp(ORDER_ACCOUNT_OFFSETS.inputMint, mints.inputMint.toBytes()));
  if (mints?.outputMint) filters.push(memcmp(ORDER_ACCOUNT_OFFSETS.outputMint, mints.outputMint.toBytes()));
  return filters;
}

/** The maker's open orders on chain (one getProgramAccounts), undecoded. */
export function readMakerOrderAccounts(chain: SolanaChain, maker: PublicKey, mints?: MintFilter): Promise<AccountData[]> {
  return chain.getProgramAccounts(LIMIT_ORDER_V2_PROGRAM_ID, makerOrderFilters(maker, mints));
}
