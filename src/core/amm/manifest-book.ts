/**
 * Manifest's order book, matched as its program matches a swap: the math of the Manifest order-book
 * AMM (manifest.ts). Facts, from the program's published source (CKS-Systems/manifest, `programs/manifest/src`:
 * `state/market.rs` place_order and impact_base_atoms, `quantities.rs`, `state/resting_order.rs`,
 * `state/global.rs`; `lib/src/red_black_tree.rs`), checked against the program's own fills by execution:
 *
 * - A market account is a 256-byte header and then 80-byte blocks (indices count from the header's
 *   end): red-black tree nodes `left, right, parent: u32, color: u8, payload type: u8, 2 bytes` and a
 *   64-byte payload — a resting order, a trader's seat (its key first) or a free block.
 * - Each side is a tree whose best order is its maximum (bids by price, asks by reversed price); a
 *   taker meets the orders from the best down (each node's in-order predecessor).
 * - A price is quote atoms per base atom × 10¹⁸ (u128). A fully matched order's quote is rounded in
 *   the taker's favour, a partly matched one in the maker's.
 * - An order whose `last_valid_slot` (0: none) is below the current slot is removed, not matched. A
 *   global order is backed by its maker's balance in the program's global account of the mint the
 *   maker gives: missing that account, the match stops; an order its maker's balance cannot back
 *   whole is removed and the walk goes on (the balance falls as the maker's global orders fill).
 * - A swap that sells base walks the bids for that many base atoms; one that sells quote first
 *   computes the base atoms the quote buys (the program's impact_base_atoms: globals checked but
 *   not debited), then walks the asks for those.
 */

const NIL = 0xffffffff;
/** The market header's size; block indices count from its end. */
export const MARKET_HEADER_SIZE = 256;
/** Bytes of a global account's header (its blocks' indices count from its end). */
const GLOBAL_HEADER_SIZE = 96;
const NODE_HEADER_SIZE = 16;
const D18 = 10n ** 18n;
const U64_MAX = (1n << 64n) - 1n;
/** Resting order types the matching treats apart (resting_order.rs `OrderType`). */
const GLOBAL_ORDER = 3;

/** Where one side of the book starts, from the market header. */
export interface BookSide {
  readonly bestIndex: number;
}

/** A global account's balances by trader, as the program reads them (null: the account does not exist). */
export type GlobalBalances = ((trader: Uint8Array) => bigint) | null;

export interface BookFill {
  readonly baseAtoms: bigint;
  readonly quoteAtoms: bigint;
  /** False when the book (or its backed part) ran out before the swap's amount. */
  readonly complete: boolean;
}

function quoteForBase(price: bigint, base: bigint, roundUp: boolean): bigint {
  const product = price * base;
  const quote = roundUp ? (product + D18 - 1n) / D18 : product / D18;
  if (quote > U64_MAX) throw new RangeError("quote atoms past u64");
  return quote;
}

function baseForQuote(price: bigint, quote: bigint, roundUp: boolean): bigint {
  if (price === 0n) return 0n;
  const dividend = D18 * quote;
  const base = roundUp ? (dividend + price - 1n) / price : dividend / price;
  if (base > U64_MAX) throw new RangeError("base atoms past u64");
  return base;
}

/** The market's blocks, read in place. */
export class MarketBlocks {
  private readonly view: DataView;

  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  private u32(index: number, at: number): number {
    return this.view.getUint32(MARKET_HEADER_SIZE + index + at, true);
  }

  /** The in-order predecessor of a node (the next order from the best down). */
  nextLower(index: number): number {
    let left = this.u32(index, 0);
    if (left !== NIL) {
      for (let right = this.u32(left, 4); right !== NIL; right = this.u32(left, 4)) left = right;
      return left;
    }
    let current = index;
    for (;;) {
      const parent = this.u32(current, 8);
      if (parent === NIL || this.u32(parent, 0) !== current) return parent;
      current = parent;
    }
  }

  price(index: number): bigint {
    const at = MARKET_HEADER_SIZE + index + NODE_HEADER_SIZE;
    return this.view.getBigUint64(at, true) | (this.view.getBigUint64(at + 8, true) << 64n);
  }

  baseAtoms(index: number): bigint {
    return this.view.getBigUint64(MARKET_HEADER_SIZE + index + NODE_HEADER_SIZE + 16, true);
  }

  isExpired(index: number, slot: number): boolean {
    const lastValidSlot = this.u32(index, NODE_HEADER_SIZE + 36);
    return lastValidSlot !== 0 && lastValidSlot < slot;
  }

