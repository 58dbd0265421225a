// What a landed swap moved, from data built here independently: Anchor's event-CPI layout (the tag
// 0x1d9acb512ea545e4 little-endian, sha256("event:<Name>")[0..8], Borsh fields as the IDL lists them).
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { decodeSwapEvents, swapAmounts } from "../../../src/core/swap/swap-result.js";

const TAG = Buffer.alloc(8);
TAG.writeBigUInt64LE(0x1d9acb512ea545e4n);
const eventDiscriminator = (name: string) => createHash("sha256").update(`event:${name}`).digest().subarray(0, 8);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
};
const key = () => Keypair.generate().publicKey;
const JUP = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";

describe("swap events and amounts", () => {
  const [sol, usdc, bonk] = [key(), key(), key()];

  it("SwapEvent (v1 routes) and SwapsEvent (v2 routes) decode to per-step amounts; other data is no event", () => {
    const v1 = Buffer.concat([TAG, eventDiscriminator("SwapEvent"), key().toBuffer(), sol.toBuffer(), u64(5n), usdc.toBuffer(), u64(7n)]);
    expect(decodeSwapEvents(v1)).toEqual([{ inputMint: sol.toBase58(), inputAmount: 5n, outputMint: usdc.toBase58(), outputAmount: 7n }]);
    const count = Buffer.alloc(4);
    count.writeUInt32LE(2);
    const v2 = Buffer.concat([
      TAG,
      eventDiscriminator("SwapsEvent"),
      count,
      sol.toBuffer(),
      u64(1_000n),
      usdc.toBuffer(),
      u64(150n),
      usdc.toBuffer(),
      u64(150n),
      bonk.toBuffer(),
      u64(2n ** 64n - 1n),
    ]);
    expect(decodeSwapEvents(v2)).toEqual([
      { inputMint: sol.toBase58(), inputAmount: 1_000n, outputMint: usdc.toBase58(), outputAmount: 150n },
      { inputMint: usdc.toBase58(), inputAmount: 150n, outputMint: bonk.toBase58(), outputAmount: 2n ** 64n - 1n },
    ]);
    expect(decodeSwapEvents(Buffer.concat([TAG, eventDiscriminator("FeeEvent"), Buffer.alloc(72)]))).toEqual([]);
    expect(decodeSwapEvents(Buffer.from([1, 2, 3]))).toEqual([]);
  });

  it("amounts are the taker's token balance changes; a mint the taker holds no account of before and after (native SOL) comes from the events", () => {
    const taker = key().toBase58();
    const other = key().toBase58();
    const count = Buffer.alloc(4);
    count.writeUInt32LE(2);
    const events = Buffer.concat([
      TAG,
      eventDiscriminator("SwapsEvent"),
      count,
      sol.toBuffer(),
      u64(600n),
      usdc.toBuffer(),
      u64(90n),
      sol.toBuffer(),
      u64(400n),
      usdc.toBuffer(),
      u64(59n),
    ]);
    const balance = (accountIndex: number, mint: string, owner: string, amount: string) => ({ accountIndex, mint, owner, uiTokenAmount: { amount } });
    const result = swapAmounts(
      {
        innerInstructions: [
          { programId: JUP, data: events },
          { programId: key().toBase58(), data: events },
        ],
        // The taker's USDC account is created in the swap (absent before); another owner's USDC changes too.
        preTokenBalances: [balance(5, usdc.toBase58(), other, "1000")],
        postTokenBalances: [balance(4, usdc.toBase58(), taker, "149"), balance(5, usdc.toBase58(), other, "0")],
      },
      { taker, inputMint: sol.toBase58(), outputMint: usdc.toBase58(), jupiterProgramId: JUP },
    );
    expect(result.outputAmount).toBe(149n);
    expect(result.inputAmount).toBe(1_000n);
    expect(result.swapEvents).toHaveLength(2); // only the Jupiter program's events
  });
});

