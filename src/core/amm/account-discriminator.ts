import { AmmError } from "./adapter.js";
import type { AccountData } from "../solana/account.js";

/**
 * Checks an Anchor account's 8-byte discriminator (`sha256("account:<Name>")[0..8]`) and
 * minimum size before decoding, so a wrong account fails with a clear AmmError, not garbage.
 */
export function expectAnchorAccount(
  account: AccountData,
  discriminator: readonly number[],
  minSize: number,
  what: string,
): void {
  const { data } = account;
  const matches = data.length >= minSize && discriminator.every((byte, i) => data[i] === byte);
  if (!matches) {
    throw new AmmError(`account ${account.address.toBase58()} is not a ${what} (wrong discriminator or size)`);
  }
}
