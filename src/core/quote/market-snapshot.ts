/**
 * The `MARKETS_FILE` format. Either a plain list of pool addresses (each read once at load to learn
 * its AMM and mints), or a market snapshot as `npm run markets -- dump` writes it:
 *
 *     {"version": 1, "writtenAt": "…",
 *      "programs": [{"programId": "…", "label": "Raydium CP", "pools": 2}],
 *      "markets": [{"address": "…", "program": "…", "mints": ["…", "…"]}, …]}
 *
 * A snapshot's markets carry their program and mints, so loading one costs no RPC call; and each
 * program in `programs` is listed whole (every pool the program had when the file was written), so
 * the market index does not search those programs with getProgramAccounts. Plain addresses may be
 * mixed into `markets`.
 */
import bs58 from "bs58";
import type { PublicKey } from "@solana/web3.js";
import type { AnyAmmAdapter } from "../amm/adapter.js";
import { publicKeyFromBase58 } from "../solana/base58-strings.js";
import { pairKey } from "./market.js";
import type { Market, MarketSource } from "./market.js";

export const MARKET_SNAPSHOT_VERSION = 1;

/** A pool as a snapshot lists it. */
export interface SnapshotMarket {
  readonly address: string;
  readonly program: string;
  /** The pool's mints in the pool's order. */
  readonly mints: readonly [string, string];
}

/** A program a snapshot lists whole. */
export interface SnapshotProgram {
  readonly programId: string;
  readonly label: string;
  readonly pools: number;
}

export interface MarketSnapshot {
  readonly version: typeof MARKET_SNAPSHOT_VERSION;
  readonly writtenAt: string;
  readonly programs: readonly SnapshotProgram[];
  readonly markets: readonly SnapshotMarket[];
}

/** What a MARKETS_FILE holds, whichever its form. */
export interface MarketsFileContent {
  /** Pools given by address only (to be read to learn their AMM and mints). */
  readonly addresses: string[];
  /** Pools given with their program and mints. */
  readonly markets: SnapshotMarket[];
  /** Programs the file lists whole (base58 ids). */
  readonly completePrograms: string[];
}

/** Base58 text of 32 to 44 digits: a public key's shape (decoding checks the length). */
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Reads a MARKETS_FILE's text; a malformed file is refused naming the field and the rule. */
export function parseMarketsFileContent(file: string, text: string): MarketsFileContent {
  const parsed: unknown = JSON.parse(text);
  const object = Array.isArray(parsed) ? { markets: parsed } : (parsed as { markets?: unknown; programs?: unknown; version?: unknown } | null);
  const list = object?.markets;
  if (!Array.isArray(list)) throw new Error(`${file}: must be a JSON array of pool addresses, or {"markets": [...]}`);
  if (object && "version" in object && object.version !== MARKET_SNAPSHOT_VERSION) {
    throw new Error(
      `${file}: version: must be ${MARKET_SNAPSHOT_VERSION} (this swapd reads snapshots of version ${MARKET_SNAPSHOT_VERSION}), got ${JSON.stringify(object.version)}`,
    );
  }
  const addresses: string[] = [];
  const markets: SnapshotMarket[] = [];
  list.forEach((entry: unknown, i) => {
    if (typeof entry === "string") addresses.push(entry);
    else markets.push(snapshotMarket(file, entry, i));
  });
  const programs = (object as { programs?: unknown }).programs ?? [];
  if (!Array.isArray(programs)) throw new Error(`${file}: programs: must be an array of {"programId", "label", "pools"}`);
  const completePrograms = programs.map((p: unknown, i) => {
    const id = (p as { programId?: unknown } | null)?.programId;
    if (typeof id !== "string" || !BASE58_KEY.test(id)) throw new Error(`${file}: programs[${i}].programId: must be a base58 public key`);
    return id;
  });
  return { addresses, markets, completePrograms };
}

/** The line that opens a snapshot's market list as `marketSnapshotText` writes it. */
const MARKETS_LINE = '\n"markets": [\n';
const MARKETS_END = "\n]}\n";

/**
 * A snapshot as `marketSnapshotText` writes it (one market per line), parsed a line at a time and
 * yielding every `step` markets, so that a caller can give the event loop back: a listing of a
 * million pools parsed whole blocks it for seconds. Returns its content and `writtenAt` (ms since
 * the epoch; NaN without one). Text in another layout is parsed whole (`parseMarketsFileContent`).
 */
