/**
 * One variant of Jupiter v6's on-chain `Swap` enum: its name as in the IDL (`RaydiumCP`,
 * `Whirlpool`, ...) and its fields (snake_case as in the IDL, e.g. `{ a_to_b: true }`), encoded by
 * swap-codec.ts. Each AMM adapter (core/amm) names its variant with it.
 */
export interface SwapVariant {
  readonly kind: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}
