import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { BN } from "@coral-xyz/anchor";
import { AmmError } from "../../../src/core/amm/adapter.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { METEORA_DLMM_PROGRAM_ID, meteoraDlmmAdapter } from "../../../src/core/amm/meteora-dlmm.js";
import {
  JUP_USDC,
  SOL_USDC,
  USDS_JUP,
  USDS_USDC,
  dlmm,
  encodeExtension,
  encodePair,
  internalBitmap,
  program,
  realPair,
  realPairAccount,
} from "./meteora-dlmm-fixtures.js";
import type { RealPair } from "./meteora-dlmm-fixtures.js";
import {
  accountMap,
  jupiterStepFromAmmInstruction,
  legacyIdlStepFlags,
  stepFlags,
  metas,
  readReferenceJson,
  swapParams,
  testKey,
  withData,
} from "./reference-fixtures.js";

/** The SDK's getBinArrayForSwap walk (findNextBinArrayIndexWithLiquidity from the active bin), 3 arrays. */
function sdkBinArrays(pair: AccountData, extension: AccountData | null, swapForY: boolean): number[] {
  const state = program.coder.accounts.decode("lbPair", Buffer.from(pair.data));
  const ext = extension ? program.coder.accounts.decode("binArrayBitmapExtension", Buffer.from(extension.data)) : null;
  const found: number[] = [];
  let activeId = state.activeId as number;
  while (found.length < 3) {
    const index = dlmm.findNextBinArrayIndexWithLiquidity(swapForY, new BN(activeId), state, ext);
    if (index === null) break;
    found.push(index.toNumber());
    const [lower, upper] = dlmm.getBinArrayLowerUpperBinId(index);
    activeId = swapForY ? lower.toNumber() - 1 : upper.toNumber() + 1;
  }
  return found;
}

/** DLMM's own `swap` instruction from the SDK's program builder, mapped into a Jupiter step (+ terminator). */
async function sdkStep(pair: AccountData, extension: AccountData | null, swapForY: boolean): Promise<AccountMeta[]> {
  const state = program.coder.accounts.decode("lbPair", Buffer.from(pair.data));
  const params = swapParams(swapForY ? state.tokenXMint : state.tokenYMint, swapForY ? state.tokenYMint : state.tokenXMint);
  const flagProgram = (flag: number) => (flag === 1 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID);
  const ix = await program.methods
    .swap(new BN(1), new BN(0))
    .accountsPartial({
      lbPair: pair.address,
      binArrayBitmapExtension: extension ? extension.address : null,
      reserveX: state.reserveX,
      reserveY: state.reserveY,
      userTokenIn: params.sourceTokenAccount,
      userTokenOut: params.destinationTokenAccount,
      tokenXMint: state.tokenXMint,
      tokenYMint: state.tokenYMint,
      oracle: state.oracle,
      hostFeeIn: null,
      user: params.tokenTransferAuthority,
      tokenXProgram: flagProgram(state.tokenMintXProgramFlag),
      tokenYProgram: flagProgram(state.tokenMintYProgramFlag),
      eventAuthority: dlmm.deriveEventAuthority(METEORA_DLMM_PROGRAM_ID)[0],
      program: METEORA_DLMM_PROGRAM_ID,
    })
    .remainingAccounts(
      sdkBinArrays(pair, extension, swapForY).map((i) => ({
        pubkey: dlmm.deriveBinArray(pair.address, new BN(i), METEORA_DLMM_PROGRAM_ID)[0],
        isSigner: false,
        isWritable: true,
      })),
    )
    .instruction();
  return [...jupiterStepFromAmmInstruction(METEORA_DLMM_PROGRAM_ID, ix.keys), { pubkey: JUPITER_V6_PROGRAM_ID, isSigner: false, isWritable: false }];
}

