/**
 * Jupiter Aggregator v6's on-chain `Swap` enum, in on-chain order (the position is the Borsh
 * variant index, 0..151). Facts from the program's Codama-generated decoder (sevenlabs-hq/carbon
 * `decoders/jupiter-swap-decoder/src/types/swap.rs`), cross-checked with the Anchor IDLs; 114..151
 * from 2026 copies of the on-chain IDL (the 2026 binary in the team's chain folder ends at 151,
 * GoonFiV3), proven where a venue executes through that binary (Manifest 116, BisonFi 117).
 * Field names are the on-chain (snake_case) names; types name the codecs in `swap-codec.ts`.
 */
export type SwapFieldType =
  | "bool"
  | "u8"
  | "u32"
  | "u64"
  | "Side"
  | "RemainingAccountsInfo"
  | "Option<RemainingAccountsInfo>"
  | "Vec<CandidateSwap>"
  /** A field swapd never builds (u128, bytes, arrays, other enums): its variant keeps its index, and encoding or decoding it is refused. */
  | "unsupported";

export type SwapVariantDefinition = readonly [name: string, fields: readonly (readonly [name: string, type: SwapFieldType])[]];

export const SWAP_VARIANTS: readonly SwapVariantDefinition[] = [
  ["Saber", []],
  ["SaberAddDecimalsDeposit", []],
  ["SaberAddDecimalsWithdraw", []],
  ["TokenSwap", []],
  ["Sencha", []],
  ["Step", []],
  ["Cropper", []],
  ["Raydium", []],
  ["Crema", [["a_to_b", "bool"]]],
  ["Lifinity", []],
  ["Mercurial", []],
  ["Cykura", []],
  ["Serum", [["side", "Side"]]],
  ["MarinadeDeposit", []],
  ["MarinadeUnstake", []],
  ["Aldrin", [["side", "Side"]]],
  ["AldrinV2", [["side", "Side"]]],
  ["Whirlpool", [["a_to_b", "bool"]]],
  ["Invariant", [["x_to_y", "bool"]]],
  ["Meteora", []],
  ["GooseFX", []],
  ["DeltaFi", [["stable", "bool"]]],
  ["Balansol", []],
  ["MarcoPolo", [["x_to_y", "bool"]]],
  ["Dradex", [["side", "Side"]]],
  ["LifinityV2", []],
  ["RaydiumClmm", []],
  ["Openbook", [["side", "Side"]]],
  ["Phoenix", [["side", "Side"]]],
  [
    "Symmetry",
    [
      ["from_token_id", "u64"],
      ["to_token_id", "u64"],
    ],
  ],
  ["TokenSwapV2", []],
  ["HeliumTreasuryManagementRedeemV0", []],
  ["StakeDexStakeWrappedSol", []],
  ["StakeDexSwapViaStake", [["bridge_stake_seed", "u32"]]],
  ["GooseFXV2", []],
  ["Perps", []],
  ["PerpsAddLiquidity", []],
  ["PerpsRemoveLiquidity", []],
  ["MeteoraDlmm", []],
  ["OpenBookV2", [["side", "Side"]]],
  ["RaydiumClmmV2", []],
  ["StakeDexPrefundWithdrawStakeAndDepositStake", [["bridge_stake_seed", "u32"]]],
  [
    "Clone",
    [
      ["pool_index", "u8"],
      ["quantity_is_input", "bool"],
      ["quantity_is_collateral", "bool"],
    ],
  ],
  [
    "SanctumS",
    [
      ["src_lst_value_calc_accs", "u8"],
      ["dst_lst_value_calc_accs", "u8"],
      ["src_lst_index", "u32"],
      ["dst_lst_index", "u32"],
    ],
  ],
  [
    "SanctumSAddLiquidity",
    [
      ["lst_value_calc_accs", "u8"],
      ["lst_index", "u32"],
    ],
  ],
  [
    "SanctumSRemoveLiquidity",
    [
      ["lst_value_calc_accs", "u8"],
      ["lst_index", "u32"],
    ],
  ],
  ["RaydiumCP", []],
  [
    "WhirlpoolSwapV2",
    [
      ["a_to_b", "bool"],
      ["remaining_accounts_info", "Option<RemainingAccountsInfo>"],
    ],
  ],
  ["OneIntro", []],
  ["PumpWrappedBuy", []],
  ["PumpWrappedSell", []],
  ["PerpsV2", []],
  ["PerpsV2AddLiquidity", []],
  ["PerpsV2RemoveLiquidity", []],
  ["MoonshotWrappedBuy", []],
  ["MoonshotWrappedSell", []],
  ["StabbleStableSwap", []],
  ["StabbleWeightedSwap", []],
  ["Obric", [["x_to_y", "bool"]]],
  ["FoxBuyFromEstimatedCost", []],
  ["FoxClaimPartial", [["is_y", "bool"]]],
  ["SolFi", [["is_quote_to_base", "bool"]]],
  ["SolayerDelegateNoInit", []],
  ["SolayerUndelegateNoInit", []],
  ["TokenMill", [["side", "Side"]]],
  ["DaosFunBuy", []],
  ["DaosFunSell", []],
  ["ZeroFi", []],
  ["StakeDexWithdrawWrappedSol", []],
  ["VirtualsBuy", []],
  ["VirtualsSell", []],
  [
    "Perena",
    [
      ["in_index", "u8"],
      ["out_index", "u8"],
    ],
  ],
  ["PumpSwapBuy", []],
  ["PumpSwapSell", []],
  ["Gamma", []],
  ["MeteoraDlmmSwapV2", [["remaining_accounts_info", "RemainingAccountsInfo"]]],
  ["Woofi", []],
  ["MeteoraDammV2", []],
  ["MeteoraDynamicBondingCurveSwap", []],
  ["StabbleStableSwapV2", []],
  ["StabbleWeightedSwapV2", []],
  ["RaydiumLaunchlabBuy", [["share_fee_rate", "u64"]]],
  ["RaydiumLaunchlabSell", [["share_fee_rate", "u64"]]],
  ["BoopdotfunWrappedBuy", []],
  ["BoopdotfunWrappedSell", []],
  ["Plasma", [["side", "Side"]]],
  [
    "GoonFi",
    [
      ["is_bid", "bool"],
      ["blacklist_bump", "u8"],
    ],
  ],
  [
    "HumidiFi",
    [
      ["swap_id", "u64"],
      ["is_base_to_quote", "bool"],
    ],
  ],
  ["MeteoraDynamicBondingCurveSwapWithRemainingAccounts", []],
  ["TesseraV", [["side", "Side"]]],
  ["PumpWrappedBuyV2", []],
  ["PumpWrappedSellV2", []],
  ["PumpSwapBuyV2", []],
  ["PumpSwapSellV2", []],
  ["Heaven", [["a_to_b", "bool"]]],
  ["SolFiV2", [["is_quote_to_base", "bool"]]],
  ["Aquifer", []],
  ["PumpWrappedBuyV3", []],
  ["PumpWrappedSellV3", []],
  ["PumpSwapBuyV3", []],
  ["PumpSwapSellV3", []],
  ["JupiterLendDeposit", []],
  ["JupiterLendRedeem", []],
  [
    "DefiTuna",
    [
      ["a_to_b", "bool"],
      ["remaining_accounts_info", "Option<RemainingAccountsInfo>"],
    ],
  ],
  ["AlphaQ", [["a_to_b", "bool"]]],
  ["RaydiumV2", []],
  ["SarosDlmm", [["swap_for_y", "bool"]]],
  ["Futarchy", [["side", "Side"]]],
  ["MeteoraDammV2WithRemainingAccounts", []],
  ["Obsidian", []],
  ["WhaleStreet", [["side", "Side"]]],
  ["DynamicV1", [["candidate_swaps", "Vec<CandidateSwap>"]]],
  ["PumpWrappedBuyV4", []],
  ["PumpWrappedSellV4", []],
  ["CarrotIssue", []],
  ["CarrotRedeem", []],
  ["Manifest", [["side", "Side"]]],
  ["BisonFi", [["a_to_b", "bool"]]],
  [
    "HumidiFiV2",
    [
      ["swap_id", "u64"],
      ["is_base_to_quote", "bool"],
    ],
  ],
  ["PerenaStar", [["is_mint", "bool"]]],
  [
    "JupiterRfqV2",
    [
      ["side", "Side"],
      ["fill_data", "unsupported"],
    ],
  ],
  ["GoonFiV2", [["is_bid", "bool"]]],
  ["Scorch", [["swap_id", "unsupported"]]],
  [
    "VaultLiquidUnstake",
    [
      ["lst_amounts", "unsupported"],
      ["seed", "u64"],
    ],
  ],
  ["XOrca", []],
  ["Quantum", [["side", "Side"]]],
  [
    "WhaleStreetV2",
    [
      ["side", "Side"],
      ["auth_amount_in", "u64"],
      ["auth", "u64"],
    ],
  ],
  ["Riptide", [["amount_is_token_a", "bool"]]],
  ["RunnerRodeo", []],
  ["TaurusFi", [["is_base_in", "bool"]]],
  ["Omnipair", []],
  ["MSwap", []],
  ["Hylo", [["swap_type", "unsupported"]]],
  ["VoltrDeposit", []],
  ["VoltrWithdraw", []],
  [
    "SanctumSV2",
    [
      ["src_lst_value_calc_accs", "u8"],
      ["dst_lst_value_calc_accs", "u8"],
      ["src_lst_index", "u32"],
      ["dst_lst_index", "u32"],
    ],
  ],
  ["LemmingsFi", [["is_base_in", "bool"]]],
  ["ScaleVmmBuy", []],
  ["ScaleVmmSell", []],
  ["ScaleAmmBuy", []],
  ["ScaleAmmSell", []],
  ["BisonFiV2", [["a_to_b", "bool"]]],
  ["Trends", []],
  ["HumaDeposit", []],
  ["HumaInstantWithdraw", []],
  ["Kipseli", [["is_base_to_quote", "bool"]]],
  [
    "DynamicV2",
    [
      ["candidate_swaps", "unsupported"],
      ["max_split_quote_calls", "u8"],
      ["max_split_candidates", "u8"],
    ],
  ],
  ["PumpSwapBuyV3WithCashbackClaim", []],
  ["PumpSwapSellV3WithCashbackClaim", []],
  ["PumpWrappedBuyV4WithCashbackClaim", []],
  ["PumpWrappedSellV4WithCashbackClaim", []],
  ["GoonFiV3", [["is_bid", "bool"]]],
];
