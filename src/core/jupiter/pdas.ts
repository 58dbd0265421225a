import { PublicKey } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID } from "../solana/programs.js";

/** Jupiter supports program authorities 0..7 (jupiter-amm-implementation `find_jupiter_program_authority_id`). */
export const PROGRAM_AUTHORITY_COUNT = 8;

// Fixed addresses, derived once at load: a PDA search per request was a large share of its CPU.
const PROGRAM_AUTHORITIES: readonly PublicKey[] = Array.from(
  { length: PROGRAM_AUTHORITY_COUNT },
  (_, id) => PublicKey.findProgramAddressSync([Buffer.from("authority"), Buffer.from([id])], JUPITER_V6_PROGRAM_ID)[0],
);
const EVENT_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], JUPITER_V6_PROGRAM_ID)[0];

/** The program authority PDA `["authority", [id]]` that owns the shared-accounts token accounts. */
export function findProgramAuthority(id: number): PublicKey {
  if (!Number.isInteger(id) || id < 0 || id >= PROGRAM_AUTHORITY_COUNT) {
    throw new RangeError(`program authority id must be 0..${PROGRAM_AUTHORITY_COUNT - 1}, got ${id}`);
  }
  return PROGRAM_AUTHORITIES[id];
}

/** Anchor `#[event_cpi]` authority `["__event_authority"]`. */
export function findEventAuthority(): PublicKey {
  return EVENT_AUTHORITY;
}

/** Placeholder for absent optional accounts (Anchor convention): the program id, read-only. */
export const ABSENT_ACCOUNT = JUPITER_V6_PROGRAM_ID;
