// Raydium CP adapter against Raydium's own SDK (@raydium-io/raydium-sdk-v2): pool layout and swap accounts.
import { address, lamports } from "@solana/kit";
import { CpmmPoolInfoLayout, getPdaPoolAuthority, makeSwapCpmmBaseInInstruction, makeSwapCpmmBaseOutInstruction } from "@raydium-io/raydium-sdk-v2";
import { PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { BN } from "@coral-xyz/anchor";
import { LiteSVM } from "litesvm";
import { describe, expect, test } from "vitest";
import { AmmError } from "../../../src/core/amm/adapter.js";
import type { SwapParams } from "../../../src/core/amm/adapter.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import { RAYDIUM_CPMM_PROGRAM_ID, raydiumCpmmAdapter, getRaydiumCpmmPoolCodec } from "../../../src/core/amm/raydium-cpmm.js";
import { demoRaydiumCpmmPool } from "../../../src/localnet/raydium-cpmm-demo-pool.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { key } from "../swap/fixtures.js";

const adapter = raydiumCpmmAdapter;
const MINT_A = key("cpmm mint A");
const MINT_B = key("cpmm mint B");
const demo = demoRaydiumCpmmPool({
  mintA: MINT_A,
  mintB: MINT_B,
  tokenProgramA: TOKEN_PROGRAM_ID,
  tokenProgramB: TOKEN_2022_PROGRAM_ID,
  decimalsA: 6,
  decimalsB: 9,
  reserveA: 1_000_000n,
  reserveB: 5_000_000n,
});

/** The pool as a localnet holds it: written to LiteSVM, read back. */
function poolFromChain(): AccountData {
  const svm = new LiteSVM();
  const a = demo.pool;
  svm.setAccount({
    address: address(a.address.toBase58()),
    data: a.data,
    executable: false,
    lamports: lamports(a.lamports),
    programAddress: address(a.owner.toBase58()),
    space: BigInt(a.data.length),
  });
  const read = svm.getAccount(address(a.address.toBase58()));
  if (!read.exists) throw new Error("pool not written");
  return { address: a.address, owner: new PublicKey(read.programAddress), lamports: read.lamports, data: Uint8Array.from(read.data), executable: false };
}

describe("Raydium CPMM pool layout", () => {
  test("our codec decodes a pool encoded by the SDK's CpmmPoolInfoLayout", () => {
    const fields = {
      configId: key("config"),
      poolCreator: key("creator"),
      vaultA: key("vault a"),
      vaultB: key("vault b"),
      mintLp: key("lp"),
      mintA: MINT_A,
      mintB: MINT_B,
      mintProgramA: TOKEN_PROGRAM_ID,
      mintProgramB: TOKEN_2022_PROGRAM_ID,
      observationId: key("observation"),
      bump: 254,
      status: 4,
      lpDecimals: 9,
      mintDecimalA: 6,
      mintDecimalB: 9,
      lpAmount: new BN("123456789012"),
      protocolFeesMintA: new BN(1),
      protocolFeesMintB: new BN(2),
      fundFeesMintA: new BN(3),
      fundFeesMintB: new BN(4),
      openTime: new BN(1_700_000_000),
      epoch: new BN(700),
      feeOn: 1,
      enableCreatorFee: true,
      creatorFeesMintA: new BN(5),
      creatorFeesMintB: new BN(6),
    };
    const data = Buffer.alloc(CpmmPoolInfoLayout.span);
    CpmmPoolInfoLayout.encode({ ...fields, padding: undefined } as any, data);
    const ours = getRaydiumCpmmPoolCodec().decode(data);
    expect(data.length).toBe(637);
    for (const [name, value] of Object.entries(fields)) {
      const got = (ours as any)[name];
      if (value instanceof PublicKey) expect(got.toBase58(), name).toBe(value.toBase58());
      else if (BN.isBN(value)) expect(got, name).toBe(BigInt(value.toString()));
      else expect(got, name).toBe(value);
    }
  });

  test("the SDK's layout decodes a demo pool written by our encoder", () => {
    const sdk = CpmmPoolInfoLayout.decode(Buffer.from(demo.pool.data));
    expect(sdk.mintA.toBase58()).toBe(MINT_A.toBase58());
    expect(sdk.mintB.toBase58()).toBe(MINT_B.toBase58());
    expect(sdk.vaultA.toBase58()).toBe(demo.vaultA.address.toBase58());
    expect(sdk.vaultB.toBase58()).toBe(demo.vaultB.address.toBase58());
    expect(sdk.observationId.toBase58()).toBe(demo.observation.address.toBase58());
    expect(sdk.configId.toBase58()).toBe(demo.config.address.toBase58());
    expect(sdk.mintProgramB.toBase58()).toBe(TOKEN_2022_PROGRAM_ID.toBase58());
    expect(sdk.mintDecimalB).toBe(9);
    expect(sdk.bump).toBe(getPdaPoolAuthority(RAYDIUM_CPMM_PROGRAM_ID).nonce); // auth_bump
  });

  test("the registry maps the CPMM program to the adapter; foreign accounts are rejected", () => {
    expect(adapterForOwner(RAYDIUM_CPMM_PROGRAM_ID)?.label).toBe("Raydium CP");
    expect(() => adapter.decodePool({ ...demo.pool, owner: TOKEN_PROGRAM_ID })).toThrow(AmmError);
    expect(() => adapter.decodePool({ ...demo.pool, data: demo.config.data })).toThrow(AmmError);
  });
});

describe("Raydium CP step accounts equal Raydium SDK's swap instruction, in Jupiter's step layout", () => {
  const user = key("trader");
  const userA = key("trader account A");
  const userB = key("trader account B");
  const pool = adapter.decodePool(poolFromChain());
  const sdkPool = CpmmPoolInfoLayout.decode(Buffer.from(demo.pool.data));
  const authority = getPdaPoolAuthority(RAYDIUM_CPMM_PROGRAM_ID).publicKey;

  /** Jupiter's raydiumCpSwap: the program id, then Raydium's accounts with the payer as a plain read-only account. */
  const jupiterLayout = (keys: AccountMeta[]) => [
    { pubkey: RAYDIUM_CPMM_PROGRAM_ID.toBase58(), isSigner: false, isWritable: false },
    ...keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: false, isWritable: k.isWritable })),
  ];
  const ours = (params: SwapParams) =>
    adapter.build(pool, params, new Map()).accounts.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable }));

  for (const direction of ["A to B", "B to A"] as const) {
    for (const mode of ["ExactIn"] as const) {
      test(`${direction}, ${mode}`, () => {
        const aToB = direction === "A to B";
        const [inMint, outMint] = aToB ? [sdkPool.mintA, sdkPool.mintB] : [sdkPool.mintB, sdkPool.mintA];
        const [inVault, outVault] = aToB ? [sdkPool.vaultA, sdkPool.vaultB] : [sdkPool.vaultB, sdkPool.vaultA];
        const [inProgram, outProgram] = aToB ? [sdkPool.mintProgramA, sdkPool.mintProgramB] : [sdkPool.mintProgramB, sdkPool.mintProgramA];
        const [inAccount, outAccount] = aToB ? [userA, userB] : [userB, userA];
        const make = mode === "ExactIn" ? makeSwapCpmmBaseInInstruction : makeSwapCpmmBaseOutInstruction;
        const sdk = make(
          RAYDIUM_CPMM_PROGRAM_ID,
          user,
          authority,
          sdkPool.configId,
          demo.pool.address,
          inAccount,
          outAccount,
          inVault,
          outVault,
          inProgram,
          outProgram,
          inMint,
          outMint,
          sdkPool.observationId,
          new BN(1000),
          new BN(1),
        );
        const built = adapter.build(
          pool,
          {
            sourceMint: inMint,
            destinationMint: outMint,
            sourceTokenAccount: inAccount,
            destinationTokenAccount: outAccount,
            tokenTransferAuthority: user,
            user,
            inAmount: 1000n,
            outAmount: 1n,
            swapMode: mode,
          },
          new Map(),
        );
        expect(built.swap).toEqual({ kind: "RaydiumCP" });
        expect(
          ours({
            sourceMint: inMint,
            destinationMint: outMint,
            sourceTokenAccount: inAccount,
            destinationTokenAccount: outAccount,
            tokenTransferAuthority: user,
            user,
            inAmount: 1000n,
            outAmount: 1n,
            swapMode: mode,
          }),
        ).toEqual(jupiterLayout(sdk.keys));
      });
    }
  }

  test("ExactOut is refused (Jupiter's exact_out_route rejects RaydiumCP steps: test/onchain/raydium-cp.test.ts)", () => {
    expect(adapter.supportsExactOut).toBe(false);
    expect(() =>
      adapter.build(
        pool,
        {
          sourceMint: sdkPool.mintA,
          destinationMint: sdkPool.mintB,
          sourceTokenAccount: userA,
          destinationTokenAccount: userB,
          tokenTransferAuthority: user,
          user,
          inAmount: 1000n,
          outAmount: 1n,
          swapMode: "ExactOut",
        },
        new Map(),
      ),
    ).toThrow(/Raydium CP does not support ExactOut/);
  });

  test("a step whose mints the pool does not trade is refused", () => {
    expect(() =>
      adapter.build(
        pool,
        {
          sourceMint: MINT_A,
          destinationMint: key("other"),
          sourceTokenAccount: userA,
          destinationTokenAccount: userB,
          tokenTransferAuthority: user,
          user,
          inAmount: 1n,
          outAmount: 1n,
          swapMode: "ExactIn",
        },
        new Map(),
      ),
    ).toThrow(AmmError);
  });
});
