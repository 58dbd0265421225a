// PumpSwap accounts written with @pump-fun/pump-swap-sdk's own Anchor coder: a pool (base mint
// Token-2022, quote SPL Token) with its vaults, and the global config naming eight protocol fee
// recipients. Shared by the SDK-equivalence test and the on-chain test through Jupiter.
import { OFFLINE_PUMP_AMM_PROGRAM } from "@pump-fun/pump-swap-sdk";
import { BN } from "@coral-xyz/anchor";
import { PUMP_SWAP_GLOBAL_CONFIG, PUMP_SWAP_PROGRAM_ID } from "../../../src/core/amm/pump-swap.js";
import { TOKEN_2022_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { key } from "../swap/fixtures.js";
import { encodeAnchorAccount, mint, tokenAccount, zeroOf } from "./spl-account-fixtures.js";
import type { SeedAccount } from "./spl-account-fixtures.js";

export const program = OFFLINE_PUMP_AMM_PROGRAM as any;
export const BASE = key("pump swap base mint (token-2022)");
export const QUOTE = key("pump swap quote mint");
export const POOL = key("pump swap pool");
/** A mayhem-mode pool of the same pair (its protocol fee goes to the reserved recipients). */
export const MAYHEM_POOL = key("pump swap mayhem pool");
export const POOL_BASE = key("pump swap pool base vault");
export const POOL_QUOTE = key("pump swap pool quote vault");
export const COIN_CREATOR = key("pump swap coin creator");
export const FEE_RECIPIENTS = Array.from({ length: 8 }, (_, i) => key(`pump swap protocol fee recipient ${i}`));
export const RESERVED_RECIPIENT = key("pump swap reserved fee recipient");

/** A pool in PumpSwap's layout (SDK coder), extended to the 300 bytes swaps need. */
export function poolData(options: { cashback?: boolean; mayhem?: boolean; size?: number } = {}): Uint8Array {
  const value = zeroOf({ defined: { name: "pool" } }, program.idl.types, BN);
  Object.assign(value, {
    poolBump: 255,
    index: 0,
    creator: key("pump swap pool creator"),
    baseMint: BASE,
    quoteMint: QUOTE,
    lpMint: key("pump swap lp mint"),
    poolBaseTokenAccount: POOL_BASE,
    poolQuoteTokenAccount: POOL_QUOTE,
    lpSupply: new BN(1_000_000),
    coinCreator: COIN_CREATOR,
    isMayhemMode: options.mayhem ?? false,
    isCashbackCoin: options.cashback ?? false,
  });
  const encoded = encodeAnchorAccount(program.coder, "pool", value);
  const data = new Uint8Array(options.size ?? 300);
  data.set(encoded.subarray(0, data.length));
  return data;
}

export function globalConfigData(): Uint8Array {
  const value = zeroOf({ defined: { name: "globalConfig" } }, program.idl.types, BN);
  Object.assign(value, {
    admin: key("pump swap admin"),
    lpFeeBasisPoints: new BN(20),
    protocolFeeBasisPoints: new BN(5),
    coinCreatorFeeBasisPoints: new BN(5),
    protocolFeeRecipients: FEE_RECIPIENTS,
    reservedFeeRecipient: RESERVED_RECIPIENT,
    reservedFeeRecipients: Array.from({ length: 7 }, (_, i) => key(`pump swap reserved fee recipient ${i}`)),
  });
  return encodeAnchorAccount(program.coder, "globalConfig", value);
}

export function pumpSwapAccounts(): SeedAccount[] {
  return [
    mint(BASE, 6, TOKEN_2022_PROGRAM_ID),
    mint(QUOTE, 9),
    { ...tokenAccount(POOL_BASE, BASE, POOL, 10n ** 15n), owner: TOKEN_2022_PROGRAM_ID },
    tokenAccount(POOL_QUOTE, QUOTE, POOL, 10n ** 12n),
    { address: POOL, owner: PUMP_SWAP_PROGRAM_ID, data: poolData() },
    { address: MAYHEM_POOL, owner: PUMP_SWAP_PROGRAM_ID, data: poolData({ mayhem: true }) },
    { address: PUMP_SWAP_GLOBAL_CONFIG, owner: PUMP_SWAP_PROGRAM_ID, data: globalConfigData() },
  ];
}
