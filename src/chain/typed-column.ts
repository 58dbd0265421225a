/** A typed-array column indexed by small ids (key-table.ts), grown as the ids grow; new cells hold `fill`. */
export class TypedColumn<T extends Int32Array | Uint8Array> {
  constructor(
    public values: T,
    private readonly fill: number,
  ) {
    values.fill(fill);
  }

  ensure(length: number): void {
    if (length <= this.values.length) return;
    // By half again: a doubling's slack is up to half of millions of rows.
    const grown = new (this.values.constructor as new (n: number) => T)(Math.max(length, Math.ceil(this.values.length * 1.5)));
    grown.fill(this.fill);
    grown.set(this.values);
    this.values = grown;
  }
}

/** The id of no row: the end of a list, an empty cell. */
export const NONE = -1;

export const int32Column = (fill = NONE) => new TypedColumn(new Int32Array(1024), fill);
