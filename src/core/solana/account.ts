import type { PublicKey } from "@solana/web3.js";

/** An account as read from the chain; the core's only view of on-chain state. */
export interface AccountData {
  readonly address: PublicKey;
  readonly owner: PublicKey;
  readonly lamports: bigint;
  readonly data: Uint8Array;
  readonly executable: boolean;
}

/** Accounts by base58 address; `null` = read and found missing. Absent key = not read. */
export type AccountMap = ReadonlyMap<string, AccountData | null>;
