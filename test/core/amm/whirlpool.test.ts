import { describe, expect, it } from "vitest";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { ParsableWhirlpool, PDAUtil, SwapUtils, WhirlpoolContext, WhirlpoolIx } from "@orca-so/whirlpools-sdk";
import { BN, Wallet } from "@coral-xyz/anchor";
import { AmmError } from "../../../src/core/amm/adapter.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { WHIRLPOOL_PROGRAM_ID, whirlpoolAdapter } from "../../../src/core/amm/whirlpool.js";
import {
  accountMap,
  carbonAccount,
  jupiterStepFromAmmInstruction,
  legacyIdlStepFlags,
  stepFlags,
  metas,
  mintAccount,
  swapParams,
  withData,
} from "./reference-fixtures.js";

// The carbon tick-array fixture names this whirlpool and starts one array below the fixture pool's
// current tick (tick spacing 32896), so the fixture pool is most likely this account.
const WHIRLPOOL = new PublicKey("CGGNcohZdLdeDBdhmQRGmUH1Viv1p4d1ds2aPLoiVWaR");
const realPool = carbonAccount("orca-whirlpool-decoder/whirlpool_account.json", WHIRLPOOL);

// The SDK's anchor Program only builds instructions here; the connection is never used.
const ctx = WhirlpoolContext.from(new Connection("http://127.0.0.1:9"), new Wallet(Keypair.generate()));

function sdkWhirlpool(account: AccountData) {
  const parsed = ParsableWhirlpool.parse(account.address, {
    data: Buffer.from(account.data),
    owner: account.owner,
    lamports: Number(account.lamports),
    executable: false,
  });
  if (!parsed) throw new Error("SDK could not parse the whirlpool");
  return parsed;
}

/** Re-encodes the pool with the SDK's own account coder after changing fields. */
async function modifiedPool(changes: Record<string, unknown>): Promise<AccountData> {
  const coder = ctx.program.coder.accounts;
  const decoded = coder.decode("whirlpool", Buffer.from(realPool.data));
  const encoded: Buffer = await coder.encode("whirlpool", { ...decoded, ...changes });
  const data = Uint8Array.from(realPool.data);
  data.set(encoded.subarray(0, data.length));
  return withData(realPool, data);
}

/** What the Orca SDK builds for the same pool, direction and user accounts, as a Jupiter step. */
function sdkStep(account: AccountData, aToB: boolean, token2022: { a: boolean; b: boolean }) {
  const pool = sdkWhirlpool(account);
  const params = swapParams(aToB ? pool.tokenMintA : pool.tokenMintB, aToB ? pool.tokenMintB : pool.tokenMintA);
  const tickArrays = SwapUtils.getTickArrayPublicKeys(pool.tickCurrentIndex, pool.tickSpacing, aToB, WHIRLPOOL_PROGRAM_ID, account.address);
  while (tickArrays.length < 3) tickArrays.push(tickArrays[tickArrays.length - 1]);
  const common = {
    amount: new BN(1),
    otherAmountThreshold: new BN(0),
    sqrtPriceLimit: new BN(0),
    amountSpecifiedIsInput: true,
    aToB,
    whirlpool: account.address,
    tokenAuthority: params.tokenTransferAuthority,
    tokenOwnerAccountA: aToB ? params.sourceTokenAccount : params.destinationTokenAccount,
    tokenVaultA: pool.tokenVaultA,
    tokenOwnerAccountB: aToB ? params.destinationTokenAccount : params.sourceTokenAccount,
    tokenVaultB: pool.tokenVaultB,
    tickArray0: tickArrays[0],
    tickArray1: tickArrays[1],
    tickArray2: tickArrays[2],
    oracle: PDAUtil.getOracle(WHIRLPOOL_PROGRAM_ID, account.address).publicKey,
  };
  const ix =
    token2022.a || token2022.b
      ? WhirlpoolIx.swapV2Ix(ctx.program, {
          ...common,
          tokenMintA: pool.tokenMintA,
          tokenMintB: pool.tokenMintB,
          tokenProgramA: token2022.a ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID,
          tokenProgramB: token2022.b ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID,
        }).instructions[0]
      : WhirlpoolIx.swapIx(ctx.program, common).instructions[0];
  return { params, pool, accounts: jupiterStepFromAmmInstruction(WHIRLPOOL_PROGRAM_ID, ix.keys) };
}

function ourStep(account: AccountData, aToB: boolean, token2022: { a: boolean; b: boolean }) {
  const sdk = sdkStep(account, aToB, token2022);
  const pool = whirlpoolAdapter.decodePool(account);
  const deps = whirlpoolAdapter.dependencies(pool, sdk.params);
  const read = accountMap(mintAccount(sdk.pool.tokenMintA, token2022.a), mintAccount(sdk.pool.tokenMintB, token2022.b));
  for (const dep of deps) expect(read.has(dep.toBase58())).toBe(true);
  return { sdk, ours: whirlpoolAdapter.build(pool, sdk.params, read) };
}

const SPL = { a: false, b: false };

