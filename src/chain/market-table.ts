/**
 * A set of markets indexed by address, pair and token, compact enough for all of mainnet's pools
 * (millions): each market is a row of typed-array columns — its address and mints interned as
 * 32-byte keys (key-table.ts), its program and origin as small indices, and the links of three
 * doubly linked lists (its pair's pools, and each of its two tokens' pools; market-token-lists.ts) —
 * 160 bytes a pool at 2,000,000, where a Market object with maps per pair and token took 368. A market is made an object again
 * only when asked for (and the recently asked ones are kept: a hot pair's pools are asked at every quote).
 */
import bs58 from "bs58";
import type { PublicKey } from "@solana/web3.js";
import { pairKey } from "../core/quote/market.js";
import type { Market, MarketSource as MarketOrigin } from "../core/quote/market.js";
import { ListedMarket } from "../core/quote/market-snapshot.js";
import { base58Of, base58OfBytes } from "../core/solana/base58-strings.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { KeyTable } from "./key-table.js";
import { MarketTokenLists } from "./market-token-lists.js";
import { NONE, TypedColumn, int32Column } from "./typed-column.js";
import type { MarketSource } from "./market-source.js";

const ORIGINS: readonly MarketOrigin[] = ["discovered", "file", "added", "listed"];
/** Markets kept as objects once asked for (a quote asks for its pairs' pools every time). */
const MATERIALISED = 65_536;
/** A replace that moves more markets than this tells "every pair" once instead of each pair. */
const BULK_CHANGE = 10_000;
/** Markets a stepwise replace sets between two turns of the event loop (~0.2 s). */
const REPLACE_STEP = 20_000;

export class MarketTable {
  private readonly pools = new KeyTable(32);
  private readonly tokens = new MarketTokenLists();
  private readonly pairs = new KeyTable(8);
  private readonly programs: { programId: PublicKey; label: string }[] = [];
  private readonly programIndex = new Map<string, number>();
  // Row columns (by pool id).
  private readonly program = new TypedColumn(new Uint8Array(1024), 0);
  private readonly origin = new TypedColumn(new Uint8Array(1024), 0);
  private readonly mintA = int32Column();
  private readonly mintB = int32Column();
  private readonly pairOf = int32Column();
  private readonly pairNext = int32Column();
  private readonly pairPrev = int32Column();
  // Mint columns (by mint id) and pair heads (by pair id).
  private readonly pairHead = int32Column();
  private readonly objects = new BoundedLruMap<number, Market>(MATERIALISED);
  private readonly pairKey = new Uint8Array(8);
  private readonly pairView = new DataView(this.pairKey.buffer);

  /** Markets held by origin (index in ORIGINS): a replace with none held has nothing to compare. */
  private readonly byOrigin = [0, 0, 0, 0];
  private quiet = false;

  /**
   * `changed`: told the pair key of every market set or deleted — or nothing, once, for a replace
   * that moved more than BULK_CHANGE markets (every pair then counts as changed).
   */
  constructor(private readonly changed: (pair?: string) => void) {}

  get size(): number {
    return this.pools.size;
  }

  has(address: string): boolean {
    return this.rowOf(address) !== NONE;
  }

  get(address: string): Market | undefined {
    const row = this.rowOf(address);
    return row === NONE ? undefined : this.market(row);
  }

  set(market: Market): void {
    const key = bs58.decode(market.addressText);
    const known = key.length === 32 ? this.pools.find(key) : NONE;
    if (known !== NONE) this.deleteRow(known);
    const { id: row } = this.pools.intern(key);
    this.ensureRows(this.pools.idLimit);
    this.program.values[row] = this.programOf(market);
    this.origin.values[row] = ORIGINS.indexOf(market.source);
    this.byOrigin[this.origin.values[row]]++;
    const a = this.tokens.link(row * 2, market.mints[0]);
    const b = this.tokens.link(row * 2 + 1, market.mints[1]);
    this.mintA.values[row] = a;
    this.mintB.values[row] = b;
    const pair = this.pairs.intern(this.pairKeyOf(a, b)).id;
    this.pairHead.ensure(this.pairs.idLimit);
    this.pairOf.values[row] = pair;
    const head = this.pairHead.values[pair];
    this.pairNext.values[row] = head;
    this.pairPrev.values[row] = NONE;
    if (head !== NONE) this.pairPrev.values[head] = row;
    this.pairHead.values[pair] = row;
    if (!this.quiet) this.changed(pairKey(market.mints[0], market.mints[1]));
  }

