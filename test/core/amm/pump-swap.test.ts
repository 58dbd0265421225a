// PumpSwap adapter against pump.fun's own SDK (@pump-fun/pump-swap-sdk 1.14.1, the version whose
// buy / sell account lists have the lengths the Jupiter v6 binary's PumpSwapBuyV3 / SellV3 steps
// take): a pool and the global config written with the SDK's Anchor coder on the embedded chain;
// the SDK's `swapSolanaState` (read over JSON-RPC) and `buyInstructions` / `sellInstructions` build
// its instruction; swapd answers SwapInstructions over REST for the same pool: the step equals the
// SDK's instruction in Jupiter's layout, both directions.
import { OFFLINE_PUMP_AMM_PROGRAM, OnlinePumpAmmSdk, PUMP_AMM_SDK } from "@pump-fun/pump-swap-sdk";
import { BN } from "@coral-xyz/anchor";
import { Connection, PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PUMP_SWAP_GLOBAL_CONFIG, PUMP_SWAP_PROGRAM_ID, pumpSwapAdapter } from "../../../src/core/amm/pump-swap.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { TOKEN_2022_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { DEMO } from "../../../src/localnet/demo-seed.js";
import { startSwapStack } from "../../api/swap-stack.js";
import type { SwapStack } from "../../api/swap-stack.js";
import { key } from "../swap/fixtures.js";
import { swapParams } from "./reference-fixtures.js";
import {
  encodeAnchorAccount, jupiterStepOf, mint, seedAccounts, swapThroughWire, swapVariantIndex, tokenAccount, zeroOf,
} from "./wave2-fixtures.js";
import type { SeedAccount } from "./wave2-fixtures.js";

const program = OFFLINE_PUMP_AMM_PROGRAM as any;
const BASE = key("pump swap base mint (token-2022)");
const QUOTE = key("pump swap quote mint");
const POOL = key("pump swap pool");
const POOL_BASE = key("pump swap pool base vault");
const POOL_QUOTE = key("pump swap pool quote vault");
const COIN_CREATOR = key("pump swap coin creator");
const FEE_RECIPIENTS = Array.from({ length: 8 }, (_, i) => key(`pump swap protocol fee recipient ${i}`));
const RESERVED_RECIPIENT = key("pump swap reserved fee recipient");

/** A pool in PumpSwap's layout (SDK coder), extended to the 300 bytes swaps need. */
function poolData(options: { cashback?: boolean; mayhem?: boolean; size?: number } = {}): Uint8Array {
  const value = zeroOf({ defined: { name: "pool" } }, program.idl.types, BN);
  Object.assign(value, {
    poolBump: 255, index: 0, creator: key("pump swap pool creator"), baseMint: BASE, quoteMint: QUOTE, lpMint: key("pump swap lp mint"),
    poolBaseTokenAccount: POOL_BASE, poolQuoteTokenAccount: POOL_QUOTE, lpSupply: new BN(1_000_000), coinCreator: COIN_CREATOR,
    isMayhemMode: options.mayhem ?? false, isCashbackCoin: options.cashback ?? false,
  });
  const encoded = encodeAnchorAccount(program.coder, "pool", value);
  const data = new Uint8Array(options.size ?? 300);
  data.set(encoded.subarray(0, data.length));
  return data;
}

function globalConfigData(): Uint8Array {
  const value = zeroOf({ defined: { name: "globalConfig" } }, program.idl.types, BN);
  Object.assign(value, {
    admin: key("pump swap admin"), lpFeeBasisPoints: new BN(20), protocolFeeBasisPoints: new BN(5), coinCreatorFeeBasisPoints: new BN(5),
    protocolFeeRecipients: FEE_RECIPIENTS, reservedFeeRecipient: RESERVED_RECIPIENT,
    reservedFeeRecipients: Array.from({ length: 7 }, (_, i) => key(`pump swap reserved fee recipient ${i}`)),
  });
  return encodeAnchorAccount(program.coder, "globalConfig", value);
}

function pumpSwapAccounts(): SeedAccount[] {
  return [
    mint(BASE, 6, TOKEN_2022_PROGRAM_ID),
    mint(QUOTE, 9),
    { ...tokenAccount(POOL_BASE, BASE, POOL, 10n ** 15n), owner: TOKEN_2022_PROGRAM_ID },
    tokenAccount(POOL_QUOTE, QUOTE, POOL, 10n ** 12n),
    { address: POOL, owner: PUMP_SWAP_PROGRAM_ID, data: poolData() },
    { address: PUMP_SWAP_GLOBAL_CONFIG, owner: PUMP_SWAP_PROGRAM_ID, data: globalConfigData() },
  ];
}

