/**
 * Program listings kept on disk (`DATA_DIR/markets/<programId>.json`), so a restart does not list
 * every program's pools again: each file is a market snapshot of one program (the MARKETS_FILE
 * format of `npm run markets -- dump`), written aside and renamed so a crash never leaves half a
 * file. Its `writtenAt` is when the program was listed: the next refresh is due from then.
 */
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { MARKET_SNAPSHOT_VERSION, marketSnapshotText, parseSnapshotSteps } from "../core/quote/market-snapshot.js";
import type { ProgramListing } from "./market-snapshot-dump.js";

/** Markets parsed between two turns of the event loop (~0.1 s). */
const PARSE_STEP = 20_000;

export interface KeptListing {
  readonly listing: ProgramListing;
  /** When it was listed (ms since the epoch). */
  readonly listedAt: number;
}

function fileOf(dir: string, adapter: AnyAmmAdapter): string {
  return join(dir, `${base58Of(adapter.programId)}.json`);
}

export async function keepListing(dir: string, adapter: AnyAmmAdapter, listing: ProgramListing, listedAt: number): Promise<void> {
  const file = fileOf(dir, adapter);
  await mkdir(dir, { recursive: true });
  const programId = base58Of(adapter.programId);
  const text = marketSnapshotText({
    version: MARKET_SNAPSHOT_VERSION,
    writtenAt: new Date(listedAt).toISOString(),
    programs: [{ programId, label: adapter.label, pools: listing.markets.length }],
    markets: listing.markets,
  });
  await writeFile(`${file}.partial`, text);
  await rename(`${file}.partial`, file);
}

/** The size of the program's kept listing in bytes; 0 when there is none. */
export async function keptListingSize(dir: string, adapter: AnyAmmAdapter): Promise<number> {
  try {
    return (await stat(fileOf(dir, adapter))).size;
  } catch (error) {
    // None kept yet (first start with this DATA_DIR): nothing to read.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

/** The program's kept listing; undefined when there is none (or it lists another program, or is not whole). */
export async function readKeptListing(dir: string, adapter: AnyAmmAdapter): Promise<KeptListing | undefined> {
  const file = fileOf(dir, adapter);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    // None kept yet (first start with this DATA_DIR): the program is listed.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const programId = base58Of(adapter.programId);
  // Parsed a slice at a time, the event loop given back between: a program of a million pools.
  const steps = parseSnapshotSteps(file, text, PARSE_STEP);
  let step = steps.next();
  while (!step.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    step = steps.next();
  }
  const { content, writtenAt: listedAt } = step.value;
  if (!content.completePrograms.includes(programId) || content.addresses.length > 0 || !Number.isFinite(listedAt)) return undefined;
  if (content.markets.some((m) => m.program !== programId)) return undefined;
  return { listing: { markets: content.markets, withoutMints: 0 }, listedAt };
}
