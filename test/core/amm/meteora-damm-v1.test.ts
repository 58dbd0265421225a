// Meteora dynamic AMM (DAMM v1) adapter against Meteora's own SDK (@meteora-ag/dynamic-amm-sdk):
// accounts written with the SDK's Anchor coders on the embedded chain; the SDK's `AmmImpl` reads
// them over JSON-RPC and builds its swap instruction; swapd answers SwapInstructions over REST
// for the same pool: the step equals the SDK's instruction in Jupiter's layout, both directions.
import { AmmImpl } from "@meteora-ag/dynamic-amm-sdk";
import { createProgram } from "@meteora-ag/dynamic-amm-sdk/dist/cjs/src/amm/utils.js";
import { getVaultPdas } from "@meteora-ag/vault-sdk/dist/cjs/src/vault/utils/index.js";
import { BN } from "@coral-xyz/anchor";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METEORA_DAMM_V1_PROGRAM_ID, METEORA_VAULT_PROGRAM_ID, meteoraDammV1Adapter } from "../../../src/core/amm/meteora-damm-v1.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { DEMO } from "../../../src/localnet/demo-seed.js";
import { startSwapStack } from "../../api/swap-stack.js";
import type { SwapStack } from "../../api/swap-stack.js";
import { key } from "../swap/fixtures.js";
import { accountMap, swapParams } from "./reference-fixtures.js";
import { jupiterStepOf, metasOf, mint, seedAccounts, swapThroughWire, swapVariantIndex, tokenAccount } from "./spl-account-fixtures.js";
import { mintAccountData } from "../../fixtures/mint-account.js";
import type { SeedAccount } from "./spl-account-fixtures.js";

const { ammProgram, vaultProgram } = createProgram(new Connection("http://127.0.0.1:9") as any);
const MINT_A = key("damm v1 mint A");
const MINT_B = key("damm v1 mint B");
const POOL = key("damm v1 pool");
const POOL_LP_MINT = key("damm v1 pool lp mint");
const RESERVE_A = 5_000_000_000n;
const RESERVE_B = 800_000_000n;

type Curve = { constantProduct: Record<string, never> } | { stable: any };

