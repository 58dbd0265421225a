/**
 * The market table's tokens: each mint interned as its 32 bytes (a text each would cost ~70 bytes
 * more per token, and most of mainnet's tokens have one pool), counted by the markets holding it
 * (forgotten with the last), and each token's markets as a doubly linked list through the rows —
 * entry `row * 2 + side`, side 0 for the row's first mint and 1 for its second.
 */
import bs58 from "bs58";
import { base58OfBytes } from "../core/solana/base58-strings.js";
import { KeyTable } from "./key-table.js";
import { NONE, int32Column } from "./typed-column.js";

/** Mint texts whose ids are remembered without decoding them again (the hub mints recur in every other pool). */
const RECENT_MINTS = 4_096;

export class MarketTokenLists {
  private readonly mints = new KeyTable(32);
  private readonly head = int32Column();
  private readonly uses = int32Column(0);
  private readonly next = int32Column();
  private readonly prev = int32Column();
  private readonly recent = new Map<string, number>();

  /** Room for the entries of `rows` rows. */
  ensureRows(rows: number): void {
    this.next.ensure(rows * 2);
    this.prev.ensure(rows * 2);
  }

  /** The mint's id, or NONE when no market holds it (or it is not a key). */
  id(text: string): number {
    let key: Uint8Array;
    try {
      key = bs58.decode(text);
    } catch {
      // Not base58: no market holds it.
      return NONE;
    }
    return key.length === 32 ? this.mints.find(key) : NONE;
  }

  text(mint: number): string {
    return base58OfBytes(this.mints.keyOf(mint));
  }

  /** Puts `entry` at the head of the list of `text`'s mint (interned, counted); returns the mint's id. */
  link(entry: number, text: string): number {
    const mint = this.use(text);
    const head = this.head.values[mint];
    this.next.values[entry] = head;
    this.prev.values[entry] = NONE;
    if (head !== NONE) this.prev.values[head] = entry;
    this.head.values[mint] = entry;
    return mint;
  }

  /** Takes `entry` out of `mint`'s list; the mint is forgotten with its last market. */
  unlink(entry: number, mint: number): void {
    const [next, prev] = [this.next.values[entry], this.prev.values[entry]];
    if (prev === NONE) this.head.values[mint] = next;
    else this.next.values[prev] = next;
    if (next !== NONE) this.prev.values[next] = prev;
    if (--this.uses.values[mint] === 0) {
      this.recent.delete(this.text(mint));
      this.mints.delete(mint);
    }
  }

  /** The rows holding `mint`, latest first. */
  *rows(mint: number): IterableIterator<number> {
    for (let entry = this.head.values[mint]; entry !== NONE; entry = this.next.values[entry]) yield entry >> 1;
  }

  private use(text: string): number {
    const recent = this.recent.get(text);
    if (recent !== undefined) {
      this.uses.values[recent]++;
      return recent;
    }
    const { id, added } = this.mints.intern(bs58.decode(text));
    if (this.recent.size >= RECENT_MINTS) this.recent.clear();
    this.recent.set(text, id);
    if (added) {
      this.head.ensure(this.mints.idLimit);
      this.uses.ensure(this.mints.idLimit);
    }
    this.uses.values[id]++;
    return id;
  }
}
