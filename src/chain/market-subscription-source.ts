/**
 * Pools announced by program subscriptions (PubSub `programSubscribe` to each searched AMM
 * program, on by default): new pools enter and closed ones leave as they happen. Known pools are
 * recognised by address before any decoding (a busy program announces every swap), and so are
 * accounts of a pool's size that turned out not to be pools (a bounded set, each with its first
 * bytes: an account allocated first and initialised as a pool later is decoded again).
 *
 * Bounded: at most `maxPools` pools held from announcements (past that, a new pool waits for the
 * listing's refresh or pair discovery, told once). A provider that refuses a program's
 * subscription or the websocket is told once per change (`onError`), counted in metrics, and
 * shown by `status()` (the service's `/readyz`); the other sources keep finding pools meanwhile.
 */
import type { AnyAmmAdapter, PoolMintLayout } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { marketOfAccount } from "../core/quote/market.js";
import { poolSubscriptionFilters } from "../core/quote/pool-mint-offsets.js";
import type { Market } from "../core/quote/market.js";
import { ProgramSubscriptions } from "./program-subscriptions.js";
import { TableMarketSource } from "./market-table.js";
import { marketSubscriptionMetrics as metrics } from "./market-subscription-metrics.js";

/** Pools held from announcements at most, by default. */
export const DEFAULT_MAX_STREAMED_POOLS = 200_000;
/** Addresses remembered as "not a pool" (announced, decoded, refused), oldest forgotten first. */
const NOT_POOLS_REMEMBERED = 10_000;
/** How much of a not-a-pool account's data is remembered (a discriminator or status set later changes it). */
const NOT_POOL_PREFIX_BYTES = 64;

export interface SubscriptionSourceOptions {
  readonly adapters: ReadonlyMap<string, AnyAmmAdapter>;
  readonly onError: (error: unknown, what: string) => void;
  readonly changed: (pair?: string) => void;
  /** Whether the pool is known already from another source (the service's listing). */
  readonly knownElsewhere: (address: string) => boolean;
  /** A closed pool: the other sources drop it too. */
  readonly closed: (address: string, market: Market | undefined) => void;
  readonly limits?: SubscriptionLimits;
}

export interface SubscriptionLimits {
  /** Pools held from announcements at most (default 200,000). */
  readonly maxPools?: number;
  /** First wait before a refused program is asked again (default 1 min, doubling to 30 min). */
  readonly refusedRetryMs?: number;
}

/** What the subscriptions do now (`/readyz`). */
export interface SubscriptionStatus {
  /** The AMMs subscribed to. */
  readonly programs: readonly string[];
  /** Every subscription answered on the open websocket. */
  readonly connected: boolean;
  /** Why the websocket is down, while it is after a failure. */
  readonly down?: string;
  /** AMMs whose subscription the provider refuses now, with its answer (asked again later). */
  readonly refused: readonly { readonly label: string; readonly reason: string }[];
  readonly pools: number;
}

export class SubscriptionSource extends TableMarketSource {
  private subscriptions: ProgramSubscriptions | undefined;
  private labels = new Map<string, string>();
  private down: string | undefined;
  private connected = false;
  private readonly refused = new Map<string, string>();
  /** Address → the first bytes of the data that did not decode as a pool. */
  private readonly notPools = new Map<string, string>();
  private full = false;
  private markSubscribed: () => void = () => {};
  private readonly subscribed = new Promise<void>((resolve) => {
    this.markSubscribed = resolve;
  });

  constructor(private readonly options: SubscriptionSourceOptions) {
    super(options.changed);
  }

  get started(): boolean {
    return this.subscriptions !== undefined;
  }

  /** Subscribes to each program (with its pool layout's account size) at `url`. */
  start(url: string, programs: readonly { adapter: AnyAmmAdapter; layout: PoolMintLayout }[]): void {
    this.labels = new Map(programs.map(({ adapter }) => [base58Of(adapter.programId), adapter.label]));
    for (const label of this.labels.values()) metrics.followed.set({ amm: label }, 0);
    this.subscriptions = new ProgramSubscriptions(
      url,
      programs.map(({ adapter, layout }) => ({ programId: adapter.programId, filters: poolSubscriptionFilters(layout) })),
      {
        account: (address, account) => this.account(address, account),
        subscribed: (program) => this.followed(program),
        refused: (program, reason, retryMs) => this.refusedBy(program, reason, retryMs),
        connected: () => {
          this.down = undefined;
          this.connected = true;
          this.markSubscribed();
        },
        disconnected: (reason) => this.disconnected(reason),
      },
      this.options.limits?.refusedRetryMs,
    );
    this.subscriptions.start();
  }

