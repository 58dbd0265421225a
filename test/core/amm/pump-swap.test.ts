// PumpSwap adapter against pump.fun's own SDK (@pump-fun/pump-swap-sdk 1.14.1, the last before the
// April 2026 upgrade that added two buyback accounts: the program the Jupiter v6 binary's
// PumpSwapBuyV3 / SellV3 steps were made for): a pool and the global config written with the SDK's
// Anchor coder on the embedded chain; the SDK's `swapSolanaState` (read over JSON-RPC) and
// `buyInstructions` / `sellInstructions` build its instruction; swapd answers SwapInstructions over
// REST for the same pool: the step is the SDK's `buy` / `sell` accounts in Jupiter's layout, both
// directions, with the three differences the Jupiter binary itself shows
// (test/onchain/pump-swap.test.ts): the global volume accumulator writable, no `pool-v2` remaining
// account (the step has no room for it) and the signing wallet appended, writable.
import { OnlinePumpAmmSdk, PUMP_AMM_SDK } from "@pump-fun/pump-swap-sdk";
import { BN } from "@coral-xyz/anchor";
import { Connection, PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PUMP_SWAP_GLOBAL_CONFIG, PUMP_SWAP_PROGRAM_ID, pumpSwapAdapter } from "../../../src/core/amm/pump-swap.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { DEMO } from "../../../src/localnet/demo-seed.js";
import { startSwapStack } from "../../api/swap-stack.js";
import type { SwapStack } from "../../api/swap-stack.js";
import { key } from "../swap/fixtures.js";
import { readReferenceJson, swapParams } from "./reference-fixtures.js";
import {
  BASE,
  FEE_RECIPIENTS,
  MAYHEM_POOL,
  POOL,
  QUOTE,
  RESERVED_RECIPIENT,
  globalConfigData,
  poolData,
  program,
  pumpSwapAccounts,
} from "./pump-swap-fixtures.js";
import { jupiterStepOf, seedAccounts, swapThroughWire, swapVariantIndex } from "./spl-account-fixtures.js";

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