/** Every account `AmmImpl.create` and the swap read, in Meteora's layouts (SDK coders). */
async function dammV1Accounts(options: { enabled?: boolean; curve?: Curve } = {}): Promise<SeedAccount[]> {
  const out: SeedAccount[] = [mint(MINT_A, 9), mint(MINT_B, 6), mint(POOL_LP_MINT, 9)];
  const vaults = [];
  for (const [tokenMint, reserve, side] of [
    [MINT_A, RESERVE_A, "a"],
    [MINT_B, RESERVE_B, "b"],
  ] as const) {
    const { vaultPda, tokenVaultPda, lpMintPda } = getVaultPdas(tokenMint, METEORA_VAULT_PROGRAM_ID);
    const vaultData = encodeAccount(vaultProgram.coder, "vault", {
      enabled: 1,
      bumps: { vaultBump: 255, tokenVaultBump: 255 },
      totalAmount: new BN(reserve.toString()),
      tokenVault: tokenVaultPda,
      feeVault: key(`damm v1 fee vault ${side}`),
      tokenMint,
      lpMint: lpMintPda,
      strategies: new Array(30).fill(PublicKey.default),
      base: new PublicKey("HWzXGcGHy4tcpYfaRDCyLNzXqBTv3E6BttpCH2vJxArv"),
      admin: key("damm v1 admin"),
      operator: key("damm v1 operator"),
      lockedProfitTracker: { lastUpdatedLockedProfit: new BN(0), lastReport: new BN(0), lockedProfitDegradation: new BN(0) },
    });
    const vaultLp = key(`damm v1 pool vault lp ${side}`);
    out.push(
      { address: vaultPda, owner: METEORA_VAULT_PROGRAM_ID, data: vaultData },
      tokenAccount(tokenVaultPda, tokenMint, vaultPda, reserve),
      { ...mint(lpMintPda, 9), data: mintAccountData(9, vaultPda, reserve) },
      tokenAccount(vaultLp, lpMintPda, POOL, reserve),
      tokenAccount(key(`damm v1 protocol fee ${side}`), tokenMint, POOL, 0n),
    );
    vaults.push({ vaultPda, vaultLp });
  }
  const poolData = encodeAccount(ammProgram.coder, "pool", {
    lpMint: POOL_LP_MINT,
    tokenAMint: MINT_A,
    tokenBMint: MINT_B,
    aVault: vaults[0].vaultPda,
    bVault: vaults[1].vaultPda,
    aVaultLp: vaults[0].vaultLp,
    bVaultLp: vaults[1].vaultLp,
    aVaultLpBump: 254,
    enabled: options.enabled ?? true,
    protocolTokenAFee: key("damm v1 protocol fee a"),
    protocolTokenBFee: key("damm v1 protocol fee b"),
    feeLastUpdatedAt: new BN(0),
    padding0: new Array(24).fill(0),
    fees: {
      tradeFeeNumerator: new BN(25),
      tradeFeeDenominator: new BN(10_000),
      protocolTradeFeeNumerator: new BN(20),
      protocolTradeFeeDenominator: new BN(100),
    },
    poolType: { permissionless: {} },
    stake: PublicKey.default,
    totalLockedLp: new BN(0),
    bootstrapping: { activationPoint: new BN(0), whitelistedVault: PublicKey.default, poolCreator: PublicKey.default, activationType: 0 },
    partnerInfo: { feeNumerator: new BN(0), partnerAuthority: PublicKey.default, pendingFeeA: new BN(0), pendingFeeB: new BN(0) },
    padding: { padding0: new Array(6).fill(0), padding1: new Array(21).fill(new BN(0)), padding2: new Array(21).fill(new BN(0)) },
    curveType: options.curve ?? { constantProduct: {} },
    padding1: new Array(19).fill(0),
  });
  out.push({ address: POOL, owner: METEORA_DAMM_V1_PROGRAM_ID, data: poolData });
  return out;
}

/**
 * An account in the SDK's Anchor layout: discriminator then the Borsh body. (The SDK's Anchor 0.2x
 * `coder.accounts.encode` writes into a fixed 1000-byte buffer, too small for a 1227-byte vault.)
 */
function encodeAccount(coder: any, name: string, value: unknown): Uint8Array {
  const layout = coder.accounts.accountLayouts.get(name);
  const body = Buffer.alloc(4096);
  const length = layout.encode(value, body);
  const discriminator = coder.accounts.constructor.accountDiscriminator(name);
  return Buffer.concat([discriminator, body.subarray(0, length)]);
}

const asAccountData = (a: SeedAccount): AccountData => ({ ...a, lamports: 1n, executable: false });

