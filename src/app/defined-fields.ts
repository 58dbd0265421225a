/**
 * Optional fields passed on only when they have a value: `definedFields({ a, b })` instead of
 * `...(a ? { a } : {}), ...(b ? { b } : {})` for options whose keys are optional (and may not be
 * given as `undefined`).
 */
type Given<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] };
type MaybeGiven<T> = { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

export function definedFields<T extends Record<string, unknown>>(fields: T): Given<T> & MaybeGiven<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Given<T> & MaybeGiven<T>;
}
