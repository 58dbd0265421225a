/**
 * `npm run alt -- create|extend --keypair FILE [--table ADDRESS] [--markets FILE] [--market ADDRESS]...`:
 * creates (or extends) an address lookup table owned by the keypair with the addresses swaps through
 * the service's markets need (market-table-addresses.ts), over SOLANA_RPC_URL (or `--rpc`). Give the
 * service the keypair's public key in LOOKUP_TABLE_AUTHORITIES and it finds the table by itself.
 */
import { readFile } from "node:fs/promises";
import { Connection, Keypair, PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { adapterForOwner } from "../core/amm/registry.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { parseMarketsFileContent } from "../core/quote/market-snapshot.js";
import { createTableBatches, extendTableBatches } from "./lookup-table-batches.js";
import { marketTableAddresses } from "./market-table-addresses.js";
import type { TableMarket } from "./market-table-addresses.js";

export class AltUsageError extends Error {
  override readonly name = "AltUsageError";
}

export const ALT_USAGE = `usage: npm run alt -- create|extend --keypair FILE [--table ADDRESS] [--markets FILE] [--market ADDRESS]... [--rpc URL]
  create   a new lookup table owned by the keypair, holding what swaps through the markets need
  extend   add what the table (--table, owned by the keypair) lacks
  --keypair FILE   authority and fee payer: a Solana CLI keypair file (JSON array of 64 bytes)
  --markets FILE   pool addresses (JSON array, {"markets": [...]}, or a market snapshot); default: MARKETS_FILE
  --market ADDR    one more pool address (repeatable)
  --rpc URL        Solana JSON-RPC endpoint; default: SOLANA_RPC_URL`;

export interface AltOptions {
  readonly command: "create" | "extend";
  readonly keypairFile: string;
  readonly table: PublicKey | undefined;
  readonly marketsFile: string | undefined;
  readonly markets: readonly PublicKey[];
  readonly rpcUrl: string;
}

export function parseAltArgs(argv: readonly string[], env: NodeJS.ProcessEnv): AltOptions {
  const [command, ...rest] = argv;
  if (command !== "create" && command !== "extend") throw new AltUsageError(`the command must be create or extend, got ${JSON.stringify(command ?? "")}`);
  let keypairFile: string | undefined;
  let table: PublicKey | undefined;
  let marketsFile = env["MARKETS_FILE"] || undefined;
  let rpcUrl = env["SOLANA_RPC_URL"] || undefined;
  const markets: PublicKey[] = [];
  const key = (flag: string, value: string | undefined) => {
    try {
      return new PublicKey(value ?? "");
    } catch {
      throw new AltUsageError(`${flag}: must be a base58 public key, got ${JSON.stringify(value ?? "")}`);
    }
  };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new AltUsageError(`${flag}: needs a value`);
    if (flag === "--keypair") keypairFile = value;
    else if (flag === "--table") table = key(flag, value);
    else if (flag === "--markets") marketsFile = value;
    else if (flag === "--market") markets.push(key(flag, value));
    else if (flag === "--rpc") rpcUrl = value;
    else throw new AltUsageError(`unknown option ${flag}`);
  }
  if (!keypairFile) throw new AltUsageError("--keypair is required");
  if (!rpcUrl) throw new AltUsageError("--rpc or SOLANA_RPC_URL is required");
  if (command === "extend" && !table) throw new AltUsageError("extend needs --table");
  return { command, keypairFile, table, marketsFile, markets, rpcUrl };
}

async function readAccounts(connection: Connection, keys: readonly PublicKey[]): Promise<(AccountData | null)[]> {
  const out: (AccountData | null)[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    const chunk = keys.slice(i, i + 100);
    const infos = await connection.getMultipleAccountsInfo([...chunk]);
    infos.forEach((info, j) =>
      out.push(
        info ? { address: chunk[j], owner: info.owner, lamports: BigInt(info.lamports), data: new Uint8Array(info.data), executable: info.executable } : null,
      ),
    );
  }
  return out;
}

