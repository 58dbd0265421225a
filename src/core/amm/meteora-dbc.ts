import { BorshCoder } from "@coral-xyz/anchor";
import type { Idl } from "@coral-xyz/anchor";
// The IDL converted as anchor's Program converts it (camelCase names, as the SDK's math reads the accounts).
import { convertIdlToCamelCase } from "@coral-xyz/anchor/dist/cjs/idl.js";
import { DynamicBondingCurveIdl, swapQuote } from "@meteora-ag/dynamic-bonding-curve-sdk";
import type { PoolConfig, VirtualPool } from "@meteora-ag/dynamic-bonding-curve-sdk";
import { PublicKey } from "@solana/web3.js";
import BN from "bn.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { base58Of } from "../solana/base58-strings.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/**
 * Meteora Dynamic Bonding Curve (DBC): the launchpad where new tokens trade on a bonding curve until
 * they migrate to a DAMM pool. Quoted by the curve math Meteora publishes in
 * `@meteora-ag/dynamic-bonding-curve-sdk` (its `swapQuote`, the function its own clients quote
 * with), checked against the program by execution through Jupiter. Facts (the program's IDL in that
 * SDK; verified on Meteora's Mar-2026 build in the team's chain folder, `launchpads/`): the step is
 * `MeteoraDynamicBondingCurveSwap` (variant 78) with the program id and the accounts of the
 * program's `swap` instruction in the IDL's order.
 *
 * How a pool's mints and vaults are found: a pool (`VirtualPool`, 424 bytes) names its config at 72,
 * base mint at 136, base vault at 168 and quote vault at 200; its quote mint is not in the pool but
 * in its config. The quote vault is the program's address of ("token_vault", quote mint, pool), so
 * the quote mint is found from the pool alone by checking the quote mints launchpads use (below):
 * a pool of another quote mint is not decoded (an AmmError names it) and is skipped, never routed
 * through a wrong account. Pair discovery searches the base mint only (the one mint the pool holds).
 */
export const METEORA_DBC_PROGRAM_ID = new PublicKey("dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN");
/** The program's signer of every pool's vaults (address of "pool_authority"). */
const POOL_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from("pool_authority")], METEORA_DBC_PROGRAM_ID)[0];
/** Anchor's event authority of the program (address of "__event_authority"). */
const EVENT_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], METEORA_DBC_PROGRAM_ID)[0];

/** The quote mints a pool's quote vault is checked against (wSOL, USDC, USDT, USD1, JUP). */
const QUOTE_MINTS: readonly PublicKey[] = [
  "So11111111111111111111111111111111111111112",
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
  "USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB",
  "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN",
].map((m) => new PublicKey(m));

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

const POOL_SIZE = 424;
/** sha256("account:VirtualPool")[0..8] and sha256("account:PoolConfig")[0..8] (the IDL's discriminators). */
const POOL_DISCRIMINATOR = [213, 224, 5, 209, 98, 69, 119, 92];
const CONFIG_DISCRIMINATOR = [26, 108, 14, 123, 116, 230, 129, 43];
const CONFIG_OFFSET = 72;
const BASE_MINT_OFFSET = 136;
const BASE_VAULT_OFFSET = 168;
const QUOTE_VAULT_OFFSET = 200;

const coder = new BorshCoder(convertIdlToCamelCase(DynamicBondingCurveIdl as Idl));

const keyAt = (data: Uint8Array, offset: number) => new PublicKey(data.subarray(offset, offset + 32));

/** Each pool's quote mint by its quote vault (immutable: a PDA search of up to five mints, once per pool). */
const quoteMints = new BoundedLruMap<string, PublicKey | null>(16_384);

/** The quote mint whose vault address is `vault` for `pool`, if it is one of QUOTE_MINTS. */
function quoteMintOf(pool: PublicKey, vault: PublicKey): PublicKey | undefined {
  const found = quoteMints.getOrSet(
    `${base58Of(pool)} ${base58Of(vault)}`,
    () =>
      QUOTE_MINTS.find((mint) =>
        PublicKey.findProgramAddressSync([Buffer.from("token_vault"), mint.toBuffer(), pool.toBuffer()], METEORA_DBC_PROGRAM_ID)[0].equals(vault),
      ) ?? null,
  );
  return found ?? undefined;
}

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface MeteoraDbcPool {
  readonly address: PublicKey;
  readonly config: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
  /** The SDK's view of the account, as its math reads it. */
  readonly state: VirtualPool;
}

