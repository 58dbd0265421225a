/**
 * The bench chain's pools, one per supported AMM, in each program's own account layout, so that
 * SwapInstructions (which reads pools, never executes them) runs on a fresh machine without the
 * programs' binaries:
 * - real mainnet accounts, loaded as snapshots: Whirlpool SOL/USDC and SAMO/USDC with the USDC and
 *   SAMO mints (`bench/fixtures/accounts/`, see SOURCES.md there), Meteora DAMM v2 SOL/USDC with its
 *   vaults (the test fixtures' snapshot), and a Meteora DLMM pair (the carbon decoder fixture);
 * - written here with the AMMs' own SDK layouts and coders (independent of swapd's decoders):
 *   Raydium CLMM, Raydium AMM v4 with its OpenBook market, Meteora DAMM v1 with its two dynamic
 *   vaults, a PumpSwap pool (token / SOL) with its global config (the mainnet one names buyback fee
 *   recipients, which Jupiter's PumpSwap step cannot carry);
 * - Raydium CP: the demo pool `seedDemo` writes.
 * What swapd reads to build a swap is written (pools, what adapters derive from them: markets,
 * vaults, mints) and, for the SOL/USDC pools of Raydium CLMM, AMM v4 and Meteora DAMM v1, what their
 * quotes read too (tick arrays and amm config, vault balances and the swap fee, vault LP supply), at
 * 150 USDC per SOL, so that `npm run bench:venues` routes through them.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import BN from "bn.js";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { ClmmConfigLayout, MARKET_STATE_LAYOUT_V3, getLiquidityAssociatedAuthority, liquidityStateV4Layout } from "@raydium-io/raydium-sdk-v2";
import { OFFLINE_PUMP_AMM_PROGRAM } from "@pump-fun/pump-swap-sdk";
import { METEORA_DAMM_V1_PROGRAM_ID, METEORA_VAULT_PROGRAM_ID } from "../src/core/amm/meteora-damm-v1.js";
import { PUMP_SWAP_GLOBAL_CONFIG, PUMP_SWAP_PROGRAM_ID } from "../src/core/amm/pump-swap.js";
import { RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_AMM_V4_PROGRAM_ID } from "../src/core/amm/raydium-amm-v4.js";
import { RAYDIUM_CLMM_PROGRAM_ID } from "../src/core/amm/raydium-clmm.js";
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "../src/core/solana/programs.js";
import type { Localnet } from "../src/localnet/start-localnet.js";
import { raydiumClmmPoolAccounts } from "../test/fixtures/raydium-clmm-pool.js";
import { encodeTokenAccount } from "../src/core/solana/token-accounts.js";
import { encodeMintAccount } from "../src/core/solana/token-accounts.js";

const require = createRequire(import.meta.url);
// Not re-exported by the SDK's index: its Serum vault-signer search (nonce 0..99).
const { getSerumAssociatedAuthority } = require("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/serum.js");
const { createProgram: createDammV1Programs } = require("@meteora-ag/dynamic-amm-sdk/dist/cjs/src/amm/utils.js");
const { getVaultPdas } = require("@meteora-ag/vault-sdk/dist/cjs/src/vault/utils/index.js");

/** Snapshot folders the bench chain loads (`solana account --output json` files). */
export const BENCH_ACCOUNTS_DIRS = [
  fileURLToPath(new URL("./fixtures/accounts/", import.meta.url)),
  fileURLToPath(new URL("../test/fixtures/reference/fixtures/meteora-damm-v2/", import.meta.url)),
];
const DLMM_PAIR_FIXTURE = fileURLToPath(new URL("../test/fixtures/reference/fixtures/carbon/meteora-dlmm-decoder/lb_pair_account.json", import.meta.url));

