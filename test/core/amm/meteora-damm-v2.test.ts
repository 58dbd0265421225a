// Meteora DAMM v2 adapter against Meteora's own SDK (@meteora-ag/cp-amm-sdk): a pool written with
// the SDK's Anchor coder on the embedded chain; the SDK's `CpAmm.swap` builds its instruction
// (reading the chain over JSON-RPC); swapd answers SwapInstructions over REST for the same pool:
// the step equals the SDK's instruction in Jupiter's layout, both directions, SPL and Token-2022.
import { CpAmm, derivePoolAuthority } from "@meteora-ag/cp-amm-sdk";
import { BN } from "@coral-xyz/anchor";
import { Connection, PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METEORA_DAMM_V2_POOL_AUTHORITY, METEORA_DAMM_V2_PROGRAM_ID, meteoraDammV2Adapter } from "../../../src/core/amm/meteora-damm-v2.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { DEMO } from "../../../src/localnet/demo-seed.js";
import { startSwapStack } from "../../api/swap-stack.js";
import type { SwapStack } from "../../api/swap-stack.js";
import { key } from "../swap/fixtures.js";
import { readReferenceJson, swapParams } from "./reference-fixtures.js";
import { encodeAnchorAccount, jupiterStepOf, mint, seedAccounts, swapThroughWire, swapVariantIndex, tokenAccount, zeroOf } from "./spl-account-fixtures.js";
import type { SeedAccount } from "./spl-account-fixtures.js";

const cpAmm = new CpAmm(new Connection("http://127.0.0.1:9"));
const program = (cpAmm as any)._program;
const MINT_A = key("damm v2 mint A");
const MINT_B = key("damm v2 mint B (token-2022)");
const POOL = key("damm v2 pool");
const VAULT_A = key("damm v2 vault A");
const VAULT_B = key("damm v2 vault B");

/** A pool in cp-amm's layout (SDK coder) with SPL mint A and Token-2022 mint B. */
function poolData(options: { status?: number; baseFeeMode?: number } = {}): Uint8Array {
  const poolType = program.idl.types.find((t: any) => t.name === "pool");
  const value = zeroOf({ defined: { name: "pool" } }, program.idl.types, BN);
  expect(poolType).toBeDefined();
  value.tokenAMint = MINT_A;
  value.tokenBMint = MINT_B;
  value.tokenAVault = VAULT_A;
  value.tokenBVault = VAULT_B;
  value.tokenAFlag = 0;
  value.tokenBFlag = 1;
  value.poolStatus = options.status ?? 0;
  value.sqrtPrice = new BN("18446744073709551616");
  value.liquidity = new BN("1000000000000000000000000");
  const feeInfo = new Array(32).fill(0);
  feeInfo[8] = options.baseFeeMode ?? 0;
  value.poolFees.baseFee.baseFeeInfo.data = feeInfo;
  return encodeAnchorAccount(program.coder, "pool", value);
}

function dammV2Accounts(): SeedAccount[] {
  return [
    mint(MINT_A, 9),
    mint(MINT_B, 6, TOKEN_2022_PROGRAM_ID),
    tokenAccount(VAULT_A, MINT_A, METEORA_DAMM_V2_POOL_AUTHORITY, 1_000_000_000n),
    { ...tokenAccount(VAULT_B, MINT_B, METEORA_DAMM_V2_POOL_AUTHORITY, 1_000_000_000n), owner: TOKEN_2022_PROGRAM_ID },
    { address: POOL, owner: METEORA_DAMM_V2_PROGRAM_ID, data: poolData() },
  ];
}

const poolAccount = (data: Uint8Array): AccountData => ({ address: POOL, owner: METEORA_DAMM_V2_PROGRAM_ID, lamports: 1n, data, executable: false });

