/**
 * A Map bounded to `maxEntries` that evicts approximately the least recently used entry: "second
 * chance" (CLOCK) — a hit only sets a flag; eviction walks from the oldest entry, moving flagged
 * ones to the end (clearing the flag) and dropping the first unflagged one. Exact LRU would move
 * the entry on every hit (a Map delete + set, ~1.5 µs), which showed in the request profile; a
 * hit here is one Map lookup. For memoising pure derivations (PDAs, ATAs, parsed keys) and other
 * caches shared across requests.
 */
interface Slot<V> {
  value: V;
  usedSinceInsert: boolean;
}

export class BoundedLruMap<K, V> {
  private readonly entries = new Map<K, Slot<V>>();

  /** `onEvict` is told about each entry dropped to make room (not about `delete`). */
  constructor(
    private readonly maxEntries: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  get(key: K): V | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined) return undefined;
    slot.usedSinceInsert = true;
    return slot.value;
  }

  /** The value without marking it used (for updates that are not uses). */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    const slot = this.entries.get(key);
    if (slot !== undefined) {
      slot.value = value;
      slot.usedSinceInsert = true;
      return;
    }
    this.entries.set(key, { value, usedSinceInsert: false });
    if (this.entries.size > this.maxEntries) this.evictOne();
  }

  /** The cached value, or `derive()`'s, remembered. */
  getOrSet(key: K, derive: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = derive();
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Drops every entry (not told to `onEvict`). */
  clear(): void {
    this.entries.clear();
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  get size(): number {
    return this.entries.size;
  }

  private evictOne(): void {
    // Re-inserted entries come round again with their flag cleared, so this ends.
    for (const [key, slot] of this.entries) {
      this.entries.delete(key);
      if (!slot.usedSinceInsert) {
        this.onEvict?.(key, slot.value);
        return;
      }
      slot.usedSinceInsert = false;
      this.entries.set(key, slot);
    }
  }
}
