/**
 * Pools announced by program subscriptions (PubSub `programSubscribe` to each searched AMM
 * program): new pools enter and closed ones leave as they happen. Known pools are recognised by
 * address before any decoding (a busy program announces every swap).
 */
import type { AmmAdapter, PoolMintLayout } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { marketOfAccount } from "../core/quote/market.js";
import type { Market } from "../core/quote/market.js";
import { ProgramSubscriptions } from "./program-subscriptions.js";
import { MarketTable } from "./market-table.js";
import type { MarketSource } from "./market-source.js";

export interface SubscriptionSourceOptions {
  readonly adapters: ReadonlyMap<string, AmmAdapter<any>>;
  readonly onError: (error: unknown, what: string) => void;
  readonly changed: (pair: string) => void;
  /** Whether the pool is known already from another source (the service's listing). */
  readonly knownElsewhere: (address: string) => boolean;
  /** A closed pool: the other sources drop it too. */
  readonly closed: (address: string, market: Market | undefined) => void;
}

export class SubscriptionSource implements MarketSource {
  private readonly table: MarketTable;
  private subscriptions: ProgramSubscriptions | undefined;
  private markSubscribed: () => void = () => {};
  private readonly subscribed = new Promise<void>((resolve) => {
    this.markSubscribed = resolve;
  });

  constructor(private readonly options: SubscriptionSourceOptions) {
    this.table = new MarketTable(options.changed);
  }

  get started(): boolean {
    return this.subscriptions !== undefined;
  }

  /** Subscribes to each program (with its pool layout's account size) at `url`. */
  start(url: string, programs: readonly { adapter: AmmAdapter<any>; layout: PoolMintLayout }[]): void {
    this.subscriptions = new ProgramSubscriptions(
      url,
      programs.map(({ adapter, layout }) => ({ programId: adapter.programId, dataSize: layout.dataSize })),
      {
        account: (address, account) => this.account(address, account),
        connected: () => this.markSubscribed(),
        disconnected: (reason) => this.options.onError(new Error(reason), "market subscriptions"),
      },
    );
    this.subscriptions.start();
  }

  /** Resolves once every program subscription is confirmed (the first time). */
  whenSubscribed(): Promise<void> {
    return this.subscribed;
  }

  /** A pool account as announced: a new pool enters, a closed one (`null`) leaves. */
  account(address: string, account: AccountData | null): void {
    if (account === null) {
      this.options.closed(address, this.table.delete(address));
      return;
    }
    if (this.table.byAddress.has(address) || this.options.knownElsewhere(address)) return;
    const market = marketOfAccount(this.options.adapters, account, "discovered");
    if (typeof market !== "string") this.table.set(market);
  }

  all(): Iterable<Market> {
    return this.table.byAddress.values();
  }

  withToken(t: string): Iterable<Market> {
    return this.table.token(t);
  }

  forPair(x: string, y: string): Iterable<Market> {
    return this.table.pair(x, y);
  }

  close(): void {
    this.subscriptions?.close();
    this.subscriptions = undefined;
  }
}
