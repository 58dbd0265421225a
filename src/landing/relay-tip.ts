/**
 * Whether a signed transaction pays a relay tip: a top-level System Program transfer to one of the
 * tip accounts (`RELAY_TIP_ACCOUNTS`), the account named in the message itself (a block engine
 * finds its tip accounts the same way, and swapd's builder never puts them in a lookup table).
 * Only such a transaction is sent to the block engine as a bundle: an engine drops an untipped one.
 */
import { SystemProgram, VersionedTransaction } from "@solana/web3.js";

/** System Program instruction index of `Transfer` (u32 little-endian), followed by the lamports (u64). */
const SYSTEM_TRANSFER = 2;

/** The lamports the transaction tips to `tipAccounts`; 0n when it tips none of them. */
export function relayTipLamports(wire: Uint8Array, tipAccounts: ReadonlySet<string>): bigint {
  const message = VersionedTransaction.deserialize(wire).message;
  const keys = message.staticAccountKeys;
  let tip = 0n;
  for (const ix of message.compiledInstructions) {
    const data = Buffer.from(ix.data);
    if (!keys[ix.programIdIndex]?.equals(SystemProgram.programId) || data.length !== 12 || data.readUInt32LE(0) !== SYSTEM_TRANSFER) continue;
    const to = keys[ix.accountKeyIndexes[1] ?? keys.length];
    if (to !== undefined && tipAccounts.has(to.toBase58())) tip += data.readBigUInt64LE(4);
  }
  return tip;
}