describe("PumpSwap after the program's buyback upgrade", () => {
  it("refuses the step when the global config names buyback fee recipients (its layout since @pump-fun/pump-swap-sdk 1.15)", () => {
    const pool = pumpSwapAdapter.decodePool(poolAccount(poolData()));
    const mints = pumpSwapAccounts().filter((a) => a.address.equals(BASE) || a.address.equals(QUOTE));
    const config = (data: Uint8Array): AccountData => ({
      address: PUMP_SWAP_GLOBAL_CONFIG,
      owner: PUMP_SWAP_PROGRAM_ID,
      lamports: 1n,
      data,
      executable: false,
    });
    const accounts = (data: Uint8Array) =>
      new Map<string, AccountData | null>([
        ...mints.map((m) => [m.address.toBase58(), { ...m, lamports: 1n, executable: false }] as const),
        [PUMP_SWAP_GLOBAL_CONFIG.toBase58(), config(data)],
      ]);
    // 1.15's GlobalConfig = 1.14's, then `buyback_fee_recipients: [pubkey; 8]` and `buyback_basis_points: u64`.
    const buyback = Buffer.concat(Array.from({ length: 8 }, (_, i) => key(`pump swap buyback recipient ${i}`).toBuffer()));
    const upgraded = Buffer.concat([Buffer.from(globalConfigData()), buyback, Buffer.alloc(8)]);
    const unset = Buffer.concat([Buffer.from(globalConfigData()), Buffer.alloc(8 * 32 + 8)]);
    expect(() => pumpSwapAdapter.build(pool, swapParams(QUOTE, BASE), accounts(upgraded))).toThrow(/buyback/);
    expect(pumpSwapAdapter.build(pool, swapParams(QUOTE, BASE), accounts(unset)).accounts).toHaveLength(25);
  });

  it("refuses with mainnet's global config (2026-09 snapshot), which names them; the SDK reads the same fee recipients", () => {
    const { pubkey, account } = readReferenceJson(`fixtures/pump-swap/${PUMP_SWAP_GLOBAL_CONFIG.toBase58()}.json`);
    const data = Buffer.from(account.data[0], "base64");
    expect(pubkey).toBe(PUMP_SWAP_GLOBAL_CONFIG.toBase58());
    const sdk = PUMP_AMM_SDK.decodeGlobalConfig({ data } as any);
    // The buyback fee recipients follow `is_cashback_enabled` (offset 643); the first is one of pump.fun's eight announced ones.
    expect(new PublicKey(data.subarray(643, 675)).toBase58()).toBe("5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD");
    const pool = pumpSwapAdapter.decodePool(poolAccount(poolData()));
    const mints = pumpSwapAccounts().filter((a) => a.address.equals(BASE) || a.address.equals(QUOTE));
    const accounts = new Map<string, AccountData | null>([
      ...mints.map((m) => [m.address.toBase58(), { ...m, lamports: 1n, executable: false }] as const),
      [PUMP_SWAP_GLOBAL_CONFIG.toBase58(), { address: PUMP_SWAP_GLOBAL_CONFIG, owner: new PublicKey(account.owner), lamports: 1n, data, executable: false }],
    ]);
    expect(() => pumpSwapAdapter.build(pool, swapParams(QUOTE, BASE), accounts)).toThrow(/buyback fee recipients/);
    // Without them the same config gives the step the SDK's first protocol fee recipient.
    const cleared = Buffer.from(data);
    cleared.fill(0, 643, 643 + 8 * 32);
    accounts.set(PUMP_SWAP_GLOBAL_CONFIG.toBase58(), {
      address: PUMP_SWAP_GLOBAL_CONFIG,
      owner: new PublicKey(account.owner),
      lamports: 1n,
      data: cleared,
      executable: false,
    });
    expect(pumpSwapAdapter.build(pool, swapParams(QUOTE, BASE), accounts).accounts[10].pubkey.toBase58()).toBe(sdk.protocolFeeRecipients[0].toBase58());
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

  for (const [name, pool, inMint, outMint, variant, accountCount, feeRecipient] of [
    ["buy: quote → base (Token-2022)", POOL, QUOTE, BASE, "PumpSwapBuyV3", 23, FEE_RECIPIENTS[0]],
    ["sell: base → quote", POOL, BASE, QUOTE, "PumpSwapSellV3", 21, FEE_RECIPIENTS[0]],
    ["sell through a mayhem-mode pool (reserved fee recipient)", MAYHEM_POOL, BASE, QUOTE, "PumpSwapSellV3", 21, RESERVED_RECIPIENT],
  ] as const) {
    it(name, async () => {
      const user = DEMO.wallet;
      const state = await new OnlinePumpAmmSdk(new Connection(stack.localnet.url, "confirmed")).swapSolanaState(pool, user);
      // The SDK draws the protocol fee recipient at random among the eight; swapd takes the first.
      vi.spyOn(Math, "random").mockReturnValue(0);
      const instructions =
        variant === "PumpSwapBuyV3"
          ? await PUMP_AMM_SDK.buyInstructions(state, new BN(1_000), new BN(1_000_000))
          : await PUMP_AMM_SDK.sellInstructions(state, new BN(1_000_000), new BN(1));
      vi.restoreAllMocks();
      const sdkIx = instructions.find((ix) => ix.programId.equals(PUMP_SWAP_PROGRAM_ID))! as { keys: AccountMeta[] };
      const idl = program.idl.instructions.find((ix: { name: string }) => ix.name === (variant === "PumpSwapBuyV3" ? "buy" : "sell"));
      expect(idl.accounts).toHaveLength(accountCount);
      // The SDK's instruction: the IDL's accounts, then `pool-v2` (a remaining account).
      expect(sdkIx.keys).toHaveLength(accountCount + 1);
      expect(sdkIx.keys[accountCount].pubkey.toBase58()).toBe(
        PublicKey.findProgramAddressSync([Buffer.from("pool-v2"), BASE.toBuffer()], PUMP_SWAP_PROGRAM_ID)[0].toBase58(),
      );
      const accounts = sdkIx.keys
        .slice(0, accountCount)
        .map((k, i) => (/^global_?volume_?accumulator$/i.test(idl.accounts[i].name) ? { ...k, isWritable: true } : k));

      const wire = await swapThroughWire(
        stack,
        { ammKey: pool, label: "Pump.fun Amm", inputMint: inMint, outputMint: outMint, inAmount: 1_000_000n, outAmount: 1n },
        user,
      );
      expect(wire.variantIndex).toBe(swapVariantIndex(variant));
      expect(wire.accounts).toEqual(jupiterStepOf(PUMP_SWAP_PROGRAM_ID, [...accounts, { pubkey: user, isSigner: false, isWritable: true }]));
      expect(sdkIx.keys[9].pubkey.toBase58()).toBe(feeRecipient.toBase58());
    });
  }
});