function ourStep(pair: AccountData, extension: AccountData | null, swapForY: boolean) {
  const pool = meteoraDlmmAdapter.decodePool(pair);
  const [x, y] = meteoraDlmmAdapter.mints(pool);
  const params = swapParams(swapForY ? x : y, swapForY ? y : x);
  const [extensionAddress] = meteoraDlmmAdapter.dependencies(pool, params);
  const read = new Map<string, AccountData | null>([[extensionAddress.toBase58(), extension]]);
  return meteoraDlmmAdapter.build(pool, params, read);
}

describe("Meteora DLMM adapter vs @meteora-ag/dlmm", () => {
  it("real mainnet pair, Y→X: step = SDK swap accounts + bin arrays (-14, -13) + Jupiter terminator", async () => {
    expect(sdkBinArrays(realPair, null, false)).toEqual([-14, -13]);
    const ours = ourStep(realPair, null, false);
    expect(ours.swap).toEqual({ kind: "MeteoraDlmm" });
    expect(metas(ours.accounts)).toEqual(metas(await sdkStep(realPair, null, false)));
  });

  it("real mainnet pair, X→Y: no initialized bin array below the active bin (SDK finds none) → AmmError", () => {
    expect(sdkBinArrays(realPair, null, true)).toEqual([]);
    expect(() => ourStep(realPair, null, true)).toThrow(/no liquidity/);
  });

  const cases: Array<[string, number, number[], number[] | null]> = [
    ["internal bitmap with gaps", 100, [-3, -1, 1, 2, 5, 9], null],
    ["more than 3 arrays each way", -35, [-6, -5, -4, -3, -1, 0, 1, 2, 3], null],
    ["active at the internal bitmap's upper edge, extension above", 511 * 70 + 3, [509, 511], [512, 515, 1100, 6655]],
    ["active at the internal bitmap's lower edge, extension below", -512 * 70, [-512, -500], [-513, -1024, -1025, -6656]],
    ["active far out in the extension", -3000 * 70 - 1, [-400], [-3001, -3002, -2999, -1500]],
    ["extension exists but only internal arrays hold liquidity", 0, [-2, 0, 2], []],
  ];
  for (const [name, activeId, internal, extension] of cases) {
    for (const swapForY of [true, false]) {
      it(`set pair state (${name}), ${swapForY ? "X→Y" : "Y→X"}`, async () => {
        const address = testKey(40);
        const pair = await encodePair(address, { activeId, binArrayBitmap: internalBitmap(internal) });
        const ext = extension === null ? null : await encodeExtension(address, extension);
        const expected = await sdkStep(pair, ext, swapForY);
        expect(expected.length).toBeGreaterThan(17); // the SDK found at least one bin array
        expect(metas(ourStep(pair, ext, swapForY).accounts)).toEqual(metas(expected));
      });
    }
  }

  it("token programs come from the pair's flags (Token-2022 Y)", async () => {
    const pair = await encodePair(testKey(41), { activeId: 0, binArrayBitmap: internalBitmap([0]), tokenMintYProgramFlag: 1 });
    const ours = ourStep(pair, null, true);
    expect(ours.accounts[12].pubkey.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(ours.accounts[13].pubkey.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    expect(metas(ours.accounts)).toEqual(metas(await sdkStep(pair, null, true)));
  });

  it("fixed step accounts follow Jupiter's legacy IDL (meteoraDlmmSwap) when the extension is absent", () => {
    const flags = legacyIdlStepFlags("meteoraDlmmSwap");
    const ours = ourStep(realPair, null, false).accounts;
    expect(stepFlags(ours.slice(0, flags.length))).toEqual(flags);
    expect(stepFlags(ours.slice(flags.length))).toEqual(["-W", "-W", "--"]); // bin arrays + terminator
  });

  it("rejects ExactOut, foreign mints and an unread extension", () => {
    const pool = meteoraDlmmAdapter.decodePool(realPair);
    const ext = meteoraDlmmAdapter.dependencies(pool, swapParams(pool.tokenYMint, pool.tokenXMint));
    const read = new Map<string, AccountData | null>([[ext[0].toBase58(), null]]);
    expect(meteoraDlmmAdapter.supportsExactOut).toBe(false);
    expect(() => meteoraDlmmAdapter.build(pool, swapParams(pool.tokenYMint, pool.tokenXMint, "ExactOut"), read)).toThrow(/ExactOut/);
    expect(() => meteoraDlmmAdapter.build(pool, swapParams(pool.tokenYMint, PublicKey.default), read)).toThrow(AmmError);
    expect(() => meteoraDlmmAdapter.build(pool, swapParams(pool.tokenYMint, pool.tokenXMint), accountMap())).toThrow(/not read/);
    expect(() => meteoraDlmmAdapter.decodePool(withData(realPair, realPair.data.slice(0, 500)))).toThrow(AmmError);
  });
});

/**
 * The real Jupiter responses: every MeteoraDlmm step (accounts from 13 on) reproduced from a pair
 * account whose fields are those real addresses. Bin-array indices were found by deriving
 * `["bin_array", pair, i64]` for every index in range and matching the real addresses; the active
 * bin is put in the first array and exactly those arrays are marked initialized.
 */
describe("Meteora DLMM: the real jupiter-go responses' steps", () => {
  const AUTHORITY = "CapuXNQoDviLvU1PxFiizLgPNQCxrsag1uMeyk6zLVps";
  const WSOL_ATA = "91bUbswo6Di8235jAPwim1At4cPZLbG2pkpneyqKg4NQ";
  const USDC_ATA = "Gjmjory7TWKJXD2Jc6hKzAG991wWutFhtbXudzJqgx3p";
  const JUP_ATA = "2Cu6idqDu3RBwYQCDr1kZP4KsiThF2gceVWsu4W9hsGQ";
  const USDS_ATA = "EJMNnLZuzfMeyrFmKsu3xUbxTDykoTEj1UoPWF4VCYFj";

  type Hop = [RealPair, string, string, string, string]; // pair, in mint, out mint, in account, out account
  const responses: Array<[string, number[], Hop[]]> = [
    [
      "jupiter-go.swapInstructionsWithJito.json",
      [13, 32, 52],
      [
        [SOL_USDC, SOL_USDC.x, SOL_USDC.y, WSOL_ATA, USDC_ATA],
        [JUP_USDC, JUP_USDC.y, JUP_USDC.x, USDC_ATA, JUP_ATA],
      ],
    ],
    [
      "jupiter-go.swapInstructionsWithoutJito.json",
      [13, 32, 50, 69],
      [
        [SOL_USDC, SOL_USDC.x, SOL_USDC.y, WSOL_ATA, USDC_ATA],
        [USDS_USDC, USDS_USDC.y, USDS_USDC.x, USDC_ATA, USDS_ATA],
        [USDS_JUP, USDS_JUP.x, USDS_JUP.y, USDS_ATA, JUP_ATA],
      ],
    ],
  ];

  for (const [file, bounds, hops] of responses) {
    it(`${file}: all ${hops.length} MeteoraDlmm steps`, async () => {
      const real = readReferenceJson(`examples/${file}`).swapInstruction.accounts as Array<{
        pubkey: string;
        isSigner: boolean;
        isWritable: boolean;
      }>;
      expect(bounds[bounds.length - 1]).toBe(real.length);
      for (const [h, [p, inMint, outMint, inAccount, outAccount]] of hops.entries()) {
        const expected = real.slice(bounds[h], bounds[h + 1]).map((a) => `${a.pubkey} ${a.isSigner ? "S" : "-"}${a.isWritable ? "W" : "-"}`);
        const pair = await realPairAccount(p);
        const pool = meteoraDlmmAdapter.decodePool(pair);
        const params = {
          ...swapParams(new PublicKey(inMint), new PublicKey(outMint)),
          sourceTokenAccount: new PublicKey(inAccount),
          destinationTokenAccount: new PublicKey(outAccount),
          tokenTransferAuthority: new PublicKey(AUTHORITY),
        };
        const read = new Map<string, AccountData | null>(meteoraDlmmAdapter.dependencies(pool, params).map((k) => [k.toBase58(), null]));
        expect(metas(meteoraDlmmAdapter.build(pool, params, read).accounts)).toEqual(expected);
      }
    });
  }
});
