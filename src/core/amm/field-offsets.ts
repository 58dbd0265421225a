import type { FixedSizeDecoder } from "@solana/kit";

/** The field list a kit struct decoder is made from, every field fixed-size. */
export type FixedFields = readonly (readonly [string, FixedSizeDecoder<unknown>])[];

/**
 * Byte offset of field `name` in the struct the fields describe: the sum of the fixed sizes before
 * it. Offsets are derived from the adapter's own decoder fields, so no layout fact is written twice.
 */
export function fieldOffset<const TFields extends FixedFields>(fields: TFields, name: TFields[number][0]): number {
  let offset = 0;
  for (const [field, decoder] of fields) {
    if (field === name) return offset;
    offset += decoder.fixedSize;
  }
  throw new RangeError(`no field ${name} in the layout`);
}
