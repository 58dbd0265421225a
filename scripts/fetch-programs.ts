/**
 * `npm run fetch-programs -- --url <rpc> [--out <dir>] [--program <id>]... [--account <address>]...`
 *
 * Dumps programs and accounts from a Solana RPC (e.g. mainnet) into the folders the embedded chain
 * loads: `<out>/programs/<programId>.so` (LOCALNET_PROGRAMS_DIR) and `<out>/accounts/<address>.json`
 * (LOCALNET_ACCOUNTS_DIR), in the formats `solana program dump` and `solana account --output json`
 * write. Without `--program`, the programs swapd builds instructions for are fetched.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Connection, PublicKey } from "@solana/web3.js";
import type { AccountInfo } from "@solana/web3.js";

/** Jupiter v6 and the AMM programs of src/core/amm (plus the vault Meteora DAMM v1 calls). */
export const DEFAULT_PROGRAMS = [
  "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4",
  "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc",
  "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
  "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK",
  "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8",
  "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo",
  "Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB",
  "24Uqj9JCLxUeoC3hGfh5W3s9FM9uCHDS2SG3LYwBpyTi",
];

const UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";
const PLAIN_LOADERS = new Set(["BPFLoader2111111111111111111111111111111111", "BPFLoader1111111111111111111111111111111111"]);
/** UpgradeableLoaderState::ProgramData: u32 tag, u64 slot, Option<Pubkey> (1 + 32) before the ELF. */
const PROGRAM_DATA_HEADER = 4 + 8 + 1 + 32;

export interface FetchOptions {
  readonly url: string;
  readonly out: string;
  readonly programs: readonly string[];
  readonly accounts: readonly string[];
  readonly log?: (line: string) => void;
}

async function account(connection: Connection, address: string): Promise<AccountInfo<Buffer>> {
  const info = await connection.getAccountInfo(new PublicKey(address));
  if (info === null) throw new Error(`${address}: no such account on ${connection.rpcEndpoint}`);
  return info;
}

/** The ELF of a deployed program, as `solana program dump` writes it. */
async function programElf(connection: Connection, programId: string): Promise<Buffer> {
  const program = await account(connection, programId);
  const owner = program.owner.toBase58();
  if (PLAIN_LOADERS.has(owner)) return program.data;
  if (owner !== UPGRADEABLE_LOADER || program.data.length < 36 || program.data.readUInt32LE(0) !== 2) {
    throw new Error(`${programId}: not a program of a BPF loader (owner ${owner})`);
  }
  const programData = new PublicKey(program.data.subarray(4, 36)).toBase58();
  const data = await account(connection, programData);
  if (data.data.length < PROGRAM_DATA_HEADER || data.data.readUInt32LE(0) !== 3) {
    throw new Error(`${programId}: its program data account ${programData} is not ProgramData`);
  }
  return data.data.subarray(PROGRAM_DATA_HEADER);
}

/** `solana account --output json` of one account. */
function accountJson(address: string, info: AccountInfo<Buffer>): string {
  return `${JSON.stringify(
    {
      pubkey: address,
      account: {
        lamports: info.lamports,
        data: [info.data.toString("base64"), "base64"],
        owner: info.owner.toBase58(),
        executable: info.executable,
        rentEpoch: 0,
        space: info.data.length,
      },
    },
    null,
    2,
  )}\n`;
}

/** Thrown when the RPC cannot be reached at all (as opposed to answering that something is missing). */
export class RpcUnreachableError extends Error {}

/** One cheap call first, so that an unreachable RPC is said as such (web3.js says only "fetch failed"). */
async function checkReachable(connection: Connection): Promise<void> {
  try {
    await connection.getSlot();
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new RpcUnreachableError(`the RPC at ${connection.rpcEndpoint} is unreachable (${cause}); nothing was written`);
  }
}

/** Reads everything first and writes only when all of it was read: a failure leaves nothing behind. */
export async function fetchPrograms(options: FetchOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const connection = new Connection(options.url, "confirmed");
  const programsDir = join(options.out, "programs");
  const accountsDir = join(options.out, "accounts");
  await checkReachable(connection);
  const files: { path: string; data: Buffer | string; line: string }[] = [];
  for (const programId of options.programs) {
    const elf = await programElf(connection, programId);
    const path = join(programsDir, `${programId}.so`);
    files.push({ path, data: elf, line: `program ${programId}: ${elf.length} bytes → ${path}` });
  }
  for (const address of options.accounts) {
    const info = await account(connection, address);
    const path = join(accountsDir, `${address}.json`);
    files.push({ path, data: accountJson(address, info), line: `account ${address}: ${info.data.length} bytes, owner ${info.owner.toBase58()} → ${path}` });
  }
  mkdirSync(programsDir, { recursive: true });
  mkdirSync(accountsDir, { recursive: true });
  for (const file of files) {
    writeFileSync(file.path, file.data);
    log(file.line);
  }
  log(`LOCALNET_PROGRAMS_DIR=${programsDir} LOCALNET_ACCOUNTS_DIR=${accountsDir} npm start`);
}

export const FETCH_PROGRAMS_USAGE = `usage: npm run fetch-programs -- --url <Solana RPC URL> [--out <dir>] [--program <id>]... [--account <address>]...

Dumps programs and accounts from a Solana RPC (e.g. mainnet) into <out>/programs/<id>.so and
<out>/accounts/<address>.json (default <out>: ./chain), what LOCALNET_PROGRAMS_DIR and
LOCALNET_ACCOUNTS_DIR load. Without --program: Jupiter v6 and the AMM programs swapd builds for.`;

function parsedArgs(): { url?: string | undefined; out?: string | undefined; program?: string[] | undefined; account?: string[] | undefined } {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${FETCH_PROGRAMS_USAGE}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({
      args,
      options: {
        url: { type: "string" },
        out: { type: "string", default: "chain" },
        program: { type: "string", multiple: true },
        account: { type: "string", multiple: true },
      },
    }).values;
  } catch (error) {
    // parseArgs' own message names the option (unknown, or missing its value): that and the usage, no stack.
    process.stderr.write(`fetch-programs: ${(error as Error).message}\n${FETCH_PROGRAMS_USAGE}\n`);
    process.exit(2);
  }
}

if (process.argv[1]?.endsWith("scripts/fetch-programs.ts")) {
  const values = parsedArgs();
  if (!values.url) {
    process.stderr.write("fetch-programs: --url <Solana RPC URL> is required (e.g. https://api.mainnet-beta.solana.com)\n");
    process.exit(2);
  }
  fetchPrograms({
    url: values.url,
    out: resolve(values.out ?? "chain"),
    programs: values.program ?? DEFAULT_PROGRAMS,
    accounts: values.account ?? [],
  }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`fetch-programs: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