describe("Meteora DAMM v1 adapter", () => {
  it("is registered under Eo7W… as Jupiter's `Meteora`, ExactIn only", () => {
    const adapter = adapterForOwner(METEORA_DAMM_V1_PROGRAM_ID);
    expect(adapter?.label).toBe("Meteora");
    expect(adapter?.supportsExactOut).toBe(false);
  });

  it("decodes a pool the SDK's coder wrote, reads both vaults, and refuses what the program would refuse", async () => {
    const accounts = (await dammV1Accounts()).map(asAccountData);
    const poolAccount = accounts.find((a) => a.address.equals(POOL))!;
    const pool = meteoraDammV1Adapter.decodePool(poolAccount);
    expect(meteoraDammV1Adapter.mints(pool).map(String)).toEqual([MINT_A.toBase58(), MINT_B.toBase58()]);
    const sdkPool = ammProgram.coder.accounts.decode("pool", Buffer.from(poolAccount.data));
    expect(meteoraDammV1Adapter.dependencies(pool, swapParams(MINT_A, MINT_B)).map(String)).toEqual([sdkPool.aVault.toBase58(), sdkPool.bVault.toBase58()]);

    // ExactOut, a foreign owner, a disabled pool, a depeg stable pool, unread or foreign vaults.
    const read = accountMap(...accounts);
    expect(() => meteoraDammV1Adapter.build(pool, swapParams(MINT_A, MINT_B, "ExactOut"), read)).toThrow(/ExactOut/);
    expect(() => meteoraDammV1Adapter.decodePool({ ...poolAccount, owner: METEORA_VAULT_PROGRAM_ID })).toThrow(/not owned/);
    const disabled = (await dammV1Accounts({ enabled: false })).map(asAccountData).find((a) => a.address.equals(POOL))!;
    expect(() => meteoraDammV1Adapter.decodePool(disabled)).toThrow(/disabled/);
    const stable = (depegType: object) => ({
      stable: {
        amp: new BN(100),
        tokenMultiplier: { tokenAMultiplier: new BN(1), tokenBMultiplier: new BN(1000), precisionFactor: 9 },
        depeg: { baseVirtualPrice: new BN(0), baseCacheUpdated: new BN(0), depegType },
        lastAmpUpdatedTimestamp: new BN(0),
      },
    });
    const lido = (await dammV1Accounts({ curve: stable({ lido: {} }) })).map(asAccountData).find((a) => a.address.equals(POOL))!;
    expect(() => meteoraDammV1Adapter.decodePool(lido)).toThrow(/depeg/);
    const plainStable = (await dammV1Accounts({ curve: stable({ none: {} }) })).map(asAccountData).find((a) => a.address.equals(POOL))!;
    expect(meteoraDammV1Adapter.decodePool(plainStable).tokenAMint.equals(MINT_A)).toBe(true);
    expect(() => meteoraDammV1Adapter.build(pool, swapParams(MINT_A, MINT_B), new Map())).toThrow(/not read/);
    const swappedVaults = new Map(read);
    swappedVaults.set(sdkPool.aVault.toBase58(), { ...read.get(sdkPool.bVault.toBase58())!, address: sdkPool.aVault });
    expect(() => meteoraDammV1Adapter.build(pool, swapParams(MINT_A, MINT_B), swappedVaults)).toThrow(/holds/);
  });
});

describe("Meteora DAMM v1 over the wire: the step equals the SDK's swap instruction", () => {
  let stack: SwapStack;
  let seeded: SeedAccount[];
  beforeAll(async () => {
    seeded = await dammV1Accounts();
    stack = await startSwapStack({ extraSeeders: [(localnet) => seedAccounts(localnet, seeded)] });
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const [name, inMint, outMint] of [
    ["A → B", MINT_A, MINT_B],
    ["B → A", MINT_B, MINT_A],
  ] as const) {
    it(name, async () => {
      const user = DEMO.wallet;
      const amm = await AmmImpl.create(new Connection(stack.localnet.url, "confirmed") as any, POOL);
      const tx = await amm.swap(user, inMint, new BN(1_000_000), new BN(1));
      const sdkIx = tx.instructions.find((ix: any) => ix.programId.equals(METEORA_DAMM_V1_PROGRAM_ID))! as unknown as { keys: AccountMeta[] };
      // The SDK's user token accounts are the owner's associated token accounts, as swapd's.
      expect(sdkIx.keys[1].pubkey.equals(getAssociatedTokenAddressSync(inMint, user, true))).toBe(true);

      const wire = await swapThroughWire(
        stack,
        { ammKey: POOL, label: "Meteora", inputMint: inMint, outputMint: outMint, inAmount: 1_000_000n, outAmount: 1n },
        user,
      );
      expect(wire.variantIndex).toBe(swapVariantIndex("Meteora"));
      expect(wire.accounts).toEqual(jupiterStepOf(METEORA_DAMM_V1_PROGRAM_ID, sdkIx.keys));
      // Direction shows in the protocol fee account: the input token's.
      expect(wire.accounts[12].pubkey).toBe(key(`damm v1 protocol fee ${inMint.equals(MINT_A) ? "a" : "b"}`).toBase58());
      expect(metasOf(sdkIx.keys).length).toBe(15);
    });
  }
});
