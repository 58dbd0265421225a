// The PumpSwap quote against @pump-fun/pump-swap-sdk's own math (`sellBaseInput`, `buyQuoteInput`)
// on random pools: reserves, LP / protocol / coin-creator fees from the global config, from the pump
// fee program's flat fees or from its market-cap tiers (pools pump.fun migrated), with and without a
// coin creator. Every account is written by the SDK's Anchor coder or spl-token's layouts, read back
// by the SDK for its quote and by swapd's adapter for ours.
import { BN } from "@coral-xyz/anchor";
import { MintLayout } from "@solana/spl-token";
import { buyQuoteInput, pumpPoolAuthorityPda, sellBaseInput } from "@pump-fun/pump-swap-sdk";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { PUMP_FEE_PROGRAM_ID, PUMP_SWAP_GLOBAL_CONFIG, PUMP_SWAP_PROGRAM_ID, pumpSwapAdapter } from "../../../src/core/amm/pump-swap.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { mintAccountData } from "../../fixtures/mint-account.js";
import { key } from "../swap/fixtures.js";
import { BASE, POOL, POOL_BASE, POOL_QUOTE, QUOTE, program } from "./pump-swap-fixtures.js";
import { encodeAnchorAccount, zeroOf } from "./spl-account-fixtures.js";
import { encodeTokenAccount } from "../../../src/core/solana/token-accounts.js";

const FEE_CONFIG = PublicKey.findProgramAddressSync([Buffer.from("fee_config"), PUMP_SWAP_PROGRAM_ID.toBuffer()], PUMP_FEE_PROGRAM_ID)[0];
const CASES = 600;

function random(seed: number) {
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const magnitude = (low: number, high: number) => BigInt(Math.floor(10 ** (low + next() * (high - low))));
  return { next, int, magnitude };
}
type Random = ReturnType<typeof random>;

const account = (address: PublicKey, owner: PublicKey, data: Uint8Array): AccountData => ({ address, owner, lamports: 1n, data, executable: false });
const fees = (r: Random) => ({ lpFeeBps: new BN(r.int(0, 100)), protocolFeeBps: new BN(r.int(0, 100)), creatorFeeBps: new BN(r.int(0, 100)) });

function randomCase(r: Random) {
  const global = zeroOf({ defined: { name: "globalConfig" } }, program.idl.types, BN);
  Object.assign(global, {
    lpFeeBasisPoints: new BN(r.int(0, 100)),
    protocolFeeBasisPoints: new BN(r.int(0, 100)),
    coinCreatorFeeBasisPoints: new BN(r.int(0, 100)),
    protocolFeeRecipients: Array.from({ length: 8 }, (_, i) => key(`pump quote recipient ${i}`)),
  });
  // The global config's fees (no fee config), the fee config's flat fees (a pool pump.fun did not
  // migrate), its market-cap tiers (one it did).
  const feeConfigKind = r.int(0, 2);
  let feeConfig: any = null;
  if (feeConfigKind > 0) {
    let threshold = 0n;
    const tiers = Array.from({ length: r.int(1, 5) }, () => {
      threshold += r.magnitude(8, 13);
      return { marketCapLamportsThreshold: new BN(threshold.toString()), fees: fees(r) };
    });
    feeConfig = { bump: 255, admin: key("pump fee admin"), flatFees: fees(r), feeTiers: tiers };
  }
  const pumpPool = feeConfigKind === 2 || (feeConfigKind === 0 && r.next() < 0.5);
  const pool = zeroOf({ defined: { name: "pool" } }, program.idl.types, BN);
  Object.assign(pool, {
    poolBump: 255,
    creator: pumpPool ? pumpPoolAuthorityPda(BASE) : key("pump quote other creator"),
    baseMint: BASE,
    quoteMint: QUOTE,
    lpMint: key("pump quote lp"),
    poolBaseTokenAccount: POOL_BASE,
    poolQuoteTokenAccount: POOL_QUOTE,
    lpSupply: new BN(1),
    coinCreator: r.next() < 0.8 ? key("pump quote coin creator") : PublicKey.default,
  });
  const poolData = new Uint8Array(300);
  poolData.set(encodeAnchorAccount(program.coder, "pool", pool).subarray(0, 300));
  const supply = r.magnitude(9, 18);
  const baseReserve = r.magnitude(6, 17);
  const quoteReserve = r.magnitude(6, 14);
  const accounts = new Map<string, AccountData | null>([
    [POOL.toBase58(), account(POOL, PUMP_SWAP_PROGRAM_ID, poolData)],
    [PUMP_SWAP_GLOBAL_CONFIG.toBase58(), account(PUMP_SWAP_GLOBAL_CONFIG, PUMP_SWAP_PROGRAM_ID, encodeAnchorAccount(program.coder, "globalConfig", global))],
    [FEE_CONFIG.toBase58(), feeConfig ? account(FEE_CONFIG, PUMP_FEE_PROGRAM_ID, encodeAnchorAccount(program.coder, "feeConfig", feeConfig)) : null],
    [BASE.toBase58(), account(BASE, TOKEN_PROGRAM_ID, mintAccountData(6, null, supply))],
    [POOL_BASE.toBase58(), account(POOL_BASE, TOKEN_PROGRAM_ID, encodeTokenAccount(BASE, POOL, baseReserve, null))],
    [POOL_QUOTE.toBase58(), account(POOL_QUOTE, TOKEN_PROGRAM_ID, encodeTokenAccount(QUOTE, POOL, quoteReserve, null))],
  ]);
  const sells = r.next() < 0.5;
  return { accounts, sells, amount: sells ? r.magnitude(0, 16) : r.magnitude(0, 13), feeConfigKind, pumpPool };
}

