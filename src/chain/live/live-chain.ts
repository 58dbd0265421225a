/**
 * The live chain state of one service: the account cache with its stream, and the background
 * blockhash / fee keeper. `startLiveChain` picks the stream from the configured source.
 */
import type { SolanaChain } from "../solana-chain.js";
import type { AccountStream } from "./account-stream.js";
import { BackgroundChainState } from "./background-chain-state.js";
import { DEFAULT_LIVE_MAX_STALENESS_MS, LiveAccountCache } from "./live-account-cache.js";
import { liveAccountAgeSlots } from "./live-metrics.js";
import type { EvictedGroup } from "./live-pools.js";
import { PollingAccountStream } from "./polling-account-stream.js";
import { PubsubAccountStream } from "./pubsub-account-stream.js";

export type LiveSource =
  | { readonly kind: "websocket"; readonly url: string }
  | { readonly kind: "yellowstone"; readonly url: string; readonly token?: string | undefined }
  | { readonly kind: "polling"; readonly intervalMs: number };

export interface LiveChainOptions {
  readonly chain: SolanaChain;
  readonly source: LiveSource;
  /** `LIVE_POOLS_MAX`: pools held, each with the accounts it depends on. */
  readonly maxPools?: number;
  /** `LIVE_ACCOUNTS_MAX`: a ceiling on accounts held, over all pools. */
  readonly maxAccounts?: number;
  /** Told about each pool the cache drops (least recently used past a bound, or idle). */
  readonly onEvict?: (evicted: EvictedGroup) => void;
  /** `LIVE_MAX_STALENESS_MS`: the oldest state memory answers with (since the stream last proved it current). */
  readonly maxStalenessMs?: number;
  /** `LIVE_CONNECT_TIMEOUT_MS`: a stream (re)connect, handshake and subscriptions, must finish within this. */
  readonly connectTimeoutMs?: number;
  readonly idleMs?: number;
  /** Background refresh periods (tests stretch them to count a request's own round trips). */
  readonly blockhashRefreshMs?: number;
  readonly feeRefreshMs?: number;
  readonly onError?: (error: unknown, what: string) => void;
}

export interface LiveChain {
  readonly accounts: LiveAccountCache;
  readonly background: BackgroundChainState;
  readonly stream: AccountStream;
  /** Records the age (slots) of the oldest live state a response used. */
  observeAge(oldestSlot: number | undefined): void;
  close(): Promise<void>;
}

async function openStream(options: LiveChainOptions): Promise<AccountStream> {
  const source = options.source;
  const maxSilenceMs = options.maxStalenessMs ?? DEFAULT_LIVE_MAX_STALENESS_MS;
  const pushed = { maxSilenceMs, ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}) };
  switch (source.kind) {
    case "websocket":
      return new PubsubAccountStream(source.url, pushed);
    case "polling":
      return new PollingAccountStream(options.chain, source.intervalMs, maxSilenceMs);
    case "yellowstone": {
      // Loaded only when configured: the official client carries a native (napi) module.
      const { YellowstoneAccountStream } = await import("./yellowstone-account-stream.js");
      return new YellowstoneAccountStream(source.url, source.token, pushed);
    }
  }
}

export async function startLiveChain(options: LiveChainOptions): Promise<LiveChain> {
  const stream = await openStream(options);
  const onError = options.onError ?? (() => {});
  const accounts = new LiveAccountCache({
    chain: options.chain,
    stream,
    ...(options.maxPools !== undefined ? { maxPools: options.maxPools } : {}),
    ...(options.maxAccounts !== undefined ? { maxAccounts: options.maxAccounts } : {}),
    ...(options.onEvict ? { onEvict: options.onEvict } : {}),
    ...(options.maxStalenessMs !== undefined ? { maxStalenessMs: options.maxStalenessMs } : {}),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    onError,
  });
  const background = new BackgroundChainState({
    chain: options.chain,
    ...(options.blockhashRefreshMs !== undefined ? { blockhashRefreshMs: options.blockhashRefreshMs } : {}),
    ...(options.feeRefreshMs !== undefined ? { feeRefreshMs: options.feeRefreshMs } : {}),
    onError: (error) => onError(error, "background refresh"),
  });
  background.start();
  return {
    accounts,
    background,
    stream,
    observeAge(oldestSlot) {
      const newest = accounts.newestSlot();
      if (oldestSlot !== undefined && newest !== undefined) liveAccountAgeSlots.observe(Math.max(0, newest - oldestSlot));
    },
    async close() {
      background.close();
      await accounts.close();
    },
  };
}
