/**
 * What one plan has read: the accounts by address, what each pool's quote asked for, and what
 * follows from them alone — the decoded pools (Token-2022 filter included), the state versions a
 * memo is keyed by, the clock, and the direction the request uses a pool in.
 */
import { base58Of } from "../solana/base58-strings.js";
import type { AccountData } from "../solana/account.js";
import { CLOCK_SYSVAR, decodeClock } from "../solana/clock-sysvar.js";
import type { QuoteClock } from "../amm/adapter.js";
import { decodeMintInfo } from "../solana/token-accounts.js";
import type { Market } from "./market.js";
import type { ParsedQuoteRequest } from "./quote-request.js";
import { poolCannotQuote } from "./plan-types.js";
import type { SuppliedAccount } from "./plan-types.js";
import type { DecodedPool, SharedState } from "./plan-shared-state.js";

export class PlanReads {
  readonly accounts = new Map<string, AccountData | null>();
  /** Per pool address: every account its quote asked for (mints, vaults, configs, arrays). */
  readonly depsOf = new Map<string, string[]>();
  /** Per pool address: the versions of its account and its deps (the math-quote memo's key). */
  private readonly poolVersions = new Map<string, string>();
  /** Batches supplied so far (the first: the pools and the Clock). */
  batches = 0;
  readonly inputMint: string;
  readonly outputMint: string;

  constructor(
    readonly shared: SharedState,
    readonly request: ParsedQuoteRequest,
  ) {
    this.inputMint = base58Of(request.inputMint);
    this.outputMint = base58Of(request.outputMint);
  }

  supply(accounts: ReadonlyMap<string, SuppliedAccount>): void {
    for (const [address, entry] of accounts) this.accounts.set(address, entry.account);
    this.poolVersions.clear();
    this.batches += 1; // the pools' memo entries are looked up again (`PoolQuotes.memoOf`)
  }

  /** The Clock sysvar as read, or undefined before it is. */
  clock(): QuoteClock | undefined {
    const clockAccount = this.accounts.get(base58Of(CLOCK_SYSVAR));
    return clockAccount ? decodeClock(clockAccount) : undefined;
  }

  /** The market's pool state, or undefined when the account is gone, moved to another program, or not a pool that quotes. */
  decode(market: Market): DecodedPool | undefined {
    const account = this.accounts.get(market.addressText);
    if (!account || !account.owner.equals(market.programId)) return undefined;
    const adapter = this.shared.adapters.get(base58Of(market.programId));
    if (!adapter || !(adapter.quote || (adapter.quotedByProgram && this.shared.programQuotes?.canQuote(adapter)))) return undefined;
    let pool = this.shared.decoded.get(account);
    if (pool === undefined) {
      try {
        pool = adapter.decodePool(account);
      } catch (error) {
        if (!poolCannotQuote(error)) throw error;
        return undefined; // the account is no longer a pool of this AMM (closed and reused, resized)
      }
      this.shared.decoded.set(account, pool);
    }
    return { market, addressText: market.addressText, adapter, pool, memo: undefined, memoIndex: -1, memoAt: -1, mintKeys: undefined };
  }

  /** The direction a pool is used in by this request's routes (from the input, else into the output). */
  aToBOf(market: Market): boolean {
    if (market.mints[0] === this.inputMint) return true;
    if (market.mints[1] === this.inputMint) return false;
    return market.mints[1] === this.outputMint;
  }

  /**
   * Whether transfers of the pool's mints move exactly the amounts the pool's math sees: not with
   * a Token-2022 transfer fee (not applied by the quote math yet) or a transfer hook (whose extra
   * accounts the swap does not pass).
   */
  transfersInFull(p: DecodedPool): boolean {
    // Decoded once per mint account version: a pair's many pools share their two mints.
    const cache = this.shared.mintMovesInFull;
    return p.market.mints.every((mint) => {
      const account = this.accounts.get(mint);
      if (!account) return false;
      let inFull = cache.get(account);
      if (inFull === undefined) {
        const info = decodeMintInfo(account);
        inFull = info !== undefined && info.transferHookProgram === undefined && info.transferFeeBasisPoints === undefined;
        cache.set(account, inFull);
      }
      return inFull;
    });
  }

  /** The accounts a pool's quote reads: the pool and what its quote asked for. */
  readsOf(address: string): string[] {
    return [address, ...(this.depsOf.get(address) ?? [])];
  }

  /** Every account a choice over `markets` read: the pool accounts and what their quotes asked for. */
  dependenciesOf(markets: readonly Market[]): string[] {
    const out = new Set<string>();
    for (const m of markets) {
      out.add(m.addressText);
      for (const d of this.depsOf.get(m.addressText) ?? []) out.add(d);
    }
    return [...out];
  }

  /**
   * The versions of the pool's account and of every account its quote asked for, in one string: a
   * math quote depends on nothing else, so requests over unchanged state (the live cache hands out
   * one object per account version) reuse it. Route search asks each pool for some twenty split
   * shares, and some AMMs' math costs near a millisecond a call (Whirlpool's wasm).
   */
  poolVersion(p: DecodedPool): string {
    let text = this.poolVersions.get(p.addressText);
    if (text !== undefined) return text;
    const parts = [this.versionOf(p.addressText)];
    for (const address of this.depsOf.get(p.addressText) ?? []) parts.push(this.versionOf(address));
    text = parts.join(",");
    this.poolVersions.set(p.addressText, text);
    return text;
  }

  private versionOf(address: string): string {
    const account = this.accounts.get(address);
    if (!account) return "-";
    const shared = this.shared;
    let id = shared.versionIds.get(account);
    if (id === undefined) {
      id = shared.nextVersionId++;
      shared.versionIds.set(account, id);
    }
    return String(id);
  }
}
