import { AmmError } from "./adapter.js";
import type { AccountData } from "../solana/account.js";
import { hasDiscriminator } from "../solana/discriminator.js";

/**
 * Checks an Anchor account's 8-byte discriminator (`sha256("account:<Name>")[0..8]`) and
 * minimum size before decoding, so a wrong account fails with a clear AmmError, not garbage.
 */
export function expectAnchorAccount(account: AccountData, discriminator: ArrayLike<number>, minSize: number, what: string): void {
  if (account.data.length < minSize || !hasDiscriminator(account.data, discriminator)) {
    throw new AmmError(`account ${account.address.toBase58()} is not a ${what} (wrong discriminator or size)`);
  }
}
