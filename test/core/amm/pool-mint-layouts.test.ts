// Pair discovery finds a pair's pools with getProgramAccounts filters on each adapter's
// `poolMintLayout` (size + two mint offsets, derived from the adapter's decoder). Here every AMM's
// layout is held to an independent encoding: the AMM's own SDK layout or Anchor coder writes a pool
// with two known mints (or a real mainnet pool holds them), and the filters must find them there.
import { CpmmPoolInfoLayout, PoolInfoLayout, liquidityStateV4Layout } from "@raydium-io/raydium-sdk-v2";
import { WhirlpoolContext } from "@orca-so/whirlpools-sdk";
import { createProgram as createDammV1Program } from "@meteora-ag/dynamic-amm-sdk/dist/cjs/src/amm/utils.js";
import { CpAmm } from "@meteora-ag/cp-amm-sdk";
import { DynamicBondingCurveIdl } from "@meteora-ag/dynamic-bonding-curve-sdk";
import { BN, BorshCoder, Wallet } from "@coral-xyz/anchor";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHAIN_DIR } from "../../fixtures/chain-dir.js";
import type { PoolMintLayout } from "../../../src/core/amm/adapter.js";
import { ammAdapters } from "../../../src/core/amm/registry.js";
import { POOL_MINT_LAYOUTS, maskedMint } from "../../../src/core/quote/pool-mint-offsets.js";
import { key } from "../swap/fixtures.js";
import { encodePair } from "./meteora-dlmm-fixtures.js";
import { BASE, QUOTE, poolData as pumpSwapPoolData } from "./pump-swap-fixtures.js";
import { carbonAccount, readReferenceJson } from "./reference-fixtures.js";
import { encodeAnchorAccount, zeroOf } from "./spl-account-fixtures.js";

const FIRST = key("layout test first mint");
const SECOND = key("layout test second mint");
const SOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const USDT = new PublicKey("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB");
const offline = new Connection("http://127.0.0.1:9");

/** A pool account's bytes and the mints it holds, as an independent source wrote them. */
interface Encoded {
  readonly data: Uint8Array;
  readonly mints: readonly [PublicKey, PublicKey];
}

/** A buffer-layout struct (Raydium's SDK) written with every field zero but the two mints. */
function raydiumLayout(layout: any, mintFields: readonly [string, string]): Encoded {
  const data = Buffer.alloc(layout.span);
  const value = Object.fromEntries(
    layout.fields.map((f: any) => [f.property, f.span === 32 && f.constructor.name !== "Blob" ? PublicKey.default : f.span > 8 ? undefined : new BN(0)]),
  );
  // Blobs and padding arrays encode from absent values as zeros in buffer-layout; the mints are set.
  value[mintFields[0]] = FIRST;
  value[mintFields[1]] = SECOND;
  layout.encode(value, data);
  return { data, mints: [FIRST, SECOND] };
}

function rawAccount(json: { account: { data: [string, string] } }): Uint8Array {
  return Uint8Array.from(Buffer.from(json.account.data[0], "base64"));
}

