import { getStructDecoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { fieldOffset } from "./field-offsets.js";
import { skip } from "./skipped-bytes.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/**
 * Obric V2: an oracle-priced AMM (stable pairs and SOL pairs). swapd quotes it by executing its
 * program (the program quoter): its published math is not in a package swapd can use, and the
 * program is the exact quoter. Facts (the team's chain folder README, `pmm-2026/`, verified on the
 * Mar-2026 binary and its USDT/USDC pair through the real Jupiter v6 program): the step is
 * `Obric { x_to_y }` (variant 58) with the accounts below; its price depends on the clock's
 * unix_timestamp (custom error 6019 when its oracles are ~800 s old).
 *
 * How a pair's mints, reserves and oracles are found: a pair is the program's Anchor account
 * `SSTradingPair` (666 bytes), holding its reference oracle at 9, reserves X and Y at 73 and 105,
 * second reference oracle at 169, mints X and Y at 202 and 234, third reference oracle at 482 and
 * the X and Y price feeds at 514 and 546 (offsets found on the USDT/USDC pair, as public
 * adapters read them).
 */
export const OBRIC_V2_PROGRAM_ID = new PublicKey("obriQD1zbpyLz95G5n7nJe6a4DPjpFwa5XYPoNm113y");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

const PAIR_SIZE = 666;
/** sha256("account:SSTradingPair")[0..8]. */
const PAIR_DISCRIMINATOR = [0x3b, 0xde, 0x0f, 0xec, 0x62, 0x66, 0x5a, 0xe0];

const pairFields = [
  ["discriminator", skip(8)],
  ["unknownFlag", skip(1)],
  ["refOracle", getPublicKeyCodec()],
  ["unknownKey", skip(32)],
  ["reserveX", getPublicKeyCodec()],
  ["reserveY", getPublicKeyCodec()],
  ["unknownKey2", skip(32)],
  ["secondRefOracle", getPublicKeyCodec()],
  ["unknownByte", skip(1)],
  ["mintX", getPublicKeyCodec()],
  ["mintY", getPublicKeyCodec()],
  ["unknownFields", skip(482 - 266)],
  ["thirdRefOracle", getPublicKeyCodec()],
  ["xPriceFeed", getPublicKeyCodec()],
  ["yPriceFeed", getPublicKeyCodec()],
] as const;
const pairDecoder = getStructDecoder(pairFields);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface ObricV2Pool {
  readonly address: PublicKey;
  readonly mintX: PublicKey;
  readonly mintY: PublicKey;
  readonly reserveX: PublicKey;
  readonly reserveY: PublicKey;
  readonly refOracle: PublicKey;
  readonly secondRefOracle: PublicKey;
  readonly thirdRefOracle: PublicKey;
  readonly xPriceFeed: PublicKey;
  readonly yPriceFeed: PublicKey;
}

export function decodeObricV2Pool(account: AccountData): ObricV2Pool {
  expectAnchorAccount(account, PAIR_DISCRIMINATOR, PAIR_SIZE, "Obric V2 trading pair");
  const d = pairDecoder.decode(account.data);
  return {
    address: account.address,
    mintX: d.mintX,
    mintY: d.mintY,
    reserveX: d.reserveX,
    reserveY: d.reserveY,
    refOracle: d.refOracle,
    secondRefOracle: d.secondRefOracle,
    thirdRefOracle: d.thirdRefOracle,
    xPriceFeed: d.xPriceFeed,
    yPriceFeed: d.yPriceFeed,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None: the pair names every account the swap takes.

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: ObricV2Pool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  const xToY = swapsFromFirstMint([pool.mintX, pool.mintY], params);
  // The authority's two token accounts stay X-then-Y in both directions.
  const [accountX, accountY] = xToY ? [params.sourceTokenAccount, params.destinationTokenAccount] : [params.destinationTokenAccount, params.sourceTokenAccount];
  return {
    swap: { kind: "Obric", fields: { x_to_y: xToY } },
    accounts: [
      readonlyAccount(OBRIC_V2_PROGRAM_ID),
      writableAccount(pool.address),
      readonlyAccount(pool.secondRefOracle),
      readonlyAccount(pool.thirdRefOracle),
      writableAccount(pool.reserveX),
      writableAccount(pool.reserveY),
      writableAccount(accountX),
      writableAccount(accountY),
      writableAccount(pool.refOracle),
      readonlyAccount(pool.xPriceFeed),
      readonlyAccount(pool.yPriceFeed),
      // The swap authority: Jupiter signs for it (the user, or its program authority by seeds).
      readonlyAccount(params.tokenTransferAuthority),
      readonlyAccount(TOKEN_PROGRAM_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// None in code: the program quoter executes `build`'s step through Jupiter on the pair's and
// oracles' current data.

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Obric V2 (oracle-priced); ExactIn, quoted by executing its program. */
export const obricV2Adapter = defineAmmAdapter<ObricV2Pool>({
  programId: OBRIC_V2_PROGRAM_ID,
  label: "Obric V2",
  // Jupiter's exact-out routes do not execute an `Obric` step.
  supportsExactOut: false,
  // Its price fields change with every swap and oracle update.
  poolIsImmutable: false,
  decodePool: decodeObricV2Pool,
  poolMintLayout: {
    dataSize: PAIR_SIZE,
    mintOffsets: [fieldOffset(pairFields, "mintX"), fieldOffset(pairFields, "mintY")],
    discriminator: PAIR_DISCRIMINATOR,
  },
  mints: (pool) => [pool.mintX, pool.mintY],
  dependencies: () => [],
  build,
  quotedByProgram: true,
});
