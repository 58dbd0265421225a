/**
 * Where live account updates come from, behind one interface: the Solana PubSub websocket
 * (pubsub-account-stream.ts), Yellowstone gRPC Geyser (yellowstone-account-stream.ts) or polling
 * with getMultipleAccounts (polling-account-stream.ts). The cache (live-account-cache.ts) owns the
 * set of subscribed addresses and tells the stream; the stream re-establishes its subscriptions by
 * itself after a reconnect and then says `connected`, upon which the cache re-reads everything.
 */
import type { AccountData } from "../../core/solana/account.js";

export interface AccountStreamEvents {
  /** A new version of a subscribed account, at `slot`. */
  account(address: string, account: AccountData | null, slot: number): void;
  /** The newest slot the source knows (confirmed). */
  slot(slot: number): void;
  /** (Re)connected with every current subscription in place: updates from now on are delivered. */
  connected(): void;
  /** The connection is gone; updates may be missed until `connected` again. */
  disconnected(reason: string): void;
}

export interface AccountStream {
  /** `websocket`, `yellowstone` or `polling` (metric label, status). */
  readonly kind: string;
  /** Connects (and keeps reconnecting, with backoff, until closed). */
  start(events: AccountStreamEvents): void;
  /**
   * Adds subscriptions; resolves once the source has them (updates after that are delivered), or
   * rejects when the connection is down (they are set up on reconnect anyway).
   */
  subscribe(addresses: readonly string[]): Promise<void>;
  unsubscribe(addresses: readonly string[]): void;
  /**
   * True when an update that happened before `subscribe` resolved cannot be missed by the cache
   * (polling re-reads everything each round), so no confirming re-read is needed.
   */
  readonly coversPastUpdates: boolean;
  /**
   * The moment (ms since the epoch) up to which the source's state is known delivered: the last
   * message or answered probe of a pushed stream, the start of the last completed polling round.
   * Undefined before the first. The cache answers from memory only while it is recent.
   */
  readonly freshAsOf: number | undefined;
  /** How old `freshAsOf` may be while the stream is healthy, ms; older = frozen or down. */
  readonly maxSilenceMs: number;
  close(): Promise<void>;
}