  isGlobal(index: number): boolean {
    return this.data[MARKET_HEADER_SIZE + index + NODE_HEADER_SIZE + 41] === GLOBAL_ORDER;
  }

  /** The key of the order's maker (its seat's trader). */
  maker(index: number): Uint8Array {
    const seat = MARKET_HEADER_SIZE + this.u32(index, NODE_HEADER_SIZE + 32) + NODE_HEADER_SIZE;
    return this.data.subarray(seat, seat + 32);
  }

  /** Free blocks, counted up to `atMost` (the free list links each block's first u32). */
  freeBlocks(headIndex: number, atMost: number): number {
    let count = 0;
    for (let index = headIndex; index !== NIL && count < atMost; index = this.u32(index, 0)) count++;
    return count;
  }
}

/** Balances of a global account: its traders tree (by key) names each trader's deposit block. */
export function globalBalances(data: Uint8Array | undefined): GlobalBalances {
  if (!data || data.length < GLOBAL_HEADER_SIZE) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u32 = (index: number, at: number) => view.getUint32(GLOBAL_HEADER_SIZE + index + at, true);
  const rootIndex = view.getUint32(72, true);
  return (trader) => {
    let index = rootIndex;
    while (index !== NIL) {
      const key = GLOBAL_HEADER_SIZE + index + NODE_HEADER_SIZE;
      const order = Buffer.compare(data.subarray(key, key + 32), trader);
      if (order === 0) return view.getBigUint64(GLOBAL_HEADER_SIZE + u32(index, NODE_HEADER_SIZE + 32) + NODE_HEADER_SIZE + 32, true);
      index = order > 0 ? u32(index, 0) : u32(index, 4);
    }
    return 0n;
  };
}

/**
 * The program's place_order for a taker of `baseAtoms` against one side (`takerBuys`: against the
 * asks), at `slot`, with the global account of the mint the makers give (null: not there).
 */
export function matchBase(blocks: MarketBlocks, side: BookSide, takerBuys: boolean, baseAtoms: bigint, slot: number, globals: GlobalBalances): BookFill {
  let remaining = baseAtoms;
  let base = 0n;
  let quote = 0n;
  const spent = new Map<string, bigint>();
  let index = side.bestIndex;
  while (remaining > 0n && index !== NIL) {
    const next = blocks.nextLower(index);
    const size = blocks.baseAtoms(index);
    if (blocks.isExpired(index, slot) || size === 0n) {
      index = next;
      continue;
    }
    const full = remaining >= size;
    const matched = full ? size : remaining;
    const matchedQuote = quoteForBase(blocks.price(index), matched, takerBuys !== full);
    if (blocks.isGlobal(index)) {
      if (globals === null) break;
      const maker = blocks.maker(index);
      const key = Buffer.from(maker).toString("hex");
      const available = globals(maker) - (spent.get(key) ?? 0n);
      const needed = takerBuys ? matched : matchedQuote;
      if (needed > available) {
        index = next;
        continue;
      }
      spent.set(key, (spent.get(key) ?? 0n) + needed);
    }
    base += matched;
    quote += matchedQuote;
    if (!full) return { baseAtoms: base, quoteAtoms: quote, complete: true };
    remaining -= matched;
    index = next;
  }
  return { baseAtoms: base, quoteAtoms: quote, complete: remaining === 0n };
}

/**
 * The program's impact_base_atoms: the base atoms `quoteAtoms` buys from the asks (globals checked
 * against their maker's whole balance, not debited), and whether the asks could take it all.
 */
export function baseForQuoteIn(blocks: MarketBlocks, asks: BookSide, quoteAtoms: bigint, slot: number, globals: GlobalBalances): BookFill {
  let remaining = quoteAtoms;
  let base = 0n;
  for (let index = asks.bestIndex; index !== NIL; index = blocks.nextLower(index)) {
    if (blocks.isExpired(index, slot)) continue;
    const price = blocks.price(index);
    const size = blocks.baseAtoms(index);
    const limit = baseForQuote(price, remaining, false);
    const full = limit >= size;
    const matched = full ? size : limit;
    const matchedQuote = quoteForBase(price, matched, !full);
    if (blocks.isGlobal(index)) {
      if (globals === null) break;
      if (matched > globals(blocks.maker(index))) continue;
    }
    base += matched;
    if (!full) return { baseAtoms: base, quoteAtoms: quoteAtoms - remaining + matchedQuote, complete: true };
    remaining -= matchedQuote;
    if (remaining === 0n) return { baseAtoms: base, quoteAtoms, complete: true };
  }
  return { baseAtoms: base, quoteAtoms: quoteAtoms - remaining, complete: false };
}