describe("Whirlpool adapter vs @orca-so/whirlpools-sdk", () => {
  for (const aToB of [true, false]) {
    it(`real mainnet pool, ${aToB ? "a→b" : "b→a"}: step = SDK swapIx accounts`, () => {
      const { sdk, ours } = ourStep(realPool, aToB, SPL);
      expect(ours.swap).toEqual({ kind: "Whirlpool", fields: { a_to_b: aToB } });
      expect(metas(ours.accounts)).toEqual(metas(sdk.accounts));
      expect(ours.accounts).toHaveLength(12);
    });
  }

  it("real pool: near the tick range's ends the SDK yields fewer than 3 tick arrays, padded with the last", () => {
    // tick spacing 32896: one array per 2894848 ticks; b→a from tick 223338 has only one array.
    const keys = SwapUtils.getTickArrayPublicKeys(223338, 32896, false, WHIRLPOOL_PROGRAM_ID, WHIRLPOOL);
    expect(keys).toHaveLength(1);
    const { ours } = ourStep(realPool, false, SPL);
    expect(ours.accounts.slice(8, 11).map((m) => m.pubkey.toBase58())).toEqual([keys[0], keys[0], keys[0]].map(String));
  });

  const cases: Array<[string, Record<string, unknown>]> = [
    ["tick 0 spacing 64", { tickCurrentIndex: 0, tickSpacing: 64 }],
    ["tick on the last tick of an array (b→a shifts into the next)", { tickCurrentIndex: 88 * 64 - 64, tickSpacing: 64 }],
    ["tick one below an array start, negative", { tickCurrentIndex: -88 * 8 - 1, tickSpacing: 8 }],
    ["tick exactly at a negative array start", { tickCurrentIndex: -88 * 8 * 3, tickSpacing: 8 }],
    ["tick near MAX_TICK", { tickCurrentIndex: 443600, tickSpacing: 128 }],
    ["tick near MIN_TICK", { tickCurrentIndex: -443600, tickSpacing: 128 }],
    ["tick near MIN_TICK, spacing 1", { tickCurrentIndex: -443636, tickSpacing: 1 }],
  ];
  for (const [name, changes] of cases) {
    for (const aToB of [true, false]) {
      it(`set pool state (${name}), ${aToB ? "a→b" : "b→a"}`, async () => {
        const { sdk, ours } = ourStep(await modifiedPool(changes), aToB, SPL);
        expect(sdk.pool.tickCurrentIndex).toBe(changes.tickCurrentIndex);
        expect(metas(ours.accounts)).toEqual(metas(sdk.accounts));
      });
    }
  }

  for (const token2022 of [
    { a: true, b: false },
    { a: false, b: true },
    { a: true, b: true },
  ]) {
    for (const aToB of [true, false]) {
      it(`Token-2022 mint (${JSON.stringify(token2022)}), ${aToB ? "a→b" : "b→a"}: WhirlpoolSwapV2 = SDK swapV2Ix`, async () => {
        const pool = await modifiedPool({ tickCurrentIndex: -1000, tickSpacing: 4 });
        const { sdk, ours } = ourStep(pool, aToB, token2022);
        expect(ours.swap).toEqual({ kind: "WhirlpoolSwapV2", fields: { a_to_b: aToB, remaining_accounts_info: null } });
        expect(metas(ours.accounts)).toEqual(metas(sdk.accounts));
        expect(ours.accounts).toHaveLength(16);
      });
    }
  }

  it("step flags follow Jupiter's legacy IDL (whirlpoolSwap / whirlpoolSwapV2), oracle now writable", async () => {
    const v1 = legacyIdlStepFlags("whirlpoolSwap");
    v1[11] = "-W"; // the current Whirlpool program takes the oracle `mut` (adaptive fees); the SDK marks it so
    expect(stepFlags(ourStep(realPool, true, SPL).ours.accounts)).toEqual(v1);
    const pool = await modifiedPool({ tickCurrentIndex: 0, tickSpacing: 64 });
    expect(stepFlags(ourStep(pool, false, { a: false, b: true }).ours.accounts)).toEqual(legacyIdlStepFlags("whirlpoolSwapV2"));
  });

  it("rejects a step whose mints are not the pool's", () => {
    const pool = whirlpoolAdapter.decodePool(realPool);
    const params = swapParams(pool.tokenMintA, PublicKey.default);
    expect(() => whirlpoolAdapter.build(pool, params, accountMap())).toThrow(AmmError);
    expect(() => whirlpoolAdapter.build(pool, params, accountMap())).toThrow(/do not match/);
  });

  it("rejects a missing mint dependency and a non-whirlpool account", () => {
    const pool = whirlpoolAdapter.decodePool(realPool);
    const params = swapParams(pool.tokenMintA, pool.tokenMintB);
    expect(() => whirlpoolAdapter.build(pool, params, accountMap(mintAccount(pool.tokenMintA)))).toThrow(/not read/);
    expect(() => whirlpoolAdapter.decodePool(withData(realPool, realPool.data.slice(0, 100)))).toThrow(AmmError);
  });

  it("declares ExactOut support and the mints as its only dependencies", () => {
    const pool = whirlpoolAdapter.decodePool(realPool);
    expect(whirlpoolAdapter.supportsExactOut).toBe(true);
    expect(whirlpoolAdapter.dependencies(pool, swapParams(pool.tokenMintA, pool.tokenMintB)).map(String)).toEqual(
      [pool.tokenMintA, pool.tokenMintB].map(String),
    );
  });
});