export function decodeMeteoraDbcPool(account: AccountData): MeteoraDbcPool {
  expectAnchorAccount(account, POOL_DISCRIMINATOR, POOL_SIZE, "Meteora DBC pool");
  const quoteVault = keyAt(account.data, QUOTE_VAULT_OFFSET);
  const quoteMint = quoteMintOf(account.address, quoteVault);
  if (!quoteMint) throw new AmmError(`Meteora DBC pool ${account.address.toBase58()}: its quote mint is none of the quote mints swapd checks`);
  const state = coder.accounts.decode<VirtualPool>("virtualPool", Buffer.from(account.data));
  return {
    address: account.address,
    config: keyAt(account.data, CONFIG_OFFSET),
    baseMint: keyAt(account.data, BASE_MINT_OFFSET),
    quoteMint,
    baseVault: keyAt(account.data, BASE_VAULT_OFFSET),
    quoteVault,
    state,
  };
}

/** Decoded configs by account version: route search quotes a pool at a dozen amounts per request. */
const decodedConfigs = new WeakMap<AccountData, PoolConfig>();

function decodeConfig(accounts: AccountMap, pool: MeteoraDbcPool): PoolConfig {
  const account = accounts.get(pool.config.toBase58());
  if (!account) throw new AmmError(`Meteora DBC config ${pool.config.toBase58()} not loaded`);
  let config = decodedConfigs.get(account);
  if (config === undefined) {
    expectAnchorAccount(account, CONFIG_DISCRIMINATOR, 8, "Meteora DBC config");
    config = coder.accounts.decode<PoolConfig>("poolConfig", Buffer.from(account.data));
    decodedConfigs.set(account, config);
  }
  return config;
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────

/** The pool's config: its curve, fees and token programs. */
const dependencies = (pool: MeteoraDbcPool): PublicKey[] => [pool.config];

function tokenPrograms(config: PoolConfig): [PublicKey, PublicKey] {
  return [config.tokenType === 1 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID, config.quoteTokenFlag === 1 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID];
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: MeteoraDbcPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  const [baseTokenProgram, quoteTokenProgram] = tokenPrograms(decodeConfig(accounts, pool));
  return {
    swap: { kind: "MeteoraDynamicBondingCurveSwap" },
    accounts: [
      readonlyAccount(METEORA_DBC_PROGRAM_ID),
      readonlyAccount(POOL_AUTHORITY),
      readonlyAccount(pool.config),
      writableAccount(pool.address),
      writableAccount(params.sourceTokenAccount),
      writableAccount(params.destinationTokenAccount),
      writableAccount(pool.baseVault),
      writableAccount(pool.quoteVault),
      readonlyAccount(pool.baseMint),
      readonlyAccount(pool.quoteMint),
      // The payer: Jupiter signs for the transfer authority.
      readonlyAccount(params.tokenTransferAuthority),
      readonlyAccount(baseTokenProgram),
      readonlyAccount(quoteTokenProgram),
      // No referral account: Anchor's None is the program id.
      readonlyAccount(METEORA_DBC_PROGRAM_ID),
      readonlyAccount(EVENT_AUTHORITY),
      readonlyAccount(METEORA_DBC_PROGRAM_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────

function quoteAccounts(pool: MeteoraDbcPool, _params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return accounts.has(pool.config.toBase58()) ? [] : [pool.config];
}

function quote(pool: MeteoraDbcPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const config = decodeConfig(accounts, pool);
  const state = pool.state.poolState;
  const feeMint = params.aToB ? pool.baseMint : pool.quoteMint;
  const none = (reason: string): PoolQuote => ({ inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  if (state.isMigrated !== 0) return none("the pool has migrated");
  if (state.quoteReserve.gte(config.migrationQuoteThreshold)) return none("the curve is complete (the pool awaits migration)");
  // The activation point is a slot or a time, as the config says.
  const currentPoint = new BN((config.activationType === 0 ? clock.slot : clock.unixTimestamp).toString());
  if (currentPoint.lt(state.activationPoint)) return none("the pool is not active yet");
  if (params.amount === 0n) return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: true };
  let result: ReturnType<typeof swapQuote>;
  try {
    result = swapQuote(pool.state, config, params.aToB, new BN(params.amount.toString()), 0, false, currentPoint, false);
  } catch (error) {
    // The SDK refuses what the program refuses (an amount past the curve's end, a zero output): no route through it.
    return none((error as Error).message);
  }
  const fee = BigInt(result.tradingFee.add(result.protocolFee).add(result.referralFee).toString());
  return { inAmount: params.amount, outAmount: BigInt(result.outputAmount.toString()), feeAmount: fee, feeMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Meteora Dynamic Bonding Curve (a launchpad's curve); ExactIn, quoted by Meteora's published math. */
export const meteoraDbcAdapter = defineAmmAdapter<MeteoraDbcPool>({
  programId: METEORA_DBC_PROGRAM_ID,
  label: "Dynamic Bonding Curve",
  supportsExactOut: false,
  poolIsImmutable: false,
  decodePool: decodeMeteoraDbcPool,
  // The pool holds its base mint only: discovery searches that one position.
  poolMintLayout: { dataSize: POOL_SIZE, mintOffsets: [BASE_MINT_OFFSET, undefined], discriminator: POOL_DISCRIMINATOR },
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies,
  build,
  quoteAccounts,
  quote,
});
