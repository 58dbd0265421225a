/**
 * Fixed-size byte keys (public keys, pairs of ids) interned to dense ids, in typed arrays: the
 * market index holds millions of pool addresses and mints, where a JS string and a Map entry per key
 * cost ~100 bytes and this ~40. Open addressing with linear probing over an Int32Array of ids; a
 * deleted key leaves a tombstone and its id is reused. Ids are small integers, so the caller keeps
 * its per-key columns in typed arrays indexed by them.
 */
const EMPTY = 0;
const TOMBSTONE = -1;
const MIN_SLOTS = 1 << 10;

export class KeyTable {
  private keys: Uint8Array;
  private slots: Int32Array;
  /** Ids ever handed out (the next new one). */
  private next = 0;
  private used = 0;
  private tombstones = 0;
  private readonly freeIds: number[] = [];

  constructor(private readonly keyBytes: number) {
    this.keys = new Uint8Array(MIN_SLOTS * keyBytes);
    this.slots = new Int32Array(MIN_SLOTS);
  }

  /** Keys held. */
  get size(): number {
    return this.used;
  }

  /** One past the largest id handed out: columns indexed by id need this length. */
  get idLimit(): number {
    return this.next;
  }

  /** The id of `key` (its first `keyBytes` bytes), or -1. */
  find(key: Uint8Array): number {
    const mask = this.slots.length - 1;
    for (let slot = this.hash(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY) return -1;
      if (entry !== TOMBSTONE && this.equals(entry - 1, key)) return entry - 1;
    }
  }

  /** The id of `key`, added if new (`added` tells which). */
  intern(key: Uint8Array): { id: number; added: boolean } {
    const found = this.find(key);
    if (found >= 0) return { id: found, added: false };
    if ((this.used + this.tombstones + 1) * 10 > this.slots.length * 6) this.resize();
    const id = this.freeIds.pop() ?? this.next++;
    if ((id + 1) * this.keyBytes > this.keys.length) {
      const keys = new Uint8Array(Math.max(this.keys.length * 2, (id + 1) * this.keyBytes));
      keys.set(this.keys);
      this.keys = keys;
    }
    this.keys.set(key.subarray(0, this.keyBytes), id * this.keyBytes);
    this.place(id);
    this.used++;
    return { id, added: true };
  }

  /** Removes the key of `id`; the id is handed out again later. */
  delete(id: number): void {
    const mask = this.slots.length - 1;
    for (let slot = this.hash(this.keyOf(id)) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === EMPTY) return;
      if (entry === id + 1) {
        this.slots[slot] = TOMBSTONE;
        this.tombstones++;
        this.used--;
        this.freeIds.push(id);
        return;
      }
    }
  }

  /** The key of `id` (a view: copy it to keep it past the next change). */
  keyOf(id: number): Uint8Array {
    return this.keys.subarray(id * this.keyBytes, (id + 1) * this.keyBytes);
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hash(this.keyOf(id)) & mask;
    while (this.slots[slot] !== EMPTY && this.slots[slot] !== TOMBSTONE) slot = (slot + 1) & mask;
    if (this.slots[slot] === TOMBSTONE) this.tombstones--;
    this.slots[slot] = id + 1;
  }

  /** Doubles the slots when more than half hold keys; otherwise rebuilds them without tombstones. */
  private resize(): void {
    const old = this.slots;
    const size = this.used * 2 >= old.length ? old.length * 2 : old.length;
    this.slots = new Int32Array(size);
    this.tombstones = 0;
    for (const entry of old) if (entry > 0) this.place(entry - 1);
  }

  private hash(key: Uint8Array): number {
    // Public keys are hashes already; pairs of small ids are not: mix the first eight bytes either way.
    const a = key[0] | (key[1] << 8) | (key[2] << 16) | (key[3] << 24);
    const b = key[4] | (key[5] << 8) | (key[6] << 16) | (key[7] << 24);
    const h = Math.imul(a ^ Math.imul(b, 0x85ebca6b), 0x9e3779b1);
    return (h ^ (h >>> 15)) >>> 0;
  }

  private equals(id: number, key: Uint8Array): boolean {
    const at = id * this.keyBytes;
    for (let i = 0; i < this.keyBytes; i++) if (this.keys[at + i] !== key[i]) return false;
    return true;
  }
}
