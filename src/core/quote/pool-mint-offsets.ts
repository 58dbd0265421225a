/**
 * Where each supported AMM keeps its two mints in the pool account, so markets for a token pair
 * can be found with `getProgramAccounts` + `memcmp` filters (facts of the programs' account
 * layouts, 8-byte Anchor discriminator included; checked against the adapters' decoders in tests).
 */
export interface PoolMintLayout {
  /** Size of a pool account (a `dataSize` filter keeps other account kinds out). */
  readonly dataSize: number;
  /** Byte offsets of the pool's first and second mint. */
  readonly mintOffsets: readonly [number, number];
}

export const POOL_MINT_LAYOUTS: Readonly<Record<string, PoolMintLayout>> = {
  // Whirlpool: token_mint_a after config, bump, spacing, fees, liquidity, price, tick, owed fees.
  whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc: { dataSize: 653, mintOffsets: [101, 181] },
  // Raydium CP PoolState: amm_config, pool_creator, token_0_vault, token_1_vault, lp_mint, token_0_mint, token_1_mint.
  CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C: { dataSize: 637, mintOffsets: [168, 200] },
  // Raydium CLMM PoolState: bump, amm_config, owner, token_mint_0, token_mint_1.
  CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK: { dataSize: 1544, mintOffsets: [73, 105] },
  // Raydium AMM v4 AmmInfo: coin (base) mint and pc (quote) mint.
  "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8": { dataSize: 752, mintOffsets: [400, 432] },
  // Meteora DLMM LbPair: token_x_mint, token_y_mint after the parameters and pair fields.
  LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo: { dataSize: 904, mintOffsets: [88, 120] },
  // SolFi V2 pool: slot header and oracle, then base and quote mints.
  SV2EYYJyRz2YhfXwXnhNAevDEui5Q6yrfyo13WtupPF: { dataSize: 1728, mintOffsets: [56, 88] },
};
