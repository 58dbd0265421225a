import type { AccountData } from "./account.js";

/**
 * `derive` memoised per account version. The live account cache hands out the same `AccountData`
 * object until the account changes (a fresh read is a new object), and account data is never
 * mutated once read, so what was derived from one object stays right for it. A router quotes one
 * pool many times from one state (split search), so decoding once per version, not per call,
 * keeps decoding out of the quote's cost. Held weakly: versions nobody holds any more are dropped.
 */
export function perAccountVersion<T>(derive: (account: AccountData) => T): (account: AccountData) => T {
  const derived = new WeakMap<AccountData, T>();
  return (account) => {
    const kept = derived.get(account);
    if (kept !== undefined || derived.has(account)) return kept as T;
    const value = derive(account);
    derived.set(account, value);
    return value;
  };
}