/** Pools decoded, and everything their steps read (mints, tick/bin arrays, configs) in at most three rounds. */
async function loadMarkets(
  connection: Connection,
  addresses: readonly PublicKey[],
): Promise<{ markets: TableMarket[]; accounts: Map<string, AccountData | null> }> {
  const accounts = new Map<string, AccountData | null>();
  const markets: TableMarket[] = [];
  const pools = await readAccounts(connection, addresses);
  pools.forEach((account, i) => {
    if (!account) throw new Error(`market ${base58Of(addresses[i])}: no such account`);
    const adapter = adapterForOwner(account.owner);
    if (!adapter) throw new Error(`market ${base58Of(addresses[i])}: owned by ${base58Of(account.owner)}, not a supported AMM`);
    accounts.set(base58Of(account.address), account);
    markets.push({ adapter, pool: adapter.decodePool(account) });
  });
  for (let round = 0; round < 3; round++) {
    const wanted = new Map<string, PublicKey>();
    for (const { adapter, pool } of markets) {
      const [a, b] = adapter.mints(pool);
      for (const aToB of [true, false]) {
        const keys = [
          a,
          b,
          ...(adapter.quoteAccounts?.(pool, { amount: 1n, swapMode: "ExactIn", aToB }, accounts) ?? []),
          ...adapter.dependencies(pool, {
            sourceMint: aToB ? a : b,
            destinationMint: aToB ? b : a,
            sourceTokenAccount: PublicKey.default,
            destinationTokenAccount: PublicKey.default,
            tokenTransferAuthority: PublicKey.default,
            user: PublicKey.default,
            inAmount: 1n,
            outAmount: 1n,
            swapMode: "ExactIn",
          }),
        ];
        for (const key of keys) if (!accounts.has(base58Of(key))) wanted.set(base58Of(key), key);
      }
    }
    if (wanted.size === 0) break;
    const keys = [...wanted.values()];
    (await readAccounts(connection, keys)).forEach((account, i) => accounts.set(base58Of(keys[i]), account));
  }
  return { markets, accounts };
}

async function send(connection: Connection, payer: Keypair, instructions: TransactionInstruction[]): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("confirmed");
  const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
  tx.sign([payer]);
  const signature = await connection.sendTransaction(tx);
  const result = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, "confirmed");
  if (result.value.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(result.value.err)}`);
  return signature;
}

export interface AltResult {
  readonly table: PublicKey;
  readonly added: number;
  readonly left: number;
  readonly transactions: number;
}

export async function runAlt(options: AltOptions, log: (line: string) => void = () => {}): Promise<AltResult> {
  const secret = JSON.parse(await readFile(options.keypairFile, "utf8")) as number[];
  const authority = Keypair.fromSecretKey(Uint8Array.from(secret));
  const listed = options.marketsFile ? parseMarketsFileContent(options.marketsFile, await readFile(options.marketsFile, "utf8")) : undefined;
  const fileMarkets = listed ? [...listed.addresses, ...listed.markets.map((m) => m.address)] : [];
  const addresses = [...fileMarkets.map((m) => new PublicKey(m)), ...options.markets];
  if (addresses.length === 0) throw new AltUsageError("no markets: give --markets FILE, MARKETS_FILE or --market ADDRESS");
  const connection = new Connection(options.rpcUrl, "confirmed");
  const { markets, accounts } = await loadMarkets(connection, addresses);
  const wanted = marketTableAddresses(markets, accounts);
  let batches;
  if (options.command === "create") {
    const slot = await connection.getSlot("confirmed");
    batches = createTableBatches(authority.publicKey, authority.publicKey, slot, wanted);
  } else {
    const existing = (await connection.getAddressLookupTable(options.table!)).value;
    if (!existing) throw new Error(`--table ${base58Of(options.table!)}: no lookup table there`);
    if (!existing.state.authority?.equals(authority.publicKey)) throw new Error(`--table ${base58Of(options.table!)}: its authority is not the keypair's key`);
    batches = extendTableBatches(options.table!, authority.publicKey, authority.publicKey, existing.state.addresses, wanted);
  }
  for (const [i, instructions] of batches.transactions.entries()) {
    if (instructions.length === 0) continue;
    const signature = await send(connection, authority, instructions);
    log(`transaction ${i + 1}/${batches.transactions.length}: ${signature}`);
  }
  log(
    `table ${base58Of(batches.table)}: ${batches.added.length} addresses added${batches.left.length ? `, ${batches.left.length} did not fit (create another table)` : ""}`,
  );
  log(`set LOOKUP_TABLE_AUTHORITIES=${base58Of(authority.publicKey)} (or LOOKUP_TABLES=${base58Of(batches.table)}) for the service`);
  return {
    table: batches.table,
    added: batches.added.length,
    left: batches.left.length,
    transactions: batches.transactions.filter((t) => t.length > 0).length,
  };
}
