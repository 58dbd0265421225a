import { getStructDecoder, getU64Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount, writableSignerAccount } from "../solana/account-meta.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { AmmError } from "./adapter.js";
import type { ProgramSwap, ProgramSwapTaker, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
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
/** The instructions sysvar, the swap's last account. */
const INSTRUCTIONS_SYSVAR_ID = new PublicKey("Sysvar1nstructions1111111111111111111111111");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** The pool account's size on mainnet (the program owns other accounts of other sizes). */
const POOL_SIZE = 1728;
/** The swap instruction's tag (one byte, no Anchor discriminator). */
const SWAP_TAG = 7;

/** The pool account up to the program-state account (offsets found on the mainnet SOL/USDC pool). */
const poolDecoder = getStructDecoder([
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
]);

/** Where the pool account keeps its two mints (base, quote), for the market index's filters. */
export const SOLFI_V2_MINT_OFFSETS = { size: POOL_SIZE, mintA: 56, mintB: 88 } as const;

/** The swap's data: tag, amount in, minimum out, direction (1 = quote → base). */
function swapData(amountIn: bigint, minimumOut: bigint, quoteToBase: boolean): Uint8Array {
  const data = Buffer.alloc(18);
  data.writeUInt8(SWAP_TAG, 0);
  data.writeBigUInt64LE(amountIn, 1);
  data.writeBigUInt64LE(minimumOut, 9);
  data.writeUInt8(quoteToBase ? 1 : 0, 17);
  return data;
}

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
// None for the build: the pool names every account. The program quoter reads `stateAccounts`.

/** The swap's 13 accounts in the program's order, for the taker's two token accounts (base, quote). */
function swapAccounts(pool: SolFiV2Pool, user: PublicKey, baseTokenAccount: PublicKey, quoteTokenAccount: PublicKey) {
  return [
    writableSignerAccount(user),
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
  // transfer authority as the user (verified on the real Jupiter v6 binary). Jupiter signs for
  // its own authority in shared-accounts mode, so the outer meta is not a signer.
  const accounts = swapAccounts(pool, params.tokenTransferAuthority, baseAccount, quoteAccount);
  accounts[0] = writableAccount(params.tokenTransferAuthority);
  return {
    swap: { kind: "SolFiV2", fields: { is_quote_to_base: !baseToQuote } },
    accounts: [readonlyAccount(SOLFI_V2_PROGRAM_ID), ...accounts],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// By its own program: the swap instruction for the amount, for the program quoter to execute.

function programSwap(pool: SolFiV2Pool, params: QuoteParams, taker: ProgramSwapTaker): ProgramSwap {
  if (params.swapMode !== "ExactIn") throw new AmmError("SolFi V2 quotes ExactIn only");
  const baseToQuote = params.aToB;
  const [baseAccount, quoteAccount] = baseToQuote
    ? [taker.sourceTokenAccount, taker.destinationTokenAccount]
    : [taker.destinationTokenAccount, taker.sourceTokenAccount];
  return {
    instruction: {
      programId: SOLFI_V2_PROGRAM_ID,
      keys: swapAccounts(pool, taker.wallet, baseAccount, quoteAccount),
      data: swapData(params.amount, 0n, !baseToQuote),
    },
    stateAccounts: [pool.address, pool.oracle, pool.programState, pool.baseVault, pool.quoteVault, pool.baseMint, pool.quoteMint],
    source: baseToQuote
      ? { mint: pool.baseMint, tokenProgram: pool.baseTokenProgram }
      : { mint: pool.quoteMint, tokenProgram: pool.quoteTokenProgram },
    destination: baseToQuote
      ? { mint: pool.quoteMint, tokenProgram: pool.quoteTokenProgram }
      : { mint: pool.baseMint, tokenProgram: pool.baseTokenProgram },
  };
}

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
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies: () => [],
  build,
  programSwap,
});
