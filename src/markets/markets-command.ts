/**
 * `npm run markets -- dump --rpc URL [--out FILE] [--programs ID|LABEL,...] [--timeout-ms N]`:
 * writes a market snapshot (every pool of each AMM program, with its mints) for `MARKETS_FILE`.
 * The file is written whole or not at all (a temporary file renamed over it), so a service
 * watching it never reads half a snapshot.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { ammAdapters } from "../core/amm/registry.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { POOL_MINT_LAYOUTS } from "../core/quote/pool-mint-offsets.js";
import { marketSnapshotText, snapshotPairCount } from "../core/quote/market-snapshot.js";
import { dumpMarkets } from "../chain/market-snapshot-dump.js";
import type { MarketDumpResult } from "../chain/market-snapshot-dump.js";
import { RpcSolanaChain } from "../chain/rpc-solana-chain.js";

export class MarketsUsageError extends Error {
  override readonly name = "MarketsUsageError";
}

/** AMMs whose pools a snapshot can list (a pool layout known). */
const LISTABLE = ammAdapters.filter((a) => POOL_MINT_LAYOUTS[base58Of(a.programId)]);
const DEFAULT_TIMEOUT_MS = 120_000;

export const MARKETS_USAGE = `usage: npm run markets -- dump --rpc URL [--out FILE] [--programs ID|LABEL,...] [--timeout-ms N]
  dump           list every pool of each AMM program (one getProgramAccounts per program) into a
                 market snapshot for MARKETS_FILE
  --rpc URL      Solana JSON-RPC endpoint; default: SOLANA_RPC_URL
  --out FILE     where to write it; default: MARKETS_FILE, else markets.json
  --programs     AMM program ids or labels, comma-separated; default: all of
                 ${LISTABLE.map((a) => a.label).join(", ")}
  --timeout-ms N one attempt per program, this long at most; default ${DEFAULT_TIMEOUT_MS}`;

export interface MarketsOptions {
  readonly command: "dump";
  readonly rpcUrl: string;
  readonly out: string;
  readonly adapters: readonly AnyAmmAdapter[];
  readonly timeoutMs: number;
}

export function parseMarketsArgs(argv: readonly string[], env: NodeJS.ProcessEnv): MarketsOptions {
  const [command, ...rest] = argv;
  if (command !== "dump") throw new MarketsUsageError(`the command must be dump, got ${JSON.stringify(command ?? "")}`);
  let rpcUrl = env["SOLANA_RPC_URL"] || undefined;
  let out = env["MARKETS_FILE"] || "markets.json";
  let adapters: readonly AnyAmmAdapter[] = LISTABLE;
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new MarketsUsageError(`${flag}: needs a value`);
    if (flag === "--rpc") rpcUrl = value;
    else if (flag === "--out") out = value;
    else if (flag === "--programs") adapters = programsOf(value);
    else if (flag === "--timeout-ms") {
      timeoutMs = Number(value);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1_000 || timeoutMs > 3_600_000)
        throw new MarketsUsageError(`--timeout-ms: must be an integer 1000–3600000, got ${JSON.stringify(value)}`);
    } else throw new MarketsUsageError(`unknown option ${flag}`);
  }
  if (!rpcUrl) throw new MarketsUsageError("--rpc: needed (or SOLANA_RPC_URL)");
  try {
    new URL(rpcUrl);
  } catch {
    // The URL's own parse error says little; the option and the rule say enough.
    throw new MarketsUsageError("--rpc: must be an http(s) URL");
  }
  return { command, rpcUrl, out, adapters, timeoutMs };
}

function programsOf(value: string): AnyAmmAdapter[] {
  return value
    .split(",")
    .filter(Boolean)
    .map((name) => {
      const adapter = LISTABLE.find((a) => base58Of(a.programId) === name || a.label.toLowerCase() === name.toLowerCase());
      if (!adapter)
        throw new MarketsUsageError(`--programs: ${JSON.stringify(name)} is not one of ${LISTABLE.map((a) => a.label).join(", ")} (or their program ids)`);
      return adapter;
    });
}

/** Runs the dump and writes the file; the result says which programs were left out. */
export async function runMarkets(options: MarketsOptions, log: (line: string) => void = () => {}): Promise<MarketDumpResult> {
  const chain = new RpcSolanaChain({ url: options.rpcUrl, timeoutMs: options.timeoutMs, attemptTimeoutMs: options.timeoutMs });
  const result = await dumpMarkets({ chain, adapters: options.adapters, timeoutMs: options.timeoutMs, log });
  if (result.snapshot.programs.length === 0) throw new Error(`no program listed: nothing written to ${options.out}`);
  await writeAtomically(options.out, marketSnapshotText(result.snapshot));
  const { markets, programs } = result.snapshot;
  log(`${options.out}: ${markets.length} pools of ${snapshotPairCount(markets)} pairs, ${programs.length} programs`);
  return result;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
