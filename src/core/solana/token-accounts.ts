import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
  getTransferFeeConfig,
  getTransferHook,
  unpackMint,
  AccountLayout,
  MintLayout,
} from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import type { AccountData } from "./account.js";
import { BoundedLruMap } from "./bounded-lru-map.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./programs.js";
import { base58Of } from "./base58-strings.js";
import { perAccountVersion } from "./per-account-version.js";

/**
 * What the swap builder needs from a mint account: its token program (= owner) and decimals, and
 * the Token-2022 extensions that change what a transfer takes (fees) or needs (hook accounts).
 */
export interface MintInfo {
  readonly tokenProgram: PublicKey;
  readonly decimals: number;
  /** TransferHook's program, when one is set: every transfer CPIs into it with extra accounts. */
  readonly transferHookProgram?: PublicKey;
  /** TransferFeeConfig's larger rate (older or newer, basis points), when not 0. */
  readonly transferFeeBasisPoints?: number;
}

/** Mints by base58 address. */
export type MintMap = ReadonlyMap<string, MintInfo>;

/** How many owners' derived ATAs are remembered, and how many per owner and token program. */
const ATA_MEMO_OWNERS = 20_000;
const ATA_MEMO_MINTS_PER_OWNER = 256;
/**
 * ATAs derived so far: owner → token program → mint (base58 texts, each cached per key object, so
 * the lookups hash no new strings). A derivation is a PDA search (SHA-256 and an ed25519 on-curve
 * check per bump): it was half of a swap request's CPU, for the same few addresses again and
 * again; the address is a pure function of its seeds, so it is memoised.
 */
const ataMemo = new BoundedLruMap<string, Map<string, Map<string, PublicKey>>>(ATA_MEMO_OWNERS);

/** The associated token account of `owner` for `mint` under the mint's own token program. */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  const byProgram = ataMemo.getOrSet(base58Of(owner), () => new Map());
  const programKey = base58Of(tokenProgram);
  let byMint = byProgram.get(programKey);
  if (byMint === undefined) byProgram.set(programKey, (byMint = new Map<string, PublicKey>()));
  const mintKey = base58Of(mint);
  let address = byMint.get(mintKey);
  if (address === undefined) {
    // allowOwnerOffCurve: program authorities (PDAs) own ATAs too.
    address = getAssociatedTokenAddressSync(mint, owner, true, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID);
    if (byMint.size >= ATA_MEMO_MINTS_PER_OWNER) byMint.clear(); // one owner, endless mints: start over
    byMint.set(mintKey, address);
  }
  return address;
}

/**
 * The same address without the memo, for owners seen once — a new order's escrow: memoised, every
 * createOrder would add an owner that is never asked for again (heap snapshots of the soak: about
 * 1.5 KB per order, so up to ~30 MB at the memo's 20,000-owner bound).
 */
export function deriveAssociatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID);
}

/**
 * Creates `owner`'s associated token account for `mint` (under the mint's token program), paid by
 * `payer`; a no-op when it already exists.
 */
export function createAssociatedTokenAccountIdempotent(payer: PublicKey, owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): TransactionInstruction {
  const address = associatedTokenAddress(owner, mint, tokenProgram);
  return createAssociatedTokenAccountIdempotentInstruction(payer, address, owner, mint, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID);
}

export function isTokenProgram(program: PublicKey): boolean {
  return program.equals(TOKEN_PROGRAM_ID) || program.equals(TOKEN_2022_PROGRAM_ID);
}

/**
 * Decodes a mint account (SPL Token or Token-2022 with its transfer hook and fee extensions);
 * undefined for anything else, including token accounts and uninitialized mints. Once per account
 * version: cached mint accounts are the same objects on every request, and unpacking them each
 * time showed in the profile.
 */
export const decodeMintInfo: (account: AccountData) => MintInfo | undefined = perAccountVersion(unpackMintInfo);

function unpackMintInfo(account: AccountData): MintInfo | undefined {
  if (!isTokenProgram(account.owner)) return undefined;
  try {
    // spl-token's own unpacking: it also tells a Token-2022 mint with extensions from a token account.
    const data = Buffer.from(account.data.buffer, account.data.byteOffset, account.data.byteLength);
    const mint = unpackMint(account.address, { data, owner: account.owner, lamports: 0, executable: false }, account.owner);
    if (!mint.isInitialized) return undefined;
    const hook = getTransferHook(mint)?.programId;
    const fee = getTransferFeeConfig(mint);
    const feeBasisPoints = fee ? Math.max(fee.olderTransferFee.transferFeeBasisPoints, fee.newerTransferFee.transferFeeBasisPoints) : 0;
    return {
      tokenProgram: account.owner,
      decimals: mint.decimals,
      ...(hook && !hook.equals(PublicKey.default) ? { transferHookProgram: hook } : {}),
      ...(feeBasisPoints > 0 ? { transferFeeBasisPoints: feeBasisPoints } : {}),
    };
  } catch {
    return undefined; // too short, or not a mint
  }
}

/** The mint of a token account (the first 32 bytes of both token programs' layouts). */
export function tokenAccountMint(account: AccountData): PublicKey | undefined {
  if (!isTokenProgram(account.owner) || account.data.length < 165) return undefined;
  return new PublicKey(account.data.subarray(0, 32));
}

/**
 * An initialized mint's data (82 bytes, SPL Token's own layout; Token-2022 reads it as a mint without
 * extensions): `authority` as mint authority, or none; no freeze authority.
 */
export function encodeMintAccount(decimals: number, authority: PublicKey | null, supply: bigint): Uint8Array {
  const data = Buffer.alloc(MintLayout.span);
  MintLayout.encode(
    {
      mintAuthorityOption: authority === null ? 0 : 1,
      mintAuthority: authority ?? PublicKey.default,
      supply,
      decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  return new Uint8Array(data);
}

/**
 * An initialized SPL Token account's data (165 bytes, SPL Token's own layout): for accounts the
 * embedded chain and the program quoter write themselves. `nativeReserve` marks a wrapped-SOL
 * account (its rent-exempt reserve), `null` any other.
 */
export function encodeTokenAccount(mint: PublicKey, owner: PublicKey, amount: bigint, nativeReserve: bigint | null): Uint8Array {
  const data = Buffer.alloc(AccountLayout.span);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1, // initialized
      isNativeOption: nativeReserve === null ? 0 : 1,
      isNative: nativeReserve ?? 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return new Uint8Array(data);
}
