import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { LocalChain } from "./local-chain.js";
import type { LocalChainClock } from "./local-slot-clock.js";
import type { AccountInput } from "./svm-accounts.js";
import { startRpcServer } from "./rpc-server.js";
import type { LocalnetRpcStats } from "./rpc-server.js";
import { loadAccountsDir, loadProgramsDir } from "./snapshots.js";

export interface LocalnetOptions {
  /** Folder(s) of `<programId>.so` files (env `LOCALNET_PROGRAMS_DIR`); a later folder's file wins. */
  readonly programsDir?: string | readonly string[];
  /** Folder(s) of `solana account --output json` snapshots (env `LOCALNET_ACCOUNTS_DIR`, comma-separated); a later folder's file wins. */
  readonly accountsDir?: string | readonly string[];
  /** The slot and time the chain starts at (env `LOCALNET_CLOCK=<slot>:<unix time>`); default slot 1, now. */
  readonly clock?: LocalChainClock;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
}

/** A running embedded chain: its RPC URL and direct access to its state. */
export interface Localnet {
  readonly url: string;
  readonly websocketUrl: string;
  readonly chain: LocalChain;
  setAccount(key: PublicKey, account: AccountInput): void;
  getAccount(key: PublicKey): AccountData | null;
  /** Sends lamports from the faucet (a real, recorded System transfer); returns the signature. */
  airdrop(key: PublicKey, lamports: bigint): string;
  /** What the RPC server received since start (or `resetStats`). */
  stats(): LocalnetRpcStats;
  resetStats(): void;
  /** Drops the websocket (and Geyser) connections and refuses new ones while `down` (outage tests). */
  setStreamsDown(down: boolean): void;
  close(): Promise<void>;
}

/** Starts LiteSVM behind a loopback JSON-RPC server, loading programs and accounts first. */
export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const chain = new LocalChain(options.clock);
  for (const dir of folders(options.programsDir)) await loadProgramsDir(chain, dir);
  for (const dir of folders(options.accountsDir)) await loadAccountsDir(chain, dir);
  const host = options.host ?? "127.0.0.1";
  const server = await startRpcServer(chain, options.port ?? 0, host);
  const url = `http://${host}:${server.port}`;
  return {
    url,
    websocketUrl: `ws://${host}:${server.websocketPort ?? server.port}`,
    chain,
    setAccount: (key, account) => chain.setAccount(key, account),
    getAccount: (key) => chain.getAccount(key),
    airdrop: (key, lamports) => chain.airdrop(key, lamports),
    stats: () => server.stats(),
    resetStats: () => server.resetStats(),
    setStreamsDown: (down) => server.setStreamsDown(down),
    close: () => server.close(),
  };
}

function folders(option: string | readonly string[] | undefined): readonly string[] {
  return typeof option === "string" ? [option] : (option ?? []);
}
