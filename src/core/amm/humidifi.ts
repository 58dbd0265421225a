import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { CLOCK_SYSVAR } from "../solana/clock-sysvar.js";
import { INSTRUCTIONS_SYSVAR_ID } from "../solana/instructions-sysvar.js";
import { TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/**
 * HumidiFi: a proprietary AMM (the largest by SOL/USDC volume). Its math is not public, so swapd
 * quotes it by executing its program (the program quoter); this file knows its accounts and its
 * Jupiter step. Facts (the team's chain folder README, checked on the Mar-2026 binary and its
 * SOL/USDC pool through the real Jupiter v6 program): the step is `HumidiFi { swap_id,
 * is_base_to_quote }` with the accounts below; any `swap_id` executes; every swap rewrites part of
 * the pool account, so a quote is made on the pool's current data (never a cached decode's).
 *
 * How the pool's mints and vaults are found (the account is XOR-masked, so no field reads as it
 * is): the pool owns exactly its two vaults as SPL token accounts (`getTokenAccountsByOwner(pool)`
 * on the chain answers `H292…` (wSOL) and `A3C9…` (USDC) for the SOL/USDC pool `8sKQ…`). Matching
 * those four known keys — the two vaults and their mints — against the pool's bytes finds them
 * at four consecutive 32-byte slots, each XORed with the same 32-byte mask: quote mint at 384,
 * base mint at 416, quote vault at 448, base vault at 480. The mask is the program's (the
 * instruction data is masked the same way with a program-wide key); were a pool masked with
 * another, its decoded mints would be keys no pair asks for and the pool would simply not be
 * found, never routed through wrong accounts (the program checks its vaults on every swap).
 */
export const HUMIDIFI_PROGRAM_ID = new PublicKey("9H6tua7jkLhdm3w8BvgpTn5LZNU7g4ZynDmCiNN3q6Rp");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** The pool account's size on mainnet. */
const POOL_SIZE = 1728;
/** The four key slots, each 32 bytes, XORed with KEY_MASK (see above). */
const QUOTE_MINT_OFFSET = 384;
const BASE_MINT_OFFSET = 416;
const QUOTE_VAULT_OFFSET = 448;
const BASE_VAULT_OFFSET = 480;
/** What each key slot is XORed with (found on the mainnet SOL/USDC pool, as said above). */
export const HUMIDIFI_KEY_MASK: Uint8Array = Uint8Array.from(Buffer.from("383c44ae7ae85cfbc7c3ba518417a204c6c3b9518717a104c5c3b8518617a004", "hex"));

function unmaskedKey(data: Uint8Array, offset: number): PublicKey {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = data[offset + i] ^ HUMIDIFI_KEY_MASK[i];
  return new PublicKey(bytes);
}

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface HumidiFiPool {
  readonly address: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
}

export function decodeHumidiFiPool(account: AccountData): HumidiFiPool {
  if (account.data.length !== POOL_SIZE) {
    throw new AmmError(`${account.address.toBase58()} is not a HumidiFi pool (${account.data.length} bytes, a pool has ${POOL_SIZE})`);
  }
  return {
    address: account.address,
    baseMint: unmaskedKey(account.data, BASE_MINT_OFFSET),
    quoteMint: unmaskedKey(account.data, QUOTE_MINT_OFFSET),
    baseVault: unmaskedKey(account.data, BASE_VAULT_OFFSET),
    quoteVault: unmaskedKey(account.data, QUOTE_VAULT_OFFSET),
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None: the pool names every account the swap takes.

// ── Build ───────────────────────────────────────────────────────────────────────────────────

/**
 * Any value executes (the program does not keep it); one constant keeps every amount's route the
 * same shape, which the program quoter compiles once.
 */
const SWAP_ID = 0n;

function build(pool: HumidiFiPool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  const baseToQuote = swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  // The authority's two token accounts stay base-then-quote in both directions.
  const [baseAccount, quoteAccount] = baseToQuote
    ? [params.sourceTokenAccount, params.destinationTokenAccount]
    : [params.destinationTokenAccount, params.sourceTokenAccount];
  return {
    swap: { kind: "HumidiFi", fields: { swap_id: SWAP_ID, is_base_to_quote: baseToQuote } },
    accounts: [
      readonlyAccount(HUMIDIFI_PROGRAM_ID),
      // The swap authority: Jupiter signs for it (the user, or its program authority by seeds).
      readonlyAccount(params.tokenTransferAuthority),
      writableAccount(pool.address),
      writableAccount(pool.baseVault),
      writableAccount(pool.quoteVault),
      writableAccount(baseAccount),
      writableAccount(quoteAccount),
      readonlyAccount(CLOCK_SYSVAR),
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(INSTRUCTIONS_SYSVAR_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// None in code: the math is not public. The program quoter executes `build`'s step through Jupiter
// on the pool's live data.

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** HumidiFi (proprietary); ExactIn, quoted by executing its program. */
export const humidiFiAdapter = defineAmmAdapter<HumidiFiPool>({
  programId: HUMIDIFI_PROGRAM_ID,
  label: "HumidiFi",
  // Jupiter's exact-out routes do not execute a `HumidiFi` step.
  supportsExactOut: false,
  // Every swap rewrites part of the pool.
  poolIsImmutable: false,
  decodePool: decodeHumidiFiPool,
  poolMintLayout: { dataSize: POOL_SIZE, mintOffsets: [BASE_MINT_OFFSET, QUOTE_MINT_OFFSET], mintMask: HUMIDIFI_KEY_MASK },
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies: () => [],
  build,
  quotedByProgram: true,
});