/** The SDK's quote from the same accounts, decoded by the SDK's coder. */
function sdkQuote(c: ReturnType<typeof randomCase>) {
  const read = (k: PublicKey) => Buffer.from(c.accounts.get(k.toBase58())!.data);
  const pool = program.coder.accounts.decode("pool", read(POOL));
  const feeAccount = c.accounts.get(FEE_CONFIG.toBase58());
  const common = {
    slippage: 0,
    baseReserve: new BN(tokenAmount(read(POOL_BASE)).toString()),
    quoteReserve: new BN(tokenAmount(read(POOL_QUOTE)).toString()),
    globalConfig: program.coder.accounts.decode("globalConfig", read(PUMP_SWAP_GLOBAL_CONFIG)),
    baseMintAccount: MintLayout.decode(read(BASE)),
    baseMint: BASE,
    coinCreator: pool.coinCreator,
    creator: pool.creator,
    feeConfig: feeAccount ? program.coder.accounts.decode("feeConfig", Buffer.from(feeAccount.data)) : null,
  };
  const amount = new BN(c.amount.toString());
  if (c.sells) {
    let q: ReturnType<typeof sellBaseInput>;
    try {
      q = sellBaseInput({ ...common, base: amount });
    } catch (error) {
      // Dust: the fees (each rounded up) exceed what the curve pays; nothing to quote.
      if (/Fees exceed total output/.test(String(error))) return { outAmount: 0n, feeAmount: 0n };
      throw error;
    }
    return { outAmount: BigInt(q.uiQuote.toString()), feeAmount: BigInt(q.internalQuoteAmountOut.sub(q.uiQuote).toString()) };
  }
  const q = buyQuoteInput({ ...common, quote: amount });
  return { outAmount: BigInt(q.base.toString()), feeAmount: c.amount - BigInt(q.internalQuoteWithoutFees.toString()) };
}

function tokenAmount(data: Buffer): bigint {
  return data.readBigUInt64LE(64);
}

describe("PumpSwap quote math equals @pump-fun/pump-swap-sdk", () => {
  it(`${CASES} random pools, fee sources and amounts, buys and sells`, () => {
    const r = random(4242);
    const seen = { kinds: new Set<number>(), tiered: 0, paid: 0 };
    for (let i = 0; i < CASES; i++) {
      const c = randomCase(r);
      const pool = pumpSwapAdapter.decodePool(c.accounts.get(POOL.toBase58())!);
      const params = { amount: c.amount, swapMode: "ExactIn" as const, aToB: c.sells };
      expect(pumpSwapAdapter.quoteAccounts!(pool, params, c.accounts)).toEqual([]);
      const ours = pumpSwapAdapter.quote!(pool, params, c.accounts, { slot: 1n, unixTimestamp: 1n });
      const expected = sdkQuote(c);
      const label = `case ${i}: ${c.sells ? "sell" : "buy"} ${c.amount}`;
      if (expected.outAmount <= 0n) {
        expect(ours.complete, label).toBe(false);
        continue;
      }
      expect(ours, label).toEqual({ inAmount: c.amount, ...expected, feeMint: QUOTE, complete: true });
      seen.kinds.add(c.feeConfigKind);
      if (c.feeConfigKind === 2) seen.tiered++;
      seen.paid++;
    }
    expect([...seen.kinds].sort()).toEqual([0, 1, 2]);
    expect(seen.tiered).toBeGreaterThan(CASES / 10);
    expect(seen.paid).toBeGreaterThan(CASES / 2);
  });

  it("no quote while the global config names buyback fee recipients (the steps would be refused), nor ExactOut", () => {
    const c = randomCase(random(1));
    const pool = pumpSwapAdapter.decodePool(c.accounts.get(POOL.toBase58())!);
    const params = { amount: 1_000_000n, swapMode: "ExactIn" as const, aToB: true };
    const config = c.accounts.get(PUMP_SWAP_GLOBAL_CONFIG.toBase58())!;
    const withBuyback = new Uint8Array(Math.max(config.data.length, 643 + 8 * 32));
    withBuyback.set(config.data);
    withBuyback.set(key("pump quote buyback recipient").toBytes(), 643);
    const accounts = new Map(c.accounts).set(PUMP_SWAP_GLOBAL_CONFIG.toBase58(), { ...config, data: withBuyback });
    expect(pumpSwapAdapter.quote!(pool, params, accounts, { slot: 1n, unixTimestamp: 1n })).toMatchObject({
      complete: false,
      reason: expect.stringMatching(/buyback/),
    });
    expect(pumpSwapAdapter.quote!(pool, { ...params, swapMode: "ExactOut" }, c.accounts, { slot: 1n, unixTimestamp: 1n }).complete).toBe(false);
  });
});