  delete(address: string): Market | undefined {
    const row = this.rowOf(address);
    return row === NONE ? undefined : this.deleteRow(row);
  }

  private deleteRow(row: number): Market {
    const market = this.market(row);
    this.objects.delete(row);
    const pair = this.pairOf.values[row];
    const [next, prev] = [this.pairNext.values[row], this.pairPrev.values[row]];
    if (prev === NONE) this.pairHead.values[pair] = next;
    else this.pairNext.values[prev] = next;
    if (next !== NONE) this.pairPrev.values[next] = prev;
    if (this.pairHead.values[pair] === NONE) this.pairs.delete(pair);
    this.tokens.unlink(row * 2, this.mintA.values[row]);
    this.tokens.unlink(row * 2 + 1, this.mintB.values[row]);
    this.mintA.values[row] = NONE;
    this.mintB.values[row] = NONE;
    this.pools.delete(row);
    this.byOrigin[this.origin.values[row]]--;
    if (!this.quiet) this.changed(pairKey(market.mints[0], market.mints[1]));
    return market;
  }

  /**
   * Brings the markets of `origin` (of `program`, when given) to `next`: new ones enter, ones no
   * longer listed leave, ones listed again as they were stay as they are (a pool's mints never
   * change, so a pair whose pools did not change keeps its revision and its kept candidates).
   */
  replace(origin: MarketOrigin, program: PublicKey | undefined, next: readonly Market[]): void {
    for (const _step of this.replaceSteps(origin, program, next)) {
      // Run whole: a small replace (the markets file, a test) need not give the event loop back.
    }
  }