describe("native SOL amounts: the taker's lamport change net of the fee, created accounts' rent and tips", () => {
  const WSOL = "So11111111111111111111111111111111111111112";
  const SYSTEM = "11111111111111111111111111111111";
  const [taker, usdc, usdcAta, wsolAta, tipAccount, poolVault] = [key(), key(), key(), key(), key(), key()].map((k) => k.toBase58()) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const transfer = (from: number, to: number, lamports: bigint) => {
    const data = Buffer.alloc(12);
    data.writeUInt32LE(2, 0);
    data.writeBigUInt64LE(lamports, 4);
    return { programId: SYSTEM, accounts: [from, to], data };
  };
  // Keys: 0 taker (fee payer), 1 its new USDC account, 2 its wrapped-SOL account (created and closed), 3 a tip account, 4 a pool vault, 5 system.
  const accountKeys = [taker, usdcAta, wsolAta, tipAccount, poolVault, SYSTEM];
  const [fee, rent, tip, swapped] = [5_000n + 12_345n, 2_039_280n, 10_000n, 1_000_000_000n];
  const takerBefore = 10_000_000_000n;
  const landedSolIn = {
    innerInstructions: [],
    preTokenBalances: [{ accountIndex: 4, mint: usdc, owner: "pool", uiTokenAmount: { amount: "900000000" } }],
    postTokenBalances: [
      { accountIndex: 1, mint: usdc, owner: taker, uiTokenAmount: { amount: "150000000" } },
      { accountIndex: 4, mint: usdc, owner: "pool", uiTokenAmount: { amount: "750000000" } },
    ],
    lamports: {
      accountKeys,
      preBalances: [takerBefore, 0n, 0n, 1_000_000n, 5_000_000n, 1n].map(Number),
      postBalances: [takerBefore - swapped - fee - rent - tip, rent, 0n, 1_000_000n + tip, 5_000_000n, 1n].map(Number),
      fee: Number(fee),
      instructions: [transfer(0, 2, swapped), transfer(0, 3, tip)],
    },
  };

  it("SOL in: what went into the swap, not the fee, the new account's rent or the tip (wrapped and closed within the transaction)", () => {
    const amounts = swapAmounts(landedSolIn, { taker, inputMint: WSOL, outputMint: usdc, jupiterProgramId: JUP });
    expect(amounts).toMatchObject({ inputAmount: swapped, outputAmount: 150_000_000n });
  });

  it("SOL out: what the swap paid the taker, the fee it paid added back", () => {
    const received = 987_654_321n;
    const landed = {
      innerInstructions: [],
      preTokenBalances: [{ accountIndex: 1, mint: usdc, owner: taker, uiTokenAmount: { amount: "150000000" } }],
      postTokenBalances: [{ accountIndex: 1, mint: usdc, owner: taker, uiTokenAmount: { amount: "0" } }],
      lamports: {
        accountKeys,
        preBalances: [takerBefore, rent, 0n, 1_000_000n, 5_000_000n, 1n].map(Number),
        postBalances: [takerBefore + received - fee, rent, 0n, 1_000_000n, 5_000_000n, 1n].map(Number),
        fee: Number(fee),
        instructions: [],
      },
    };
    expect(swapAmounts(landed, { taker, inputMint: usdc, outputMint: WSOL, jupiterProgramId: JUP })).toMatchObject({
      inputAmount: 150_000_000n,
      outputAmount: received,
    });
  });

  it("a kept wrapped-SOL account: its lamports count as the taker's SOL; another fee payer pays the fee and rent", () => {
    const kept = {
      ...landedSolIn,
      preTokenBalances: [...landedSolIn.preTokenBalances, { accountIndex: 2, mint: WSOL, owner: taker, uiTokenAmount: { amount: "3000000000" } }],
      postTokenBalances: [...landedSolIn.postTokenBalances, { accountIndex: 2, mint: WSOL, owner: taker, uiTokenAmount: { amount: "2000000000" } }],
      lamports: {
        ...landedSolIn.lamports,
        accountKeys: [key().toBase58(), usdcAta, wsolAta, tipAccount, poolVault, SYSTEM, taker],
        preBalances: [5_000_000n, 0n, 3_002_039_280n, 1_000_000n, 5_000_000n, 1n, takerBefore].map(Number),
        postBalances: [5_000_000n - fee - rent, rent, 2_002_039_280n, 1_000_000n, 5_000_000n, 1n, takerBefore].map(Number),
        instructions: [],
      },
    };
    expect(swapAmounts(kept, { taker, inputMint: WSOL, outputMint: usdc, jupiterProgramId: JUP }).inputAmount).toBe(1_000_000_000n);
  });
});
