import { getStructDecoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { hasDiscriminator } from "../solana/discriminator.js";
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
 * BisonFi: a proprietary AMM (a top SOL/USDC venue in 2026). Its math is not public, so swapd
 * quotes it by executing its program (the program quoter). Facts (the team's chain folder README,
 * `pmm-2026/`, verified on the Mar-2026 binary and its SOL/USDC market through the real Jupiter v6
 * program): the step is `BisonFi { a_to_b }` (variant 117) with the accounts below; its price
 * depends on the slot, and on a stale clock the program *succeeds with 0 output* — so a route
 * through it always carries a real minimum out (swapd's routes do: the quote's threshold). Its
 * Jupiter step takes every account after it, so it is always a route's last step.
 *
 * How a market's mints and vaults are found: a market is a 2,048-byte account starting with the
 * ASCII tag `POOLSTAT`; it names its two vaults at 120 and 152 (the market's associated token
 * accounts) and its mints A and B at 184 and 216 (found on the SOL/USDC and SOL/USDT markets).
 */
export const BISONFI_PROGRAM_ID = new PublicKey("BiSoNHVpsVZW2F7rx2eQ59yQwKxzU5NvBcmKshCSUypi");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

const MARKET_SIZE = 2048;
/** `POOLSTAT` in ASCII: the market account's first 8 bytes. */
const MARKET_TAG = Array.from(Buffer.from("POOLSTAT", "ascii"));

const marketFields = [
  ["tag", skip(8)],
  ["unknown", skip(112)],
  ["vaultA", getPublicKeyCodec()],
  ["vaultB", getPublicKeyCodec()],
  ["mintA", getPublicKeyCodec()],
  ["mintB", getPublicKeyCodec()],
] as const;
const marketDecoder = getStructDecoder(marketFields);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface BisonFiPool {
  readonly address: PublicKey;
  readonly mintA: PublicKey;
  readonly mintB: PublicKey;
  readonly vaultA: PublicKey;
  readonly vaultB: PublicKey;
}

export function decodeBisonFiPool(account: AccountData): BisonFiPool {
  if (account.data.length !== MARKET_SIZE || !hasDiscriminator(account.data, MARKET_TAG)) {
    throw new AmmError(`${account.address.toBase58()} is not a BisonFi market (${MARKET_SIZE} bytes starting with POOLSTAT)`);
  }
  const d = marketDecoder.decode(account.data);
  return { address: account.address, mintA: d.mintA, mintB: d.mintB, vaultA: d.vaultA, vaultB: d.vaultB };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None: the market names every account the swap takes.

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: BisonFiPool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  const aToB = swapsFromFirstMint([pool.mintA, pool.mintB], params);
  // The authority's two token accounts stay A-then-B in both directions, as the vaults do.
  const [accountA, accountB] = aToB ? [params.sourceTokenAccount, params.destinationTokenAccount] : [params.destinationTokenAccount, params.sourceTokenAccount];
  return {
    swap: { kind: "BisonFi", fields: { a_to_b: aToB } },
    accounts: [
      readonlyAccount(BISONFI_PROGRAM_ID),
      // The swap authority: Jupiter signs for it (the user, or its program authority by seeds).
      readonlyAccount(params.tokenTransferAuthority),
      writableAccount(pool.address),
      writableAccount(pool.vaultA),
      writableAccount(pool.vaultB),
      writableAccount(accountA),
      writableAccount(accountB),
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(INSTRUCTIONS_SYSVAR_ID),
      // Jupiter's step takes a tenth account (with nine it fails extracting the step's accounts);
      // the program does not read it in this build, and the Instructions sysvar is accepted there.
      readonlyAccount(INSTRUCTIONS_SYSVAR_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// None in code: the math is not public. The program quoter executes `build`'s step through Jupiter.

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** BisonFi (proprietary); ExactIn, quoted by executing its program. */
export const bisonFiAdapter = defineAmmAdapter<BisonFiPool>({
  programId: BISONFI_PROGRAM_ID,
  label: "BisonFi",
  // Jupiter's exact-out routes do not execute a `BisonFi` step.
  supportsExactOut: false,
  // Its price fields change with every update.
  poolIsImmutable: false,
  decodePool: decodeBisonFiPool,
  poolMintLayout: {
    dataSize: MARKET_SIZE,
    mintOffsets: [fieldOffset(marketFields, "mintA"), fieldOffset(marketFields, "mintB")],
    discriminator: MARKET_TAG,
  },
  mints: (pool) => [pool.mintA, pool.mintB],
  dependencies: () => [],
  build,
  quotedByProgram: true,
  // Jupiter's `BisonFi` step takes every account left after it (a BisonFi step before another
  // panics Jupiter with "mid > len"; as the last step any count from ten executes).
  stepTakesRestOfRoute: true,
});