const sources: Record<string, () => Promise<Encoded[]> | Encoded[]> = {
  Whirlpool: async () => {
    // The real carbon fixture pool, re-encoded by the Orca SDK's Anchor coder with the two mints set.
    const coder = WhirlpoolContext.from(offline, new Wallet(Keypair.generate())).program.coder.accounts;
    const real = carbonAccount("orca-whirlpool-decoder/whirlpool_account.json", PublicKey.default);
    const decoded = coder.decode("whirlpool", Buffer.from(real.data));
    const encoded: Buffer = await coder.encode("whirlpool", { ...decoded, tokenMintA: FIRST, tokenMintB: SECOND });
    const data = Uint8Array.from(real.data);
    data.set(encoded.subarray(0, data.length));
    return [{ data, mints: [FIRST, SECOND] }];
  },
  "Raydium CP": () => [raydiumLayout(CpmmPoolInfoLayout, ["mintA", "mintB"])],
  "Raydium CLMM": () => {
    // The SDK's PoolInfoLayout starts at the discriminator (an 8-byte blob).
    return [raydiumLayout(PoolInfoLayout, ["mintA", "mintB"])];
  },
  Raydium: () => [raydiumLayout(liquidityStateV4Layout, ["baseMint", "quoteMint"])],
  "Meteora DLMM": async () => {
    const pair = await encodePair(PublicKey.unique(), { tokenXMint: FIRST, tokenYMint: SECOND });
    return [{ data: pair.data, mints: [FIRST, SECOND] }];
  },
  "Meteora DAMM v2": () => {
    const program = (new CpAmm(offline) as any)._program;
    const value = zeroOf({ defined: { name: "pool" } }, program.idl.types, BN);
    Object.assign(value, { tokenAMint: FIRST, tokenBMint: SECOND });
    const real = readReferenceJson<{ account: { data: [string, string] } }>("fixtures/meteora-damm-v2/8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie.json");
    // The SDK's coder, and the real mainnet SOL/USDC pool of Jan 2026.
    return [
      { data: encodeAnchorAccount(program.coder, "pool", value), mints: [FIRST, SECOND] },
      { data: rawAccount(real), mints: [SOL, USDC] },
    ];
  },
  Meteora: () => {
    // Pools are allocated for the largest curve: encoded here with a Stable curve (with depeg).
    const { ammProgram } = createDammV1Program(offline as any);
    const types = (ammProgram as any).idl.types;
    const zero = (name: string) => zeroOfLegacy(name, types);
    const value = {
      ...zero("pool"),
      tokenAMint: FIRST,
      tokenBMint: SECOND,
      poolType: { permissionless: {} },
      curveType: {
        stable: {
          amp: new BN(100),
          tokenMultiplier: zero("TokenMultiplier"),
          depeg: { ...zero("Depeg"), depegType: { lido: {} } },
          lastAmpUpdatedTimestamp: new BN(0),
        },
      },
    };
    return [{ data: encodeAnchorAccount((ammProgram as any).coder, "pool", value), mints: [FIRST, SECOND] }];
  },
  "Pump.fun Amm": () => [{ data: pumpSwapPoolData(), mints: [BASE, QUOTE] }],
  // No SDK or IDL exists: the real Jan-2026 mainnet SOL/USDC pool of the team's chain folder.
  "SolFi V2": () => {
    const file = CHAIN_DIR && join(CHAIN_DIR, "accounts-2026", "65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc.json");
    if (!file || !existsSync(file)) {
      console.warn("SolFi V2 pool layout check skipped: needs SWAPD_CHAIN_DIR/accounts-2026 (the mainnet pool snapshot)");
      return [];
    }
    return [{ data: rawAccount(JSON.parse(readFileSync(file, "utf8"))), mints: [SOL, USDC] }];
  },
  // No SDK or IDL exists, and its keys are masked: the real 2026 mainnet SOL/USDC pool of the team's chain folder,
  // whose mints (base SOL, quote USDC) its two vaults' token accounts name (and the chain folder's README).
  HumidiFi: () => {
    const file = CHAIN_DIR && join(CHAIN_DIR, "accounts-2026", "8sKQHfjNhvmAw94PhfvfMcytmqW6jmxvwieYyzXCCPu.json");
    if (!file || !existsSync(file)) {
      console.warn("HumidiFi pool layout check skipped: needs SWAPD_CHAIN_DIR/accounts-2026 (the mainnet pool snapshot)");
      return [];
    }
    return [{ data: rawAccount(JSON.parse(readFileSync(file, "utf8"))), mints: [SOL, USDC] }];
  },
  // No SDK or IDL exists: the real Mar-2026 markets of the chain folder's pmm-2026/, whose mints their vaults'
  // token accounts (and the folder's pools.toml) name.
  TesseraV: () => pmmSnapshot("TesseraV", [["FLckHLGMJy5gEoXWwcE68Nprde1D4araK4TGLw4pQq2n", [SOL, USDC]]]),
  BisonFi: () =>
    pmmSnapshot("BisonFi", [
      ["51FQwjrvo8J8zXUaKyAznJ5NYpoiTCuqAqCu3HAMB9NZ", [SOL, USDC]],
      ["FC9pWtfdtbyGZ5WHTLneoMSUx6jmTDgqKaxDcm2trsND", [SOL, USDT]],
    ]),
  // Meteora's SDK's IDL, encoded by Anchor's coder with the base mint set (the pool does not hold its quote mint).
  "Dynamic Bonding Curve": () => {
    const idl = DynamicBondingCurveIdl as any;
    const pool = zeroOf({ defined: { name: "VirtualPool" } }, idl.types, BN);
    pool.pool_state.base_mint = FIRST;
    return [{ data: encodeAnchorAccount(new BorshCoder(idl), "VirtualPool", pool), mints: [FIRST, SECOND] }];
  },
  "Obric V2": () => pmmSnapshot("Obric V2", [["BWBHrYqfcjAh5dSiRwzPnY4656cApXVXmkeDmAfwBKQG", [USDC, USDT]]]),
  // Its SDK only reads markets: the real Jan-2026 mainnet SOL/USDC market of the chain folder's manifest-2026/.
  Manifest: () => {
    const file = CHAIN_DIR && join(CHAIN_DIR, "manifest-2026", "accounts", "ENhU8LsaR7vDD2G1CsWcsuSGNrih9Cv5WZEk7q9kPapQ.json");
    if (!file || !existsSync(file)) {
      console.warn("Manifest market layout check skipped: needs SWAPD_CHAIN_DIR/manifest-2026 (the mainnet market snapshot)");
      return [];
    }
    return [{ data: rawAccount(JSON.parse(readFileSync(file, "utf8"))), mints: [SOL, USDC] }];
  },
};

/** Accounts of the chain folder's pmm-2026/ snapshot with the mints they hold ([] and a skip line without it). */
function pmmSnapshot(label: string, pools: readonly [string, [PublicKey, PublicKey]][]): { data: Uint8Array; mints: [PublicKey, PublicKey] }[] {
  const dir = CHAIN_DIR && join(CHAIN_DIR, "pmm-2026", "accounts");
  if (!dir || !existsSync(dir)) {
    console.warn(`${label} pool layout check skipped: needs SWAPD_CHAIN_DIR/pmm-2026 (the mainnet pool snapshot)`);
    return [];
  }
  return pools.map(([address, mints]) => ({ data: rawAccount(JSON.parse(readFileSync(join(dir, `${address}.json`), "utf8"))), mints }));
}

