import { getStructDecoder, getU64Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { INSTRUCTIONS_SYSVAR_ID } from "../solana/instructions-sysvar.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { AmmError } from "./adapter.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { fieldOffset } from "./field-offsets.js";
import { skip } from "./skipped-bytes.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/**
 * SolFi V2: a proprietary, oracle-priced AMM. Its math is not public, so swapd quotes it by
 * executing its program (the program quoter); this file knows only its accounts and its swap
 * instruction. Facts (chain README of the team's chain folder, checked on the Jan-2026 mainnet
 * SOL/USDC pool): the pool account names every account the swap takes; the swap's price moves with
 * the slot (a quote is made at the current slot and the pool's stored slot must not be too old).
 */
export const SOLFI_V2_PROGRAM_ID = new PublicKey("SV2EYYJyRz2YhfXwXnhNAevDEui5Q6yrfyo13WtupPF");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** The pool account's size on mainnet (the program owns other accounts of other sizes). */
const POOL_SIZE = 1728;

/** The pool account up to the program-state account (offsets found on the mainnet SOL/USDC pool). */
const poolFields = [
  ["header", skip(16)],
  /** The slot the pool's price was last set at: the program refuses swaps far past it. */
  ["priceSlot", getU64Decoder()],
  ["oracle", getPublicKeyCodec()],
  ["baseMint", getPublicKeyCodec()],
  ["quoteMint", getPublicKeyCodec()],
  ["baseVault", getPublicKeyCodec()],
  ["quoteVault", getPublicKeyCodec()],
  ["baseTokenProgram", getPublicKeyCodec()],
  ["quoteTokenProgram", getPublicKeyCodec()],
  ["unused", skip(256 - 248)],
  ["programState", getPublicKeyCodec()],
] as const;
const poolDecoder = getStructDecoder(poolFields);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface SolFiV2Pool {
  readonly address: PublicKey;
  readonly priceSlot: bigint;
  readonly oracle: PublicKey;
  readonly programState: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
  readonly baseTokenProgram: PublicKey;
  readonly quoteTokenProgram: PublicKey;
}

export function decodeSolFiV2Pool(account: AccountData): SolFiV2Pool {
  if (account.data.length !== POOL_SIZE) {
    throw new AmmError(`${account.address.toBase58()} is not a SolFi V2 pool (${account.data.length} bytes, a pool has ${POOL_SIZE})`);
  }
  const d = poolDecoder.decode(account.data);
  return {
    address: account.address,
    priceSlot: d.priceSlot,
    oracle: d.oracle,
    programState: d.programState,
    baseMint: d.baseMint,
    quoteMint: d.quoteMint,
    baseVault: d.baseVault,
    quoteVault: d.quoteVault,
    baseTokenProgram: d.baseTokenProgram,
    quoteTokenProgram: d.quoteTokenProgram,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None: the pool names every account the swap takes.

/** The swap's 13 accounts in the program's order, for the user's two token accounts (base, quote). */
function swapAccounts(pool: SolFiV2Pool, user: PublicKey, baseTokenAccount: PublicKey, quoteTokenAccount: PublicKey) {
  return [
    writableAccount(user),
    writableAccount(pool.address),
    readonlyAccount(pool.oracle),
    readonlyAccount(pool.programState),
    writableAccount(pool.baseVault),
    writableAccount(pool.quoteVault),
    writableAccount(baseTokenAccount),
    writableAccount(quoteTokenAccount),
    readonlyAccount(pool.baseMint),
    readonlyAccount(pool.quoteMint),
    readonlyAccount(pool.baseTokenProgram),
    readonlyAccount(pool.quoteTokenProgram),
    readonlyAccount(INSTRUCTIONS_SYSVAR_ID),
  ];
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: SolFiV2Pool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  const baseToQuote = swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  const [baseAccount, quoteAccount] = baseToQuote
    ? [params.sourceTokenAccount, params.destinationTokenAccount]
    : [params.destinationTokenAccount, params.sourceTokenAccount];
  // Jupiter's `SolFiV2` step = the program id, then the swap's 13 accounts with the token
  // transfer authority as the user (verified on the real Jupiter v6 binary).
  return {
    swap: { kind: "SolFiV2", fields: { is_quote_to_base: !baseToQuote } },
    accounts: [readonlyAccount(SOLFI_V2_PROGRAM_ID), ...swapAccounts(pool, params.tokenTransferAuthority, baseAccount, quoteAccount)],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// None in code: the math is not public. The program quoter executes `build`'s step through Jupiter
// (the program prices a call from Jupiter differently from a direct one).

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** SolFi V2 (proprietary, oracle-priced); ExactIn, quoted by executing its program. */
export const solFiV2Adapter = defineAmmAdapter<SolFiV2Pool>({
  programId: SOLFI_V2_PROGRAM_ID,
  label: "SolFi V2",
  // Jupiter's exact-out routes do not execute a `SolFiV2` step, and the program takes an amount in.
  supportsExactOut: false,
  // Its price fields change every slot.
  poolIsImmutable: false,
  decodePool: decodeSolFiV2Pool,
  poolMintLayout: { dataSize: POOL_SIZE, mintOffsets: [fieldOffset(poolFields, "baseMint"), fieldOffset(poolFields, "quoteMint")] },
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies: () => [],
  build,
  quotedByProgram: true,
});
