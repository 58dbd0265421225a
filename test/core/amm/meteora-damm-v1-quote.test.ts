// The DAMM v1 quote against Meteora's own SDK (@meteora-ag/dynamic-amm-sdk `calculateSwapQuote`)
// on random pools: constant-product and stable curves (amp, token multipliers), trade and protocol
// fees, vaults with profit still locking (degradation since the last report), pool shares of the
// vaults, vault reserves smaller than the pool's amounts (tokens lent out). Vaults and pool are
// written by the SDK's Anchor coders; the SDK quotes from its own decoding, swapd's adapter from the
// same account bytes.
import { calculateSwapQuote, createProgram } from "@meteora-ag/dynamic-amm-sdk/dist/cjs/src/amm/utils.js";
import { BN } from "@coral-xyz/anchor";
import { MintLayout } from "@solana/spl-token";
import { Connection, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { METEORA_DAMM_V1_PROGRAM_ID, METEORA_VAULT_PROGRAM_ID, meteoraDammV1Adapter } from "../../../src/core/amm/meteora-damm-v1.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { mintAccountData } from "../../fixtures/mint-account.js";
import { key } from "../swap/fixtures.js";
import { encodeTokenAccount } from "../../../src/core/solana/token-accounts.js";

const { ammProgram, vaultProgram } = createProgram(new Connection("http://127.0.0.1:9") as any);
const MINT_A = key("damm v1 quote mint A");
const MINT_B = key("damm v1 quote mint B");
const POOL = key("damm v1 quote pool");
const CASES = 800;

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

/** Anchor 0.2x account: discriminator then the Borsh body (the SDK coder's fixed buffer is too small for a vault). */
function encodeAccount(coder: any, name: string, value: unknown): Uint8Array {
  const body = Buffer.alloc(4096);
  const length = coder.accounts.accountLayouts.get(name).encode(value, body);
  return Buffer.concat([coder.accounts.constructor.accountDiscriminator(name), body.subarray(0, length)]);
}

const account = (address: PublicKey, owner: PublicKey, data: Uint8Array): AccountData => ({ address, owner, lamports: 1n, data, executable: false });
const bn = (x: bigint | number) => new BN(x.toString());

function randomCase(r: Random, now: bigint) {
  const accounts = new Map<string, AccountData | null>();
  const vaults: { vault: PublicKey; vaultLp: PublicKey }[] = [];
  for (const [tokenMint, side] of [
    [MINT_A, "a"],
    [MINT_B, "b"],
  ] as const) {
    const vault = key(`damm v1 quote vault ${side}`);
    const tokenVault = key(`damm v1 quote token vault ${side}`);
    const lpMint = key(`damm v1 quote vault lp mint ${side}`);
    const vaultLp = key(`damm v1 quote pool vault lp ${side}`);
    const total = r.magnitude(6, 15);
    const lpSupply = (total * BigInt(r.int(500, 1500))) / 1000n + 1n;
    const locked = r.next() < 0.5 ? (total * BigInt(r.int(0, 300))) / 1000n : 0n;
    accounts.set(
      vault.toBase58(),
      account(
        vault,
        METEORA_VAULT_PROGRAM_ID,
        encodeAccount(vaultProgram.coder, "vault", {
          enabled: 1,
          bumps: { vaultBump: 255, tokenVaultBump: 255 },
          totalAmount: bn(total),
          tokenVault,
          feeVault: key(`fee ${side}`),
          tokenMint,
          lpMint,
          strategies: new Array(30).fill(PublicKey.default),
          base: PublicKey.default,
          admin: PublicKey.default,
          operator: PublicKey.default,
          lockedProfitTracker: {
            lastUpdatedLockedProfit: bn(locked),
            lastReport: bn(now - BigInt(r.int(0, 20_000))),
            lockedProfitDegradation: bn(r.next() < 0.5 ? 0 : r.int(1, 200_000_000)),
          },
        }),
      ),
    );
    accounts.set(lpMint.toBase58(), account(lpMint, TOKEN_PROGRAM_ID, mintAccountData(9, vault, lpSupply)));
    // The pool holds most of the vault's LP; the vault keeps part of its tokens itself (the rest is lent out).
    const poolLp = (lpSupply * BigInt(r.int(100, 1000))) / 1000n;
    accounts.set(vaultLp.toBase58(), account(vaultLp, TOKEN_PROGRAM_ID, encodeTokenAccount(lpMint, POOL, poolLp, null)));
    accounts.set(
      tokenVault.toBase58(),
      account(tokenVault, TOKEN_PROGRAM_ID, encodeTokenAccount(tokenMint, vault, (total * BigInt(r.int(50, 1000))) / 1000n, null)),
    );
    vaults.push({ vault, vaultLp });
  }
  const stable = r.next() < 0.4;
  const [multiplierA, multiplierB] = r.next() < 0.5 ? [1, 1000] : [1, 1];
  const pool = encodeAccount(ammProgram.coder, "pool", {
    lpMint: key("damm v1 quote lp"),
    tokenAMint: MINT_A,
    tokenBMint: MINT_B,
    aVault: vaults[0].vault,
    bVault: vaults[1].vault,
    aVaultLp: vaults[0].vaultLp,
    bVaultLp: vaults[1].vaultLp,
    aVaultLpBump: 254,
    enabled: true,
    protocolTokenAFee: key("pa"),
    protocolTokenBFee: key("pb"),
    feeLastUpdatedAt: new BN(0),
    padding0: new Array(24).fill(0),
    fees: {
      tradeFeeNumerator: bn(r.int(0, 1000)),
      tradeFeeDenominator: bn(100_000),
      protocolTradeFeeNumerator: bn(r.int(0, 50)),
      protocolTradeFeeDenominator: bn(100),
    },
    poolType: { permissionless: {} },
    stake: PublicKey.default,
    totalLockedLp: new BN(0),
    bootstrapping: {
      activationPoint: bn(now - BigInt(r.int(0, 1000))),
      whitelistedVault: PublicKey.default,
      poolCreator: PublicKey.default,
      activationType: 1,
    },
    partnerInfo: { feeNumerator: new BN(0), partnerAuthority: PublicKey.default, pendingFeeA: new BN(0), pendingFeeB: new BN(0) },
    padding: { padding0: new Array(6).fill(0), padding1: new Array(21).fill(new BN(0)), padding2: new Array(21).fill(new BN(0)) },
    curveType: stable
      ? {
          stable: {
            amp: bn(r.int(1, 2000)),
            tokenMultiplier: { tokenAMultiplier: bn(multiplierA), tokenBMultiplier: bn(multiplierB), precisionFactor: 9 },
            depeg: { baseVirtualPrice: new BN(0), baseCacheUpdated: new BN(0), depegType: { none: {} } },
            lastAmpUpdatedTimestamp: new BN(0),
          },
        }
      : { constantProduct: {} },
    padding1: new Array(19).fill(0),
  });
  const data = new Uint8Array(944);
  data.set(pool.subarray(0, 944));
  accounts.set(POOL.toBase58(), account(POOL, METEORA_DAMM_V1_PROGRAM_ID, data));
  const aToB = r.next() < 0.5;
  return { accounts, aToB, amount: r.magnitude(1, 13), stable };
}

function sdkQuote(c: ReturnType<typeof randomCase>, now: bigint): bigint | "refused" {
  const raw = (k: PublicKey) => Buffer.from(c.accounts.get(k.toBase58())!.data);
  const poolState = ammProgram.coder.accounts.decode("pool", raw(POOL));
  const vaultA = vaultProgram.coder.accounts.decode("vault", raw(poolState.aVault));
  const vaultB = vaultProgram.coder.accounts.decode("vault", raw(poolState.bVault));
  const amount = (k: PublicKey) => new BN(raw(k).readBigUInt64LE(64).toString());
  try {
    const q = calculateSwapQuote(c.aToB ? MINT_A : MINT_B, bn(c.amount), {
      poolState,
      vaultA,
      vaultB,
      vaultALpSupply: new BN(MintLayout.decode(raw(vaultA.lpMint)).supply.toString()),
      vaultBLpSupply: new BN(MintLayout.decode(raw(vaultB.lpMint)).supply.toString()),
      poolVaultALp: amount(poolState.aVaultLp),
      poolVaultBLp: amount(poolState.bVaultLp),
      vaultAReserve: amount(vaultA.tokenVault),
      vaultBReserve: amount(vaultB.tokenVault),
      currentTime: Number(now),
      currentSlot: 0,
      depegAccounts: new Map(),
    });
    return BigInt(q.amountOut.toString());
  } catch {
    // The SDK throws where the swap cannot be made (zero output, beyond the vault's reserve).
    return "refused";
  }
}

describe("Meteora DAMM v1 quote math equals @meteora-ag/dynamic-amm-sdk", () => {
  it(`${CASES} random pools and vaults, both curves, both directions`, () => {
    const r = random(11);
    const now = 1_767_360_940n;
    const seen = { stable: 0, paid: 0, refused: 0 };
    for (let i = 0; i < CASES; i++) {
      const c = randomCase(r, now);
      const pool = meteoraDammV1Adapter.decodePool(c.accounts.get(POOL.toBase58())!);
      const params = { amount: c.amount, swapMode: "ExactIn" as const, aToB: c.aToB };
      expect(meteoraDammV1Adapter.quoteAccounts!(pool, params, c.accounts)).toEqual([]);
      const quote = meteoraDammV1Adapter.quote!(pool, params, c.accounts, { slot: 0n, unixTimestamp: now });
      const expected = sdkQuote(c, now);
      const label = `case ${i}: ${c.stable ? "stable" : "constant product"} ${c.amount} ${c.aToB ? "A→B" : "B→A"}`;
      if (expected === "refused" || expected <= 0n) {
        expect(quote.complete, label).toBe(false);
        seen.refused++;
        continue;
      }
      expect({ out: quote.outAmount, complete: quote.complete }, label).toEqual({ out: expected, complete: true });
      seen.paid++;
      if (c.stable) seen.stable++;
    }
    expect(seen.paid).toBeGreaterThan(CASES / 2);
    expect(seen.stable).toBeGreaterThan(CASES / 5);
    expect(seen.refused).toBeGreaterThan(10);
  });
});
