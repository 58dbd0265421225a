import { readFile, readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import type { LocalChain } from "./local-chain.js";

/**
 * An account snapshot as `solana account --output json` writes it
 * (also what `solana-test-validator --account-dir` reads).
 */
export interface AccountSnapshot {
  pubkey: string;
  account: {
    lamports: number;
    data: [string, string];
    owner: string;
    executable: boolean;
    rentEpoch: number;
    space?: number;
  };
}

function parseSnapshot(text: string, file: string): { key: PublicKey; lamports: bigint; data: Uint8Array; owner: PublicKey; executable: boolean } {
  const where = `account snapshot ${file}`;
  let json: AccountSnapshot;
  try {
    json = JSON.parse(text) as AccountSnapshot;
  } catch (error) {
    throw new Error(`${where}: not JSON (${String(error)})`);
  }
  const a = json?.account;
  if (typeof json?.pubkey !== "string" || !a || !Array.isArray(a.data) || typeof a.owner !== "string") {
    throw new Error(`${where}: expected {pubkey, account: {lamports, data: [base64, "base64"], owner, executable}}`);
  }
  if (a.data[1] !== "base64") throw new Error(`${where}: data encoding ${JSON.stringify(a.data[1])} unsupported (base64 only)`);
  if (!Number.isSafeInteger(a.lamports) || a.lamports < 0) throw new Error(`${where}: lamports must be a non-negative integer`);
  return {
    key: publicKeyField(json.pubkey, `${where}: pubkey`),
    lamports: BigInt(a.lamports),
    data: new Uint8Array(Buffer.from(a.data[0], "base64")),
    owner: publicKeyField(a.owner, `${where}: account.owner`),
    executable: a.executable === true,
  };
}

function publicKeyField(text: string, where: string): PublicKey {
  try {
    return new PublicKey(text);
  } catch {
    throw new Error(`${where}: ${JSON.stringify(text)} is not a base58 public key`);
  }
}

/** Loads every `*.json` account snapshot in `dir` into the chain; returns the loaded addresses. */
export async function loadAccountsDir(chain: LocalChain, dir: string): Promise<PublicKey[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
  const loaded: PublicKey[] = [];
  for (const file of files) {
    const snapshot = parseSnapshot(await readFile(join(dir, file), "utf8"), file);
    chain.setAccount(snapshot.key, snapshot);
    loaded.push(snapshot.key);
  }
  return loaded;
}

/** Loads every `<programId>.so` in `dir` as an upgradeable BPF program; returns the program ids. */
export async function loadProgramsDir(chain: LocalChain, dir: string): Promise<PublicKey[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".so")).sort();
  const loaded: PublicKey[] = [];
  for (const file of files) {
    let programId: PublicKey;
    try {
      programId = new PublicKey(basename(file, ".so"));
    } catch {
      throw new Error(`program ${file}: the file name must be <programId>.so`);
    }
    chain.addProgram(programId, new Uint8Array(await readFile(join(dir, file))));
    loaded.push(programId);
  }
  return loaded;
}