const poolAccount = (data: Uint8Array): AccountData => ({ address: POOL, owner: PUMP_SWAP_PROGRAM_ID, lamports: 1n, data, executable: false });

describe("PumpSwap adapter", () => {
  it("is registered under pAMMB… with the SDK's global config; ExactIn only", () => {
    expect(adapterForOwner(PUMP_SWAP_PROGRAM_ID)?.supportsExactOut).toBe(false);
    expect(PUMP_SWAP_GLOBAL_CONFIG.toBase58()).toBe("ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw");
  });

  it("decodes the SDK-written pool and refuses cashback coins, unextended pools, ExactOut and other mints", () => {
    const pool = pumpSwapAdapter.decodePool(poolAccount(poolData()));
    const sdk = PUMP_AMM_SDK.decodePool({ data: Buffer.from(poolData()) } as any);
    for (const field of ["baseMint", "quoteMint", "poolBaseTokenAccount", "poolQuoteTokenAccount", "coinCreator"] as const) {
      expect(pool[field].toBase58(), field).toBe(sdk[field].toBase58());
    }
    expect(pool.isMayhemMode).toBe(false);
    expect(pumpSwapAdapter.decodePool(poolAccount(poolData({ mayhem: true }))).isMayhemMode).toBe(true);
    expect(() => pumpSwapAdapter.decodePool(poolAccount(poolData({ cashback: true })))).toThrow(/cashback coin/);
    expect(() => pumpSwapAdapter.decodePool(poolAccount(poolData({ size: 245 })))).toThrow(/extend_account/);
    expect(() => pumpSwapAdapter.build(pool, swapParams(QUOTE, BASE, "ExactOut"), new Map())).toThrow(/ExactOut/);
    expect(() => pumpSwapAdapter.build(pool, swapParams(QUOTE, key("other")), new Map())).toThrow(/do not match/);
  });
});

describe("PumpSwap over the wire: the step equals the SDK's buy / sell instruction", () => {
  let stack: SwapStack;
  beforeAll(async () => {
    const accounts = pumpSwapAccounts();
    stack = await startSwapStack({ extraSeeders: [(localnet) => seedAccounts(localnet, accounts)] });
  });
  afterAll(async () => {
    await stack?.close();
    vi.restoreAllMocks();
  });

  for (const [name, inMint, outMint, variant, length] of [
    ["buy: quote → base (Token-2022)", QUOTE, BASE, "PumpSwapBuyV3", 24],
    ["sell: base → quote", BASE, QUOTE, "PumpSwapSellV3", 22],
  ] as const) {
    it(name, async () => {
      const user = DEMO.wallet;
      const state = await new OnlinePumpAmmSdk(new Connection(stack.localnet.url, "confirmed")).swapSolanaState(POOL, user);
      // The SDK draws the protocol fee recipient at random among the eight; swapd takes the first.
      vi.spyOn(Math, "random").mockReturnValue(0);
      const instructions = variant === "PumpSwapBuyV3"
        ? await PUMP_AMM_SDK.buyInstructions(state, new BN(1_000), new BN(1_000_000))
        : await PUMP_AMM_SDK.sellInstructions(state, new BN(1_000_000), new BN(1));
      vi.restoreAllMocks();
      const sdkIx = instructions.find((ix) => ix.programId.equals(PUMP_SWAP_PROGRAM_ID))! as { keys: AccountMeta[] };

      const wire = await swapThroughWire(stack, { ammKey: POOL, label: "Pump.fun Amm", inputMint: inMint, outputMint: outMint, inAmount: 1_000_000n, outAmount: 1n }, user);
      expect(wire.variantIndex).toBe(swapVariantIndex(variant));
      expect(wire.accounts).toEqual(jupiterStepOf(PUMP_SWAP_PROGRAM_ID, sdkIx.keys));
      expect(sdkIx.keys).toHaveLength(length);
      expect(sdkIx.keys[9]!.pubkey.equals(FEE_RECIPIENTS[0]!)).toBe(true);
    });
  }
});