export function* parseSnapshotSteps(file: string, text: string, step: number): Generator<void, { content: MarketsFileContent; writtenAt: number }> {
  const start = text.indexOf(MARKETS_LINE);
  if (start < 0 || !text.endsWith(MARKETS_END)) {
    const content = parseMarketsFileContent(file, text);
    const writtenAt = (JSON.parse(text) as { writtenAt?: unknown }).writtenAt;
    return { content, writtenAt: typeof writtenAt === "string" ? Date.parse(writtenAt) : NaN };
  }
  const head = parseMarketsFileContent(file, `${text.slice(0, start)}\n"markets": []}`);
  const headObject = JSON.parse(`${text.slice(0, start)}\n"markets": []}`) as { writtenAt?: unknown };
  const body = text.slice(start + MARKETS_LINE.length, text.length - MARKETS_END.length);
  const lines = body.length === 0 ? [] : body.split(",\n");
  const addresses: string[] = [];
  const markets: SnapshotMarket[] = [];
  for (let i = 0; i < lines.length; i++) {
    let entry: unknown;
    try {
      entry = JSON.parse(lines[i]);
    } catch {
      throw new Error(`${file}: markets[${i}]: not JSON (${lines[i].slice(0, 80)})`);
    }
    if (typeof entry === "string") addresses.push(entry);
    else markets.push(snapshotMarket(file, entry, i));
    if (i % step === step - 1) yield;
  }
  const writtenAt = typeof headObject.writtenAt === "string" ? Date.parse(headObject.writtenAt) : NaN;
  return { content: { addresses, markets, completePrograms: head.completePrograms }, writtenAt };
}

function snapshotMarket(file: string, entry: unknown, i: number): SnapshotMarket {
  const e = entry as { address?: unknown; program?: unknown; mints?: unknown } | null;
  const key = (value: unknown, field: string): string => {
    if (typeof value !== "string" || !BASE58_KEY.test(value)) throw new Error(`${file}: markets[${i}].${field}: must be a base58 public key`);
    return value;
  };
  if (e === null || typeof e !== "object") throw new Error(`${file}: markets[${i}]: must be a pool address or {"address", "program", "mints"}`);
  if (!Array.isArray(e.mints) || e.mints.length !== 2) throw new Error(`${file}: markets[${i}].mints: must be the pool's two mints`);
  return { address: key(e.address, "address"), program: key(e.program, "program"), mints: [key(e.mints[0], "mints[0]"), key(e.mints[1], "mints[1]")] };
}

/** The snapshot as its file's text: one market per line, so a diff of two snapshots reads well. */
export function marketSnapshotText(snapshot: MarketSnapshot): string {
  const head = JSON.stringify({ version: snapshot.version, writtenAt: snapshot.writtenAt, programs: snapshot.programs });
  const lines = snapshot.markets.map((m) => JSON.stringify(m));
  return `${head.slice(0, -1)},\n"markets": [\n${lines.join(",\n")}\n]}\n`;
}

/** Pairs and their pool counts, for a one-line summary of a snapshot. */
export function snapshotPairCount(markets: readonly SnapshotMarket[]): number {
  return new Set(markets.map((m) => pairKey(m.mints[0], m.mints[1]))).size;
}

/**
 * A listed or stored market, its address decoded to a key object only when a quote uses it: making
 * 100,000 key objects at load took ~2 s and ~100 bytes each, for pools most of which are never quoted.
 */
export class ListedMarket implements Market {
  private key: PublicKey | undefined;
  constructor(
    readonly addressText: string,
    readonly programId: PublicKey,
    readonly label: string,
    readonly mints: readonly [string, string],
    readonly source: MarketSource,
  ) {}

  get address(): PublicKey {
    return (this.key ??= publicKeyFromBase58(this.addressText));
  }
}

/** The market a snapshot entry is (`adapters` by base58 program id), or why it is none. */
export function marketOfSnapshotEntry(adapters: ReadonlyMap<string, AnyAmmAdapter>, entry: SnapshotMarket, source: MarketSource = "file"): Market | string {
  const adapter = adapters.get(entry.program);
  if (!adapter) return `program ${entry.program} is not a supported AMM program`;
  // The length check alone (base58 decoding is cheap; the key object is what costs).
  if (bs58.decode(entry.address).length !== 32) return "not a base58 public key (32 bytes)";
  return new ListedMarket(entry.address, adapter.programId, adapter.label, entry.mints, source);
}
