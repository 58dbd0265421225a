import { getStructDecoder, getU64Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { INSTRUCTIONS_SYSVAR_ID } from "../solana/instructions-sysvar.js";
import { TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { AmmError } from "./adapter.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { fieldOffset } from "./field-offsets.js";
import { skip } from "./skipped-bytes.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/**
 * Tessera V: a proprietary, oracle-priced AMM (a top SOL/USDC venue in 2026). Its math is not
 * public, so swapd quotes it by executing its program (the program quoter). Facts (the team's
 * chain folder README, `pmm-2026/`, verified on the Mar-2026 binary and SOL/USDC market through
 * the real Jupiter v6 program): the step is `TesseraV { side }` (`Ask` sells the base mint) with
 * the accounts below; a direct call of the program is refused (custom error 0xffff) — only a call
 * from a router it allows executes; its price goes stale ~200 slots after the market's update.
 *
 * How a market's mints and vaults are found: a market is a 1,264-byte account of the program with
 * the layout tag 5 at offset 96, its base mint at 24 and quote mint at 56 (found on the SOL/USDC
 * market, matching public descriptions of the layout). Tessera keeps one vault per mint for all
 * its markets, owned by its global state `8ekCy2jH…` (on the chain:
 * `getTokenAccountsByOwner(8ekCy2jH…, {mint})`); the vault addresses are not in the market nor
 * derived from it, so the mints whose vaults are known are listed below. A market of another mint
 * is not decoded (an AmmError names the mint): it is skipped, never routed through a wrong vault.
 */
export const TESSERA_V_PROGRAM_ID = new PublicKey("TessVdML9pBGgG9yGks7o4HewRaXVAMuoVj4x83GLQH");
/** The program's global state: every swap reads it, and it owns every vault. */
const GLOBAL_STATE = new PublicKey("8ekCy2jHHUbW2yeNGFWYJT9Hm9FW7SvZcZK66dSZCDiF");

/**
 * Each mint's vault (the global state's token account of that mint; wSOL and USDC checked on the
 * chain folder's snapshot, the others as public adapters list them).
 */
const VAULT_OF_MINT: ReadonlyMap<string, PublicKey> = new Map(
  [
    ["So11111111111111111111111111111111111111112", "5pVN5XZB8cYBjNLFrsBCPWkCQBan5K5Mq2dWGzwPgGJV"],
    ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "9t4P5wMwfFkyn92Z7hf463qYKEZf8ERVZsGBEPNp8uJx"],
    ["METvsvVRapdj9cFLzq4Tr43xK4tAjQfwX76z3n6mWQL", "98zmEfUKzsyhWgd6udFrRhfEUbpaLbiS77y2ZCSTWgZk"],
    ["Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk", "68akEwyqPfMRV4ZrigHWSFSrZmT9GJ4WvvgFdiygsiFB"],
  ].map(([mint, vault]) => [mint, new PublicKey(vault)]),
);

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** A market account's size (no other account of the program has it). */
const MARKET_SIZE = 1264;
/** The layout tag at offset 96 of every market of this layout. */
const MARKET_LAYOUT_TAG = 5n;

const marketFields = [
  ["header", skip(24)],
  ["baseMint", getPublicKeyCodec()],
  ["quoteMint", getPublicKeyCodec()],
  ["unknown", skip(8)],
  ["layoutTag", getU64Decoder()],
] as const;
const marketDecoder = getStructDecoder(marketFields);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface TesseraVPool {
  readonly address: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
}

function vaultOf(market: PublicKey, mint: PublicKey): PublicKey {
  const vault = VAULT_OF_MINT.get(mint.toBase58());
  if (!vault) throw new AmmError(`Tessera V market ${market.toBase58()}: the vault of mint ${mint.toBase58()} is not known to swapd`);
  return vault;
}

export function decodeTesseraVPool(account: AccountData): TesseraVPool {
  if (account.data.length !== MARKET_SIZE) {
    throw new AmmError(`${account.address.toBase58()} is not a Tessera V market (${account.data.length} bytes, a market has ${MARKET_SIZE})`);
  }
  const d = marketDecoder.decode(account.data);
  if (d.layoutTag !== MARKET_LAYOUT_TAG) {
    throw new AmmError(`${account.address.toBase58()} is not a Tessera V market of the known layout (tag ${d.layoutTag}, expected ${MARKET_LAYOUT_TAG})`);
  }
  return {
    address: account.address,
    baseMint: d.baseMint,
    quoteMint: d.quoteMint,
    baseVault: vaultOf(account.address, d.baseMint),
    quoteVault: vaultOf(account.address, d.quoteMint),
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None: the global state is one account; the mints are the market's.

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: TesseraVPool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  const baseToQuote = swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  // The authority's two token accounts stay base-then-quote in both directions.
  const [baseAccount, quoteAccount] = baseToQuote
    ? [params.sourceTokenAccount, params.destinationTokenAccount]
    : [params.destinationTokenAccount, params.sourceTokenAccount];
  return {
    swap: { kind: "TesseraV", fields: { side: baseToQuote ? "Ask" : "Bid" } },
    accounts: [
      readonlyAccount(TESSERA_V_PROGRAM_ID),
      readonlyAccount(GLOBAL_STATE),
      writableAccount(pool.address),
      // The swap authority: Jupiter signs for it (the user, or its program authority by seeds).
      readonlyAccount(params.tokenTransferAuthority),
      writableAccount(pool.baseVault),
      writableAccount(pool.quoteVault),
      writableAccount(baseAccount),
      writableAccount(quoteAccount),
      readonlyAccount(pool.baseMint),
      readonlyAccount(pool.quoteMint),
      // The vaults listed are SPL Token accounts: both token programs are the Token program.
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(INSTRUCTIONS_SYSVAR_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// None in code: the math is not public. The program quoter executes `build`'s step through Jupiter.

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Tessera V (proprietary, oracle-priced); ExactIn, quoted by executing its program. */
export const tesseraVAdapter = defineAmmAdapter<TesseraVPool>({
  programId: TESSERA_V_PROGRAM_ID,
  label: "TesseraV",
  // Jupiter's exact-out routes do not execute a `TesseraV` step.
  supportsExactOut: false,
  // Its price fields change with every update.
  poolIsImmutable: false,
  decodePool: decodeTesseraVPool,
  poolMintLayout: { dataSize: MARKET_SIZE, mintOffsets: [fieldOffset(marketFields, "baseMint"), fieldOffset(marketFields, "quoteMint")] },
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies: () => [],
  build,
  quotedByProgram: true,
});