describe("Meteora DAMM v2 adapter", () => {
  it("is registered under cpamd… with the SDK's pool authority; ExactIn only", () => {
    expect(adapterForOwner(METEORA_DAMM_V2_PROGRAM_ID)?.supportsExactOut).toBe(false);
    expect(METEORA_DAMM_V2_POOL_AUTHORITY.equals(derivePoolAuthority())).toBe(true);
  });

  it("decodes the SDK-written pool (token programs from its flags) and refuses disabled and rate-limited pools and ExactOut", () => {
    const pool = meteoraDammV2Adapter.decodePool(poolAccount(poolData()));
    expect([pool.tokenAProgram, pool.tokenBProgram].map(String)).toEqual([TOKEN_PROGRAM_ID.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58()]);
    const sdk = program.coder.accounts.decode("pool", Buffer.from(poolData()));
    expect([pool.tokenAVault, pool.tokenBVault].map(String)).toEqual([sdk.tokenAVault.toBase58(), sdk.tokenBVault.toBase58()]);
    expect(() => meteoraDammV2Adapter.decodePool(poolAccount(poolData({ status: 1 })))).toThrow(/disabled/);
    expect(() => meteoraDammV2Adapter.decodePool(poolAccount(poolData({ baseFeeMode: 2 })))).toThrow(/rate-limiter/);
    expect(() => meteoraDammV2Adapter.build(pool, swapParams(MINT_A, MINT_B, "ExactOut"), new Map())).toThrow(/ExactOut/);
    expect(() => meteoraDammV2Adapter.build(pool, swapParams(MINT_A, key("other")), new Map())).toThrow(/do not match/);
  });

  it("decodes a real mainnet pool (SOL/USDC snapshot) as the SDK's coder does", () => {
    const address = "8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie";
    const { account } = readReferenceJson(`fixtures/meteora-damm-v2/${address}.json`);
    const data = Buffer.from(account.data[0], "base64");
    const pool = meteoraDammV2Adapter.decodePool({
      address: new PublicKey(address),
      owner: new PublicKey(account.owner),
      lamports: 1n,
      data,
      executable: false,
    });
    const sdk = program.coder.accounts.decode("pool", data);
    for (const field of ["tokenAMint", "tokenBMint", "tokenAVault", "tokenBVault"] as const) expect(pool[field].toBase58(), field).toBe(sdk[field].toBase58());
    expect(pool.tokenAProgram.equals(TOKEN_PROGRAM_ID) && pool.tokenBProgram.equals(TOKEN_PROGRAM_ID)).toBe(sdk.tokenAFlag === 0 && sdk.tokenBFlag === 0);
  });
});

describe("Meteora DAMM v2 over the wire: the step equals the SDK's swap instruction", () => {
  let stack: SwapStack;
  beforeAll(async () => {
    const accounts = dammV2Accounts();
    stack = await startSwapStack({ extraSeeders: [(localnet) => seedAccounts(localnet, accounts)] });
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const [name, inMint, outMint] of [
    ["A → B (SPL in, Token-2022 out)", MINT_A, MINT_B],
    ["B → A", MINT_B, MINT_A],
  ] as const) {
    it(name, async () => {
      const user = DEMO.wallet;
      const sdk = new CpAmm(new Connection(stack.localnet.url, "confirmed"));
      const poolState = await sdk.fetchPoolState(POOL);
      const tx = await sdk.swap({
        payer: user,
        pool: POOL,
        inputTokenMint: inMint,
        outputTokenMint: outMint,
        amountIn: new BN(1_000_000),
        minimumAmountOut: new BN(1),
        tokenAVault: poolState.tokenAVault,
        tokenBVault: poolState.tokenBVault,
        tokenAMint: poolState.tokenAMint,
        tokenBMint: poolState.tokenBMint,
        tokenAProgram: TOKEN_PROGRAM_ID,
        tokenBProgram: TOKEN_2022_PROGRAM_ID,
        referralTokenAccount: null,
        poolState,
      });
      const sdkIx = tx.instructions.find((ix) => ix.programId.equals(METEORA_DAMM_V2_PROGRAM_ID))! as { keys: AccountMeta[] };

      const wire = await swapThroughWire(
        stack,
        { ammKey: POOL, label: "Meteora DAMM v2", inputMint: inMint, outputMint: outMint, inAmount: 1_000_000n, outAmount: 1n },
        user,
      );
      expect(wire.variantIndex).toBe(swapVariantIndex("MeteoraDammV2"));
      expect(wire.accounts).toEqual(jupiterStepOf(METEORA_DAMM_V2_PROGRAM_ID, sdkIx.keys));
      expect(sdkIx.keys).toHaveLength(14);
    });
  }
});
