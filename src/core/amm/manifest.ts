import { getStructDecoder, getU32Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount, writableSignerAccount } from "../solana/account-meta.js";
import { base58Of } from "../solana/base58-strings.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import { SYSTEM_PROGRAM_ID } from "../solana/programs.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { fieldOffset } from "./field-offsets.js";
import { MARKET_HEADER_SIZE, MarketBlocks, baseForQuoteIn, globalBalances, matchBase } from "./manifest-book.js";
import type { BookFill, BookSide } from "./manifest-book.js";
import { tokenProgramOfMint } from "./mint-token-program.js";
import { skip } from "./skipped-bytes.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/**
 * Manifest: an on-chain central limit order book (CKS Systems), quoted by walking its book as its
 * program matches (manifest-book.ts). Facts (the program's published source, CKS-Systems/manifest:
 * `state/market.rs`, `validation/`, and its Jupiter adapter `client/rust/src/lib.rs`; verified on the
 * Jan-2026 mainnet build and SOL/USDC market of the team's chain folder, `manifest-2026/`, through the
 * real Jupiter v6 program): the step is `Manifest { side }` (variant 116; `Ask` sells the base mint)
 * with the program id and the 14 accounts of the program's swap (below). A swap is immediate-or-cancel:
 * the program fills what the book holds and succeeds, leaving the rest of the input with the user —
 * so a quote the book cannot fill whole is refused, never routed.
 *
 * How a market's mints and vaults are found: a market starts with the u64 discriminant
 * 4859840929024028656 and holds its base mint at 16, quote mint at 48, base vault at 80 and quote
 * vault at 112 (each vault the program's address of ("vault", market, mint)); the account grows as
 * orders rest (no fixed size), so discovery selects markets by the discriminant alone.
 */
export const MANIFEST_PROGRAM_ID = new PublicKey("MNFSTqtC93rEfYHB6hF82sKdZpUDFWkViLByLd1k1Ms");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** The market header's discriminant (MARKET_FIXED_DISCRIMINANT, u64 little-endian). */
const MARKET_DISCRIMINATOR = [240, 175, 97, 143, 147, 159, 113, 67];

const marketFields = [
  ["discriminant", skip(8)],
  ["versionDecimalsAndBumps", skip(8)],
  ["baseMint", getPublicKeyCodec()],
  ["quoteMint", getPublicKeyCodec()],
  ["baseVault", getPublicKeyCodec()],
  ["quoteVault", getPublicKeyCodec()],
  ["orderSequenceNumber", skip(8)],
  ["numBytesAllocated", getU32Decoder()],
  ["bidsRootIndex", getU32Decoder()],
  ["bidsBestIndex", getU32Decoder()],
  ["asksRootIndex", getU32Decoder()],
  ["asksBestIndex", getU32Decoder()],
  ["claimedSeatsRootIndex", getU32Decoder()],
  ["freeListHeadIndex", getU32Decoder()],
] as const;
const marketDecoder = getStructDecoder(marketFields);

/** The global account of a mint, and its vault: they back the global orders of that mint. */
const globals = new BoundedLruMap<string, { global: PublicKey; vault: PublicKey }>(1_024);
function globalOf(mint: PublicKey): { global: PublicKey; vault: PublicKey } {
  return globals.getOrSet(base58Of(mint), () => ({
    global: PublicKey.findProgramAddressSync([Buffer.from("global"), mint.toBuffer()], MANIFEST_PROGRAM_ID)[0],
    vault: PublicKey.findProgramAddressSync([Buffer.from("global-vault"), mint.toBuffer()], MANIFEST_PROGRAM_ID)[0],
  }));
}

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface ManifestMarket {
  readonly address: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
  readonly bids: BookSide;
  readonly asks: BookSide;
  readonly freeListHeadIndex: number;
  /** The account's order blocks, read in place when quoted. */
  readonly blocks: MarketBlocks;
}

export function decodeManifestMarket(account: AccountData): ManifestMarket {
  expectAnchorAccount(account, MARKET_DISCRIMINATOR, MARKET_HEADER_SIZE, "Manifest market");
  const header = marketDecoder.decode(account.data);
  return {
    address: account.address,
    baseMint: header.baseMint,
    quoteMint: header.quoteMint,
    baseVault: header.baseVault,
    quoteVault: header.quoteVault,
    bids: { bestIndex: header.bidsBestIndex },
    asks: { bestIndex: header.asksBestIndex },
    freeListHeadIndex: header.freeListHeadIndex,
    blocks: new MarketBlocks(account.data),
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────

/** The global account of the mint the swap receives: the program checks the makers' global orders against it. */
const dependencies = (_pool: ManifestMarket, params: SwapParams): PublicKey[] => [globalOf(params.destinationMint).global];

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: ManifestMarket, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const sellsBase = swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  const { global, vault } = globalOf(params.destinationMint);
  return {
    swap: { kind: "Manifest", fields: { side: sellsBase ? "Ask" : "Bid" } },
    accounts: [
      readonlyAccount(MANIFEST_PROGRAM_ID),
      // The payer of a market expansion (checked as a signer only if the market must grow), then the owner.
      writableSignerAccount(params.tokenTransferAuthority),
      writableSignerAccount(params.tokenTransferAuthority),
      writableAccount(pool.address),
      readonlyAccount(SYSTEM_PROGRAM_ID),
      writableAccount(sellsBase ? params.sourceTokenAccount : params.destinationTokenAccount),
      writableAccount(sellsBase ? params.destinationTokenAccount : params.sourceTokenAccount),
      writableAccount(pool.baseVault),
      writableAccount(pool.quoteVault),
      readonlyAccount(tokenProgramOfMint(accounts, pool.baseMint)),
      readonlyAccount(pool.baseMint),
      readonlyAccount(tokenProgramOfMint(accounts, pool.quoteMint)),
      readonlyAccount(pool.quoteMint),
      // The program passes a global account that does not exist as none (it then stops at a global order).
      writableAccount(global),
      writableAccount(vault),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────

function quoteAccounts(pool: ManifestMarket, params: QuoteParams, accounts: AccountMap): PublicKey[] {
  const { global } = globalOf(params.aToB ? pool.quoteMint : pool.baseMint);
  return accounts.has(global.toBase58()) ? [] : [global];
}

function quote(pool: ManifestMarket, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const feeMint = params.aToB ? pool.baseMint : pool.quoteMint;
  const none = (reason: string): PoolQuote => ({ inAmount: params.amount, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  // As Manifest's own Jupiter adapter: a swap that must grow the market would charge its rent to the user.
  if (pool.blocks.freeBlocks(pool.freeListHeadIndex, 2) < 2) return none("the market has fewer than two free blocks (a swap would grow it at the user's cost)");
  const global = accounts.get(globalOf(params.aToB ? pool.quoteMint : pool.baseMint).global.toBase58());
  const balances = globalBalances(global?.data);
  // The program reads the slot as a u32.
  const slot = Number(clock.slot & 0xffffffffn);
  let fill: BookFill;
  try {
    if (params.aToB) {
      fill = matchBase(pool.blocks, pool.bids, false, params.amount, slot, balances);
    } else {
      const wanted = baseForQuoteIn(pool.blocks, pool.asks, params.amount, slot, balances);
      const bought = matchBase(pool.blocks, pool.asks, true, wanted.baseAtoms, slot, balances);
      fill = { ...bought, complete: wanted.complete && bought.complete && bought.quoteAtoms <= params.amount };
    }
  } catch (error) {
    // The program's own price conversions fail the swap on the same overflow.
    return none((error as Error).message);
  }
  if (!fill.complete) return none("the book cannot fill the amount");
  return { inAmount: params.amount, outAmount: params.aToB ? fill.quoteAtoms : fill.baseAtoms, feeAmount: 0n, feeMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Manifest (an order book); ExactIn, quoted by walking the book as the program matches. */
export const manifestAdapter = defineAmmAdapter<ManifestMarket>({
  programId: MANIFEST_PROGRAM_ID,
  label: "Manifest",
  supportsExactOut: false,
  poolIsImmutable: false,
  decodePool: decodeManifestMarket,
  poolMintLayout: {
    mintOffsets: [fieldOffset(marketFields, "baseMint"), fieldOffset(marketFields, "quoteMint")],
    discriminator: MARKET_DISCRIMINATOR,
  },
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies,
  build,
  quoteAccounts,
  quote,
});