/** A zero value of a type of an Anchor 0.2x IDL (`publicKey`, `{ defined: "Name" }`); enums are set by the caller. */
function zeroOfLegacy(name: string, types: readonly any[]): any {
  const def = types.find((t) => t.name === name) ?? { type: { kind: "struct", fields: [] } };
  if (def.type.kind !== "struct") return undefined;
  const zeroField = (type: any): any => {
    if (type === "publicKey") return PublicKey.default;
    if (type === "bool") return false;
    if (typeof type === "string") return /^[ui](64|128)$/.test(type) ? new BN(0) : 0;
    if ("array" in type) return Array.from({ length: type.array[1] }, () => zeroField(type.array[0]));
    if ("defined" in type) return zeroOfLegacy(type.defined, types);
    return undefined;
  };
  return Object.fromEntries(def.type.fields.map((f: any) => [f.name, zeroField(f.type)]));
}

/** The mints at the layout's offsets (`undefined` where the layout says the pool does not hold one). */
function mintsAt(data: Uint8Array, layout: PoolMintLayout): [PublicKey, PublicKey | undefined] {
  // A masked layout's mints are stored XORed with its mask (HumidiFi's).
  const at = (offset: number) => new PublicKey(maskedMint(layout, data.subarray(offset, offset + 32)));
  const second = layout.mintOffsets[1];
  return [at(layout.mintOffsets[0]), second === undefined ? undefined : at(second)];
}

describe("pool mint layouts (pair discovery's getProgramAccounts filters)", () => {
  it("every registered AMM has an independent encoding checked here", () => {
    expect(Object.keys(sources).sort()).toEqual(ammAdapters.map((a) => a.label).sort());
  });

  for (const adapter of ammAdapters) {
    it(`${adapter.label}: the size and both mint offsets match its SDK's encoding`, async () => {
      const encodings = await sources[adapter.label]();
      for (const { data, mints } of encodings) {
        // A layout without a size is an account that grows (an order book): any size is its own.
        if (adapter.poolMintLayout.dataSize !== undefined) expect(data.length).toBe(adapter.poolMintLayout.dataSize);
        const [first, second] = mintsAt(data, adapter.poolMintLayout);
        expect(first).toEqual(mints[0]);
        if (second !== undefined) expect(second).toEqual(mints[1]);
      }
    });
  }

  // Anchor's rule for an account's first 8 bytes: sha256("account:<struct name>"), the names from the programs' IDLs.
  const anchorAccountNames: Record<string, string | { ascii: string } | { u64: bigint } | undefined> = {
    Whirlpool: "Whirlpool",
    "Raydium CLMM": "PoolState",
    "Raydium CP": "PoolState",
    "Meteora DLMM": "LbPair",
    Meteora: "Pool",
    "Meteora DAMM v2": "Pool",
    "Pump.fun Amm": "Pool",
    "Obric V2": "SSTradingPair",
    "Dynamic Bonding Curve": "VirtualPool",
    // Not Anchor: its markets start with this ASCII tag (public TVL adapters filter on it).
    BisonFi: { ascii: "POOLSTAT" },
    // Not Anchor: its program's MARKET_FIXED_DISCRIMINANT (state/constants.rs), a little-endian u64.
    Manifest: { u64: 4859840929024028656n },
    // Not Anchor programs: the size alone tells their pools.
    Raydium: undefined,
    "SolFi V2": undefined,
    HumidiFi: undefined,
    TesseraV: undefined,
  };
  it("each Anchor AMM's pool discriminator (a filter of listings and discovery) is Anchor's hash of its account name", () => {
    for (const adapter of ammAdapters.filter((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()])) {
      expect(Object.keys(anchorAccountNames)).toContain(adapter.label);
      const name = anchorAccountNames[adapter.label];
      const expected =
        name === undefined
          ? undefined
          : typeof name === "string"
            ? [...createHash("sha256").update(`account:${name}`).digest().subarray(0, 8)]
            : "u64" in name
              ? [...new Uint8Array(new BigUint64Array([name.u64]).buffer)]
              : [...Buffer.from(name.ascii, "ascii")];
      const actual = adapter.poolMintLayout.discriminator;
      expect(actual === undefined ? undefined : [...Array.from(actual)], adapter.label).toEqual(expected);
    }
  });

  it("discovery searches exactly the AMMs that can quote (math or their program), each with its adapter's layout", () => {
    const quotable = ammAdapters.filter((a) => a.quote !== undefined || a.quotedByProgram === true);
    expect(Object.keys(POOL_MINT_LAYOUTS).sort()).toEqual(quotable.map((a) => a.programId.toBase58()).sort());
    for (const adapter of quotable) expect(POOL_MINT_LAYOUTS[adapter.programId.toBase58()]).toBe(adapter.poolMintLayout);
  });
});
