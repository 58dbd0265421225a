import { PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { SwapParams } from "../../../src/core/amm/adapter.js";

import { readReferenceJson } from "../../fixtures/reference.js";

export { readReferenceJson };

/** A carbon fixture account (`{data: base64, owner, ...}`) placed at `address` (fixtures do not record it). */
export function carbonAccount(path: string, address: PublicKey): AccountData {
  const fixture = readReferenceJson<{ data: string; owner: string; lamports: number }>(`fixtures/carbon/${path}`);
  return {
    address,
    owner: new PublicKey(fixture.owner),
    lamports: BigInt(fixture.lamports),
    data: Uint8Array.from(Buffer.from(fixture.data, "base64")),
    executable: false,
  };
}

export function withData(account: AccountData, data: Uint8Array): AccountData {
  return { ...account, data };
}

/** A mint account as far as adapters care: its owner says which token program it belongs to. */
export function mintAccount(address: PublicKey, token2022 = false): AccountData {
  return {
    address,
    owner: token2022 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID,
    lamports: 1_461_600n,
    data: new Uint8Array(82),
    executable: false,
  };
}

export function accountMap(...accounts: AccountData[]): Map<string, AccountData | null> {
  return new Map(accounts.map((a) => [a.address.toBase58(), a]));
}

/** Deterministic distinct keys for user/authority accounts. */
export function testKey(seed: number): PublicKey {
  const bytes = new Uint8Array(32);
  bytes[0] = 7;
  bytes[31] = seed;
  return new PublicKey(bytes);
}

export function swapParams(sourceMint: PublicKey, destinationMint: PublicKey, swapMode: "ExactIn" | "ExactOut" = "ExactIn"): SwapParams {
  return {
    sourceMint,
    destinationMint,
    sourceTokenAccount: testKey(1),
    destinationTokenAccount: testKey(2),
    tokenTransferAuthority: testKey(3),
    user: testKey(3),
    inAmount: 1_000_000n,
    outAmount: 990_000n,
    swapMode,
  };
}

/**
 * An AMM's own instruction mapped into Jupiter's step layout: the AMM program id first (read-only),
 * then its accounts, with the user/authority no longer a signer (the step runs under Jupiter's CPI).
 */
export function jupiterStepFromAmmInstruction(programId: PublicKey, keys: readonly AccountMeta[]): AccountMeta[] {
  return [{ pubkey: programId, isSigner: false, isWritable: false }, ...keys.map((k) => ({ pubkey: k.pubkey, isSigner: false, isWritable: k.isWritable }))];
}

/** Comparable form of account metas (base58 + flags) for readable diffs. */
export function metas(keys: readonly AccountMeta[]): string[] {
  return keys.map((k) => `${k.pubkey.toBase58()} ${k.isSigner ? "S" : "-"}${k.isWritable ? "W" : "-"}`);
}

/**
 * Account flags ("W" writable / "-") of a per-AMM pseudo-instruction in Jupiter's legacy IDL,
 * which encodes each `Swap` variant's step layout (first account = the AMM program).
 */
export function legacyIdlStepFlags(pseudoInstruction: string): string[] {
  const idl = readReferenceJson("jupiter-aggregator-v6.idl.json");
  const ix = idl.instructions.find((i: { name: string }) => i.name === pseudoInstruction);
  if (!ix) throw new Error(`no ${pseudoInstruction} in the legacy IDL`);
  return ix.accounts.map((a: { isMut: boolean; isSigner: boolean }) => `${a.isSigner ? "S" : "-"}${a.isMut ? "W" : "-"}`);
}

export function stepFlags(keys: readonly AccountMeta[]): string[] {
  return keys.map((k) => `${k.isSigner ? "S" : "-"}${k.isWritable ? "W" : "-"}`);
}
