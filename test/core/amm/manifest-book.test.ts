// Manifest's book walk on markets written byte by byte in the program's layout (CKS-Systems/manifest
// `state/market.rs`, `state/resting_order.rs`, `state/global.rs`, hypertree's red-black nodes), with
// expectations worked out by hand from the program's matching rules: a full match rounds the quote
// in the taker's favour and a partial one in the maker's, expired orders are skipped, a global order
// needs its maker's balance in the global account (the walk stops where that account is missing),
// and a swap the book cannot fill whole is refused. Execution on the real program is
// test/onchain/manifest.test.ts.
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { manifestAdapter } from "../../../src/core/amm/manifest.js";
import type { AccountData, AccountMap } from "../../../src/core/solana/account.js";

const NIL = 0xffffffff;
const BLOCK = 80;
const HEADER = 256;
const PROGRAM = new PublicKey("MNFSTqtC93rEfYHB6hF82sKdZpUDFWkViLByLd1k1Ms");
const BASE = Keypair.generate().publicKey;
const QUOTE = Keypair.generate().publicKey;
const MAKER = Keypair.generate().publicKey;
const GLOBAL_MAKER = Keypair.generate().publicKey;
const MARKET = Keypair.generate().publicKey;
const SLOT = 1_000n;

interface Order {
  readonly price: number;
  readonly base: bigint;
  readonly global?: boolean;
  readonly lastValidSlot?: number;
}

/**
 * A market whose sides hold `bids` and `asks`, best first. Each side is a chain of left children
 * from the best (its maximum, so the tree's rightmost node) down, as an insertion from the best
 * down leaves it; blocks after the orders are free.
 */
function market(bids: readonly Order[], asks: readonly Order[], freeBlocks = 2): Uint8Array {
  const count = 2 + bids.length + asks.length + freeBlocks;
  const data = new Uint8Array(HEADER + count * BLOCK);
  const view = new DataView(data.buffer);
  view.setBigUint64(0, 4859840929024028656n, true);
  data.set(BASE.toBytes(), 16);
  data.set(QUOTE.toBytes(), 48);
  const seat = (i: number, key: PublicKey) => data.set(key.toBytes(), HEADER + i * BLOCK + 16);
  seat(0, MAKER);
  seat(1, GLOBAL_MAKER);
  let next = 2;
  const side = (orders: readonly Order[], isBid: boolean): number => {
    const indices = orders.map(() => next++ * BLOCK);
    indices.forEach((index, k) => {
      const at = HEADER + index;
      // left = the next worse order, parent = the better one.
      view.setUint32(at, k + 1 < indices.length ? indices[k + 1] : NIL, true);
      view.setUint32(at + 4, NIL, true);
      view.setUint32(at + 8, k > 0 ? indices[k - 1] : NIL, true);
      const o = orders[k];
      const price = BigInt(Math.round(o.price * 1e6)) * 10n ** 12n;
      view.setBigUint64(at + 16, price & ((1n << 64n) - 1n), true);
      view.setBigUint64(at + 24, price >> 64n, true);
      view.setBigUint64(at + 32, o.base, true);
      view.setUint32(at + 48, (o.global ? 1 : 0) * BLOCK, true);
      view.setUint32(at + 52, o.lastValidSlot ?? 0, true);
      data[at + 56] = isBid ? 1 : 0;
      data[at + 57] = o.global ? 3 : 0;
    });
    return indices[0] ?? NIL;
  };
  view.setUint32(160, side(bids, true), true);
  view.setUint32(168, side(asks, false), true);
  // The free list: each free block's first u32 names the next.
  view.setUint32(176, freeBlocks > 0 ? next * BLOCK : NIL, true);
  for (let k = 0; k < freeBlocks; k++) view.setUint32(HEADER + (next + k) * BLOCK, k + 1 < freeBlocks ? (next + k + 1) * BLOCK : NIL, true);
  return data;
}

/** The global account of `mint` holding `balance` for the global maker (a one-trader tree). */
function globalAccount(balance: bigint): Uint8Array {
  const data = new Uint8Array(96 + 2 * 64);
  const view = new DataView(data.buffer);
  view.setUint32(72, 0, true);
  view.setUint32(96, NIL, true);
  view.setUint32(96 + 4, NIL, true);
  view.setUint32(96 + 8, NIL, true);
  data.set(GLOBAL_MAKER.toBytes(), 96 + 16);
  view.setUint32(96 + 16 + 32, 64, true);
  data.set(GLOBAL_MAKER.toBytes(), 96 + 64 + 16);
  view.setBigUint64(96 + 64 + 16 + 32, balance, true);
  return data;
}

const globalAddress = (mint: PublicKey) => PublicKey.findProgramAddressSync([Buffer.from("global"), mint.toBuffer()], PROGRAM)[0];

function quote(data: Uint8Array, aToB: boolean, amount: bigint, global?: Uint8Array | null) {
  const pool = manifestAdapter.decodePool({ address: MARKET, owner: PROGRAM, lamports: 1n, data, executable: false });
  const accounts = new Map<string, AccountData | null>();
  const globalOf = globalAddress(aToB ? QUOTE : BASE);
  if (global !== undefined)
    accounts.set(globalOf.toBase58(), global === null ? null : { address: globalOf, owner: PROGRAM, lamports: 1n, data: global, executable: false });
  // It asks for the global account of the mint the makers give (the one received).
  expect(manifestAdapter.quoteAccounts!(pool, { amount, swapMode: "ExactIn", aToB }, accounts)).toEqual(global === undefined ? [globalOf] : []);
  return manifestAdapter.quote!(pool, { amount, swapMode: "ExactIn", aToB }, accounts, { slot: SLOT, unixTimestamp: 0n });
}