  /**
   * `replace`, giving the event loop back every REPLACE_STEP markets (`setImmediate`): a listing of
   * a million pools takes seconds, during which health checks and quotes must still be answered.
   */
  async replaceInSteps(origin: MarketOrigin, program: PublicKey | undefined, next: readonly Market[]): Promise<void> {
    for (const _step of this.replaceSteps(origin, program, next)) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private *replaceSteps(origin: MarketOrigin, program: PublicKey | undefined, next: readonly Market[]): Generator<void> {
    const originIndex = ORIGINS.indexOf(origin);
    // A bulk change tells every pair once at the end (other changes meanwhile are covered by it too).
    const bulk = next.length > BULK_CHANGE;
    this.quiet ||= bulk;
    try {
      if (this.byOrigin[originIndex] === 0) {
        // Nothing of this origin held (a first listing, a first load): every market enters.
        for (let i = 0; i < next.length; i++) {
          this.set(next[i]);
          if (i % REPLACE_STEP === REPLACE_STEP - 1) yield;
        }
      } else {
        yield* this.replaceHeld(originIndex, program, next);
      }
    } finally {
      if (bulk) {
        this.quiet = false;
        this.changed();
      }
    }
  }

  private *replaceHeld(originIndex: number, program: PublicKey | undefined, next: readonly Market[]): Generator<void> {
    const kept = new Set<number>();
    // Which of `next` stay as they are, by index: the set loop below need not decode their addresses again.
    const keptAt = new Uint8Array(next.length);
    for (let i = 0; i < next.length; i++) {
      const row = this.rowOf(next[i].addressText);
      if (row !== NONE && this.origin.values[row] === originIndex && this.sameAs(row, next[i])) {
        kept.add(row);
        keptAt[i] = 1;
      }
    }
    // A program the table has never held has no rows to leave.
    const programIndex = program === undefined ? undefined : (this.programIndex.get(base58Of(program)) ?? NONE);
    const leaving: number[] = [];
    for (let row = 0; row < this.pools.idLimit; row++) {
      if (this.mintA.values[row] === NONE || this.origin.values[row] !== originIndex || kept.has(row)) continue;
      if (programIndex === undefined || this.program.values[row] === programIndex) leaving.push(row);
    }
    for (const row of leaving) this.deleteRow(row);
    yield;
    for (let i = 0; i < next.length; i++) {
      if (keptAt[i] === 0) this.set(next[i]);
      if (i % REPLACE_STEP === REPLACE_STEP - 1) yield;
    }
  }

  pair(x: string, y: string): Iterable<Market> {
    const a = this.tokens.id(x);
    const b = this.tokens.id(y);
    if (a === NONE || b === NONE) return [];
    const pair = this.pairs.find(this.pairKeyOf(a, b));
    if (pair === NONE) return [];
    const out: Market[] = [];
    for (let row = this.pairHead.values[pair]; row !== NONE; row = this.pairNext.values[row]) out.push(this.market(row));
    // Lists grow at their head: reversed, they are in the order the markets came (ties in a route go to the first).
    return out.reverse();
  }

  token(t: string): Iterable<Market> {
    const mint = this.tokens.id(t);
    if (mint === NONE) return [];
    const out: Market[] = [];
    for (const row of this.tokens.rows(mint)) out.push(this.market(row));
    return out.reverse();
  }

  *values(): IterableIterator<Market> {
    for (let row = 0; row < this.pools.idLimit; row++) if (this.mintA.values[row] !== NONE) yield this.market(row);
  }

  private rowOf(address: string): number {
    let key: Uint8Array;
    try {
      key = bs58.decode(address);
    } catch {
      // Not base58: no market has that address.
      return NONE;
    }
    return key.length === 32 ? this.pools.find(key) : NONE;
  }

  private market(row: number): Market {
    let market = this.objects.get(row);
    if (market === undefined) {
      const { programId, label } = this.programs[this.program.values[row]];
      market = new ListedMarket(
        this.addressOf(row),
        programId,
        label,
        [this.tokens.text(this.mintA.values[row]), this.tokens.text(this.mintB.values[row])],
        ORIGINS[this.origin.values[row]],
      );
      this.objects.set(row, market);
    }
    return market;
  }

  private addressOf(row: number): string {
    return base58OfBytes(this.pools.keyOf(row));
  }

  private sameAs(row: number, market: Market): boolean {
    return (
      this.programs[this.program.values[row]].label === market.label &&
      this.mintA.values[row] === this.tokens.id(market.mints[0]) &&
      this.mintB.values[row] === this.tokens.id(market.mints[1])
    );
  }

  private programOf(market: Market): number {
    const key = base58Of(market.programId);
    let index = this.programIndex.get(key);
    if (index === undefined) {
      index = this.programs.length;
      this.programs.push({ programId: market.programId, label: market.label });
      this.programIndex.set(key, index);
    }
    return index;
  }

  private ensureRows(rows: number): void {
    for (const column of [this.program, this.origin, this.mintA, this.mintB, this.pairOf, this.pairNext, this.pairPrev]) column.ensure(rows);
    this.tokens.ensureRows(rows);
  }

  private pairKeyOf(a: number, b: number): Uint8Array {
    this.pairView.setInt32(0, Math.min(a, b), true);
    this.pairView.setInt32(4, Math.max(a, b), true);
    return this.pairKey;
  }
}

/**
 * A market source that holds its markets in one table (the markets file, the listing, the
 * subscriptions): the catalog's three questions answered from it, once for all of them.
 */
export abstract class TableMarketSource implements MarketSource {
  readonly table: MarketTable;

  constructor(changed: (pair?: string) => void) {
    this.table = new MarketTable(changed);
  }

  all(): Iterable<Market> {
    return this.table.values();
  }

  withToken(t: string): Iterable<Market> {
    return this.table.token(t);
  }

  forPair(x: string, y: string): Iterable<Market> {
    return this.table.pair(x, y);
  }

  abstract close(): void;
}
