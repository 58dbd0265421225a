/**
 * The `Swap` variants Jupiter v6 (2026 build) executes inside `exact_out_route` and
 * `shared_accounts_exact_out_route`, as verified on the real programs (test/onchain). Others fail
 * there before or instead of the AMM's swap — `RaydiumCP`: 2501 RequireEqViolated; `RaydiumClmmV2`
 * (a CLMM pool with a Token-2022 mint): 6016 SwapNotSupported — or were never run, so a route
 * through them is refused rather than answered with a transaction that cannot land.
 */
export const EXACT_OUT_SWAP_VARIANTS: ReadonlySet<string> = new Set(["Whirlpool", "WhirlpoolSwapV2", "RaydiumClmm"]);