  /** Resolves once every program's subscription was answered (confirmed or refused), the first time. */
  whenSubscribed(): Promise<void> {
    return this.subscribed;
  }

  status(): SubscriptionStatus {
    return {
      programs: [...this.labels.values()],
      connected: this.connected,
      ...(this.down !== undefined ? { down: this.down } : {}),
      refused: [...this.refused].map(([program, reason]) => ({ label: this.labels.get(program) ?? program, reason })),
      pools: this.table.size,
    };
  }

  /** A pool account as announced: a new pool enters, a closed one (`null`) leaves. */
  account(address: string, account: AccountData | null): void {
    metrics.notifications.inc();
    if (account === null) {
      this.notPools.delete(address);
      this.options.closed(address, this.table.delete(address));
      metrics.pools.set(this.table.size);
      return;
    }
    if (this.table.has(address) || this.options.knownElsewhere(address)) return;
    if (this.notPools.get(address) === prefixOf(account)) return;
    if (this.table.size >= (this.options.limits?.maxPools ?? DEFAULT_MAX_STREAMED_POOLS)) {
      if (!this.full)
        this.options.onError(
          new Error(`${this.table.size} pools held`),
          "market subscriptions: full; further new pools enter at the listing's next refresh (by pair discovery where the listing is refused)",
        );
      this.full = true;
      return;
    }
    const market = marketOfAccount(this.options.adapters, account, "discovered");
    if (typeof market === "string") return this.rememberNotPool(address, account);
    this.table.set(market);
    metrics.pools.set(this.table.size);
  }

  close(): void {
    this.subscriptions?.close();
    this.subscriptions = undefined;
  }

  private followed(program: string): void {
    this.refused.delete(program);
    metrics.followed.set({ amm: this.labels.get(program) ?? program }, 1);
  }

  private refusedBy(program: string, reason: string, retryMs: number): void {
    const label = this.labels.get(program) ?? program;
    metrics.refusals.inc({ amm: label });
    metrics.followed.set({ amm: label }, 0);
    // Told when it starts being refused, not at each retry.
    if (!this.refused.has(program)) {
      this.options.onError(
        new Error(reason),
        `market subscriptions: ${label} not followed (asked again in ${Math.round(retryMs / 1000)} s); its new pools enter at the listing's next refresh (by pair discovery where the listing is refused)`,
      );
    }
    this.refused.set(program, reason);
  }

  private disconnected(reason: string): void {
    this.connected = false;
    metrics.disconnects.inc();
    for (const label of this.labels.values()) metrics.followed.set({ amm: label }, 0);
    this.refused.clear();
    // Told when it goes down, not at each failed reconnect.
    if (this.down === undefined)
      this.options.onError(
        new Error(reason),
        "market subscriptions: websocket down (reconnecting); new pools enter at the listing's next refresh meanwhile (by pair discovery where the listing is refused)",
      );
    this.down = reason;
  }

  private rememberNotPool(address: string, account: AccountData): void {
    this.notPools.delete(address);
    if (this.notPools.size >= NOT_POOLS_REMEMBERED) this.notPools.delete(this.notPools.keys().next().value!);
    this.notPools.set(address, prefixOf(account));
  }
}

function prefixOf(account: AccountData): string {
  return Buffer.from(account.data.buffer, account.data.byteOffset, Math.min(NOT_POOL_PREFIX_BYTES, account.data.length)).toString("latin1");
}

/** What `/readyz` says of the subscriptions: why new pools are not followed (undefined: they are, or subscriptions are off). */
export function subscriptionTrouble(status: SubscriptionStatus | undefined): string | undefined {
  if (status === undefined) return undefined;
  const fallback = "new pools enter at the listing's next refresh (by pair discovery where the listing is refused)";
  if (status.down !== undefined) return `websocket down (${status.down}); reconnecting; ${fallback}`;
  if (!status.connected) return "subscribing";
  if (status.refused.length === 0) return undefined;
  return `${status.refused.map((r) => `${r.label} not followed (${r.reason})`).join("; ")}; asked again later; ${fallback}`;
}