export const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
export const SAMO = new PublicKey("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
const OPENBOOK_V1 = new PublicKey("srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX");

/** A deterministic address for an account that only has to exist under that name. */
function key(label: string): PublicKey {
  return Keypair.fromSeed(createHash("sha256").update(`swapd bench ${label}`).digest()).publicKey;
}

/** The pool addresses (`ammKey`) of every bench route. */
export const BENCH_POOLS = {
  whirlpoolSolUsdc: new PublicKey("HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ"),
  whirlpoolSamoUsdc: new PublicKey("9vqYJjDUFecLL2xPUC4Rc7hyCtZ6iJ4mDiVZX7aFXoAe"),
  meteoraDammV2SolUsdc: new PublicKey("8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie"),
  /** Real mainnet pair (carbon fixture): a pump.fun token against SOL. */
  meteoraDlmmPair: new PublicKey("FwwjuDSCZGRqB4ngwZd4zqjvLdbykU7PQaFTzocSAxmt"),
  raydiumClmmSolUsdc: PublicKey.findProgramAddressSync(
    [Buffer.from("pool"), key("clmm amm config").toBuffer(), ...orderedMints(NATIVE_MINT, USDC).map((m) => m.toBuffer())],
    RAYDIUM_CLMM_PROGRAM_ID,
  )[0],
  raydiumAmmV4SolUsdc: key("amm v4 pool"),
  meteoraDammV1SolUsdc: key("damm v1 pool"),
  pumpSwapTokenSol: key("pump swap pool"),
} as const;

/** The PumpSwap pool's base token (quote: SOL). */
export const PUMP_SWAP_TOKEN = key("pump swap token");

/** The DLMM pair's mints (X = the pump.fun token, Y = SOL), as the real account records them. */
export const DLMM_PAIR_TOKEN = new PublicKey("FzytSxQv6nBgH3dByVJtgMVg6rANTZaZPzU6dcRbpump");

function orderedMints(x: PublicKey, y: PublicKey): [PublicKey, PublicKey] {
  return Buffer.compare(x.toBuffer(), y.toBuffer()) < 0 ? [x, y] : [y, x];
}

interface SeedAccount {
  readonly address: PublicKey;
  readonly owner: PublicKey;
  readonly data: Uint8Array;
}

function mintAccount(address: PublicKey, decimals: number, supply = 0n): SeedAccount {
  const data = encodeMintAccount(decimals, null, supply);
  return { address, owner: TOKEN_PROGRAM_ID, data };
}

function tokenAccount(address: PublicKey, mint: PublicKey, owner: PublicKey, amount: bigint): SeedAccount {
  const data = encodeTokenAccount(mint, owner, amount, null);
  return { address, owner: TOKEN_PROGRAM_ID, data };
}

/** A buffer-layout value encoded from its all-zero decoding with `change` applied. */
function encodeLayout(layout: { span: number; decode(b: Buffer): any; encode(v: any, b: Buffer): number }, change: (value: any) => void): Buffer {
  const buffer = Buffer.alloc(layout.span);
  const value = layout.decode(buffer);
  change(value);
  layout.encode(value, buffer);
  return buffer;
}

// ── Raydium CLMM ──────────────────────────────────────────────────────────────────────────────

const CLMM_TICK_SPACING = 60;
const CLMM_AMM_CONFIG = key("clmm amm config");
const CLMM_CONFIG_DISCRIMINATOR = [218, 244, 33, 104, 203, 203, 43, 111];
/** Trade fee of the config, in millionths (0.25 %, mainnet's config for tick spacing 60). */
const CLMM_TRADE_FEE_RATE = 2_500;

/**
 * SOL/USDC at 150 USDC per SOL: a wide position (±12 % around the price) and a narrow one (±1.2 %),
 * with the pool's vaults, observation, tick arrays and bitmap (test/fixtures/raydium-clmm-pool.ts,
 * the SDK's layouts) and its amm config (the SDK's `ClmmConfigLayout`): all a quote reads.
 */
function raydiumClmmPool(): SeedAccount[] {
  const [mint0, mint1] = orderedMints(NATIVE_MINT, USDC);
  const solIs0 = mint0.equals(NATIVE_MINT);
  // Raw price of mint1 in mint0 units: 150 USDC (6 decimals) per SOL (9 decimals), or its inverse.
  const rawPrice = solIs0 ? 150e6 / 1e9 : 1e9 / 150e6;
  const tickCurrent = Math.floor(Math.log(rawPrice) / Math.log(1.0001));
  const around = (ticks: number) => ({
    lower: (Math.floor(tickCurrent / CLMM_TICK_SPACING) - ticks / CLMM_TICK_SPACING) * CLMM_TICK_SPACING,
    upper: (Math.ceil(tickCurrent / CLMM_TICK_SPACING) + ticks / CLMM_TICK_SPACING) * CLMM_TICK_SPACING,
  });
  const accounts = raydiumClmmPoolAccounts({
    ammConfig: CLMM_AMM_CONFIG,
    tickSpacing: CLMM_TICK_SPACING,
    mint0,
    mint1,
    decimals: solIs0 ? [9, 6] : [6, 9],
    tickCurrent,
    positions: [
      { ...around(1_200), liquidity: 1_000_000_000_000n },
      { ...around(120), liquidity: 5_000_000_000_000n },
    ],
    vaultAmounts: solIs0 ? [10_000n * 10n ** 9n, 1_500_000n * 10n ** 6n] : [1_500_000n * 10n ** 6n, 10_000n * 10n ** 9n],
  });
  const config = encodeLayout(ClmmConfigLayout, (v) => {
    v.owner = key("clmm admin");
    v.tickSpacing = CLMM_TICK_SPACING;
    v.tradeFeeRate = CLMM_TRADE_FEE_RATE;
    v.protocolFeeRate = 120_000;
    v.fundFeeRate = 40_000;
    v.fundOwner = key("clmm fund owner");
  });
  config.set(CLMM_CONFIG_DISCRIMINATOR, 0);
  return [
    ...accounts.all.map((a) => ({ address: a.address, owner: a.owner, data: a.data })),
    { address: CLMM_AMM_CONFIG, owner: RAYDIUM_CLMM_PROGRAM_ID, data: config },
  ];
}

// ── Raydium AMM v4 ────────────────────────────────────────────────────────────────────────────

/** The AMM v4 pool's vault balances: 150 USDC per SOL. */
const AMM_V4_RESERVES = { sol: 2_000n * 10n ** 9n, usdc: 300_000n * 10n ** 6n };

/** SOL/USDC AMM v4 pool (status 6 = swap only), its OpenBook v1 market and its vaults, with the SDK's layouts. */
function raydiumAmmV4Pool(): SeedAccount[] {
  const market = key("amm v4 market");
  const pool = encodeLayout(liquidityStateV4Layout, (v) => {
    v.status = new BN(6);
    v.nonce = new BN(getLiquidityAssociatedAuthority({ programId: RAYDIUM_AMM_V4_PROGRAM_ID }).nonce);
    v.baseDecimal = new BN(9);
    v.quoteDecimal = new BN(6);
    // The swap fee a SwapOnly pool charges (mainnet's 0.25 %); the trade fee and PnL ratio are the order book's.
    v.swapFeeNumerator = new BN(25);
    v.swapFeeDenominator = new BN(10_000);
    v.tradeFeeNumerator = new BN(25);
    v.tradeFeeDenominator = new BN(10_000);
    v.pnlNumerator = new BN(12);
    v.pnlDenominator = new BN(100);
    v.lpReserve = new BN(AMM_V4_RESERVES.sol.toString());
    v.baseVault = key("amm v4 base vault");
    v.quoteVault = key("amm v4 quote vault");
    v.baseMint = NATIVE_MINT;
    v.quoteMint = USDC;
    v.lpMint = key("amm v4 lp mint");
    v.openOrders = key("amm v4 open orders");
    v.marketId = market;
    v.marketProgramId = OPENBOOK_V1;
    v.targetOrders = key("amm v4 target orders");
    v.withdrawQueue = PublicKey.default;
    v.lpVault = PublicKey.default;
    v.owner = PublicKey.default;
  });
  const marketData = encodeLayout(MARKET_STATE_LAYOUT_V3, (v) => {
    v.accountFlags = new BN(3);
    v.ownAddress = market;
    v.vaultSignerNonce = new BN(getSerumAssociatedAuthority({ programId: OPENBOOK_V1, marketId: market }).nonce);
    v.baseMint = NATIVE_MINT;
    v.quoteMint = USDC;
    v.baseVault = key("amm v4 market base vault");
    v.quoteVault = key("amm v4 market quote vault");
    v.requestQueue = key("amm v4 request queue");
    v.eventQueue = key("amm v4 event queue");
    v.bids = key("amm v4 bids");
    v.asks = key("amm v4 asks");
  });
  return [
    { address: BENCH_POOLS.raydiumAmmV4SolUsdc, owner: RAYDIUM_AMM_V4_PROGRAM_ID, data: pool },
    { address: market, owner: OPENBOOK_V1, data: marketData },
    tokenAccount(key("amm v4 base vault"), NATIVE_MINT, RAYDIUM_AMM_V4_AUTHORITY, AMM_V4_RESERVES.sol),
    tokenAccount(key("amm v4 quote vault"), USDC, RAYDIUM_AMM_V4_AUTHORITY, AMM_V4_RESERVES.usdc),
  ];
}

// ── Meteora DAMM v1 ───────────────────────────────────────────────────────────────────────────

/** An account in an Anchor 0.2x coder's layout: discriminator, then the Borsh body, zero-padded to `size`. */
function encodeAnchorAccount(coder: any, name: string, value: unknown, size = 0): Uint8Array {
  const layout = coder.accounts.accountLayouts.get(name);
  const body = Buffer.alloc(4096);
  const length = layout.encode(value, body);
  const encoded = Buffer.concat([coder.accounts.constructor.accountDiscriminator(name), body.subarray(0, length)]);
  return encoded.length >= size ? encoded : Buffer.concat([encoded, Buffer.alloc(size - encoded.length)]);
}

/**
 * What the program allocates for every pool, whatever its curve: room for the largest (Stable). A
 * constant-product pool's Borsh encoding is shorter; discovery finds pools by this size.
 */
const DAMM_V1_POOL_SIZE = 944;

/** SOL/USDC constant-product pool over two dynamic vaults, with the SDK's Anchor coders. */
function meteoraDammV1Pool(): SeedAccount[] {
  const { ammProgram, vaultProgram } = createDammV1Programs(new Connection("http://127.0.0.1:9")); // builds coders only; no RPC is made;
  const pool = BENCH_POOLS.meteoraDammV1SolUsdc;
  const out: SeedAccount[] = [];
  const vaults: { vault: PublicKey; vaultLp: PublicKey }[] = [];
  for (const [tokenMint, reserve, side] of [
    [NATIVE_MINT, 1_000n * 10n ** 9n, "a"],
    [USDC, 150_000n * 10n ** 6n, "b"],
  ] as const) {
    const { vaultPda, tokenVaultPda, lpMintPda } = getVaultPdas(tokenMint, METEORA_VAULT_PROGRAM_ID);
    out.push({
      address: vaultPda,
      owner: METEORA_VAULT_PROGRAM_ID,
      data: encodeAnchorAccount(vaultProgram.coder, "vault", {
        enabled: 1,
        bumps: { vaultBump: 255, tokenVaultBump: 255 },
        totalAmount: new BN(reserve.toString()),
        tokenVault: tokenVaultPda,
        feeVault: key(`damm v1 fee vault ${side}`),
        tokenMint,
        lpMint: lpMintPda,
        strategies: new Array(30).fill(PublicKey.default),
        base: key("damm v1 vault base"),
        admin: key("damm v1 admin"),
        operator: key("damm v1 operator"),
        lockedProfitTracker: { lastUpdatedLockedProfit: new BN(0), lastReport: new BN(0), lockedProfitDegradation: new BN(0) },
      }),
    });
    const vaultLp = key(`damm v1 vault lp ${side}`);
    // The pool holds every vault LP token: its share of the vault is the whole reserve.
    out.push(tokenAccount(tokenVaultPda, tokenMint, vaultPda, reserve), tokenAccount(vaultLp, lpMintPda, pool, reserve), mintAccount(lpMintPda, 9, reserve));
    vaults.push({ vault: vaultPda, vaultLp });
  }
  out.push({
    address: pool,
    owner: METEORA_DAMM_V1_PROGRAM_ID,
    data: encodeAnchorAccount(
      ammProgram.coder,
      "pool",
      {
        lpMint: key("damm v1 lp mint"),
        tokenAMint: NATIVE_MINT,
        tokenBMint: USDC,
        aVault: vaults[0].vault,
        bVault: vaults[1].vault,
        aVaultLp: vaults[0].vaultLp,
        bVaultLp: vaults[1].vaultLp,
        aVaultLpBump: 254,
        enabled: true,
        protocolTokenAFee: key("damm v1 protocol fee a"),
        protocolTokenBFee: key("damm v1 protocol fee b"),
        feeLastUpdatedAt: new BN(0),
        padding0: new Array(24).fill(0),
        fees: {
          tradeFeeNumerator: new BN(25),
          tradeFeeDenominator: new BN(10_000),
          protocolTradeFeeNumerator: new BN(20),
          protocolTradeFeeDenominator: new BN(100),
        },
        poolType: { permissionless: {} },
        stake: PublicKey.default,
        totalLockedLp: new BN(0),
        bootstrapping: { activationPoint: new BN(0), whitelistedVault: PublicKey.default, poolCreator: PublicKey.default, activationType: 0 },
        partnerInfo: { feeNumerator: new BN(0), partnerAuthority: PublicKey.default, pendingFeeA: new BN(0), pendingFeeB: new BN(0) },
        padding: { padding0: new Array(6).fill(0), padding1: new Array(21).fill(new BN(0)), padding2: new Array(21).fill(new BN(0)) },
        curveType: { constantProduct: {} },
        padding1: new Array(19).fill(0),
      },
      DAMM_V1_POOL_SIZE,
    ),
  });
  return out;
}

// ── Meteora DLMM ──────────────────────────────────────────────────────────────────────────────

/** The real mainnet pair verbatim (its bitmap, bins and reserves as recorded), and its token's mint. */
function meteoraDlmmPair(): SeedAccount[] {
  const fixture = JSON.parse(readFileSync(DLMM_PAIR_FIXTURE, "utf8")) as { data: string; owner: string };
  return [
    { address: BENCH_POOLS.meteoraDlmmPair, owner: new PublicKey(fixture.owner), data: Buffer.from(fixture.data, "base64") },
    mintAccount(DLMM_PAIR_TOKEN, 6),
  ];
}

// ── PumpSwap ──────────────────────────────────────────────────────────────────────────────────

/** Size a pool must have been extended to before it trades (the program's `extend_account`). */
const PUMP_SWAP_POOL_SIZE = 300;

/** A token/SOL pool and the program's global config (eight protocol fee recipients), with the SDK's Anchor coder. */
async function pumpSwapPool(): Promise<SeedAccount[]> {
  const coder = (OFFLINE_PUMP_AMM_PROGRAM as any).coder;
  const config = coder.accounts.decodeUnchecked("globalConfig", Buffer.alloc(2_000)); // all zero
  Object.assign(config, {
    admin: key("pump swap admin"),
    lpFeeBasisPoints: new BN(20),
    protocolFeeBasisPoints: new BN(5),
    coinCreatorFeeBasisPoints: new BN(5),
    protocolFeeRecipients: Array.from({ length: 8 }, (_, i) => key(`pump swap protocol fee recipient ${i}`)),
    reservedFeeRecipient: key("pump swap reserved fee recipient"),
    reservedFeeRecipients: Array.from({ length: 7 }, (_, i) => key(`pump swap reserved fee recipient ${i}`)),
  });
  const configData: Buffer = await coder.accounts.encode("globalConfig", config);
  const value = coder.accounts.decodeUnchecked("pool", Buffer.alloc(PUMP_SWAP_POOL_SIZE)); // all zero
  Object.assign(value, {
    poolBump: 255,
    creator: key("pump swap creator"),
    baseMint: PUMP_SWAP_TOKEN,
    quoteMint: NATIVE_MINT,
    lpMint: key("pump swap lp mint"),
    poolBaseTokenAccount: key("pump swap base vault"),
    poolQuoteTokenAccount: key("pump swap quote vault"),
    lpSupply: new BN(1_000_000),
    coinCreator: key("pump swap coin creator"),
  });
  const encoded: Buffer = await coder.accounts.encode("pool", value);
  const data = new Uint8Array(PUMP_SWAP_POOL_SIZE);
  data.set(encoded.subarray(0, PUMP_SWAP_POOL_SIZE));
  return [
    { address: BENCH_POOLS.pumpSwapTokenSol, owner: PUMP_SWAP_PROGRAM_ID, data },
    { address: PUMP_SWAP_GLOBAL_CONFIG, owner: PUMP_SWAP_PROGRAM_ID, data: configData },
    mintAccount(PUMP_SWAP_TOKEN, 6),
  ];
}

/** Writes the written-in-layout pools (the snapshot ones come from `BENCH_ACCOUNTS_DIRS`). */
export async function seedBenchPools(localnet: Localnet): Promise<void> {
  for (const a of [...raydiumClmmPool(), ...raydiumAmmV4Pool(), ...meteoraDammV1Pool(), ...meteoraDlmmPair(), ...(await pumpSwapPool())]) {
    localnet.setAccount(a.address, { lamports: 10_000_000n, data: a.data, owner: a.owner });
  }
}