describe("Manifest: the book walked as the program matches", () => {
  const bids: Order[] = [
    { price: 2.5, base: 10n },
    { price: 2.0, base: 10n, global: true },
    { price: 1.75, base: 10n, lastValidSlot: 999 },
    { price: 1.5, base: 100n, lastValidSlot: 1_000 },
  ];
  const asks: Order[] = [
    { price: 1.5, base: 3n },
    { price: 2.0, base: 10n },
  ];

  it("selling base: a partial match rounds the quote down (the maker's favour), a full one up (the taker's)", () => {
    // 4 of the best bid's 10 at 2.5: 10 exactly; 10 of them: 25.
    expect(quote(market(bids, asks), true, 4n, null)).toMatchObject({ outAmount: 10n, complete: true });
    const odd = market(
      [
        { price: 2.5, base: 3n },
        { price: 1.5, base: 100n },
      ],
      asks,
    );
    // 3 at 2.5 = 7.5 → 8 (full, the taker's favour); 1 more at 1.5 = 1.5 → 1 (partial, the maker's).
    expect(quote(odd, true, 4n, null)).toMatchObject({ outAmount: 9n, complete: true });
  });

  it("a global bid stops the walk without its global account, is skipped when its maker cannot back it, filled when it can", () => {
    // Without USDC's global account: the first bid (10 base, 25 quote) and then a stop: 15 cannot fill.
    expect(quote(market(bids, asks), true, 15n, null)).toMatchObject({ complete: false, outAmount: 0n });
    // Backed (10 quote needed for 5 base at 2.0, 100 held): 25 + 10.
    expect(quote(market(bids, asks), true, 15n, globalAccount(100n))).toMatchObject({ outAmount: 35n, complete: true });
    // Unbacked (5 held): skipped; the expired bid (valid to slot 999) skipped; 5 at 1.5 (valid to 1,000 = now) = 7.5 → 7.
    expect(quote(market(bids, asks), true, 15n, globalAccount(5n))).toMatchObject({ outAmount: 32n, complete: true });
  });

  it("buying base with quote: the base the quote buys, the last ask partly (its quote rounded up, the rest stays with the user)", () => {
    // 4 quote at 1.5: 2 base (3 quote: 1.5 × 2 rounded up); the 1 left stays with the user.
    expect(quote(market(bids, asks), false, 4n, null)).toMatchObject({ outAmount: 2n, complete: true });
    // 10 quote: 3 base at 1.5 (4.5 → 4, full), then 6 quote buy 3 at 2.0: 6 base.
    expect(quote(market(bids, asks), false, 10n, null)).toMatchObject({ outAmount: 6n, complete: true });
  });

  it("refuses what the book cannot fill whole, and a market with fewer than two free blocks", () => {
    expect(quote(market(bids, asks), false, 1_000n, null)).toMatchObject({ complete: false });
    expect(quote(market(bids, asks), true, 1_000n, globalAccount(1_000n))).toMatchObject({ complete: false });
    expect(quote(market(bids, asks, 1), true, 4n, null)).toMatchObject({ complete: false, reason: expect.stringContaining("free blocks") });
  });

  it("builds Jupiter's Manifest step: Ask to sell base, Bid to buy it, with the global account of the mint received", () => {
    const pool = manifestAdapter.decodePool({ address: MARKET, owner: PROGRAM, lamports: 1n, data: market(bids, asks), executable: false });
    const user = Keypair.generate().publicKey;
    const [source, destination] = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const tokenProgram = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    const mint = (address: PublicKey) =>
      [address.toBase58(), { address, owner: tokenProgram, lamports: 1n, data: new Uint8Array(82), executable: false }] as const;
    const accounts: AccountMap = new Map([mint(BASE), mint(QUOTE)] as never);
    const params = {
      sourceMint: BASE,
      destinationMint: QUOTE,
      sourceTokenAccount: source,
      destinationTokenAccount: destination,
      tokenTransferAuthority: user,
      user,
      inAmount: 1n,
      outAmount: 1n,
      swapMode: "ExactIn" as const,
    };
    const sell = manifestAdapter.build(pool, params, accounts);
    expect(sell.swap).toEqual({ kind: "Manifest", fields: { side: "Ask" } });
    expect(sell.accounts).toHaveLength(15);
    expect(sell.accounts[5].pubkey).toEqual(source);
    expect(sell.accounts[13].pubkey).toEqual(globalAddress(QUOTE));
    const buy = manifestAdapter.build(pool, { ...params, sourceMint: QUOTE, destinationMint: BASE }, accounts);
    expect(buy.swap).toEqual({ kind: "Manifest", fields: { side: "Bid" } });
    expect(buy.accounts[5].pubkey).toEqual(destination);
    expect(buy.accounts[13].pubkey).toEqual(globalAddress(BASE));
  });
});
