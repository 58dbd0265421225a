/** The Clock sysvar: its address and the two fields quotes read from it. */
import { PublicKey } from "@solana/web3.js";
import type { AccountData } from "./account.js";

export const CLOCK_SYSVAR = new PublicKey("SysvarC1ock11111111111111111111111111111111");

/** The Clock sysvar's slot and unix timestamp (u64 slot at 0, i64 unix_timestamp at 32): what a quote's `QuoteClock` holds. */
export function decodeClock(account: AccountData): { readonly slot: bigint; readonly unixTimestamp: bigint } {
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  return { slot: view.getBigUint64(0, true), unixTimestamp: view.getBigInt64(32, true) };
}
