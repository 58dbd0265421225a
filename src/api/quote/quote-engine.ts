/**
 * The quote operation: validate → candidate markets (the pair, and each pair through the
 * intermediate tokens) → pool state from the account source (the live cache: memory) → the
 * accounts each AMM's quote needs, in at most three rounds → the router (core/quote) → Jupiter's
 * `QuoteResponse`. `contextSlot` is the oldest slot among the accounts the quote read.
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { AmmError } from "../../core/amm/adapter.js";
import type { AmmAdapter, QuoteClock, SwapMode } from "../../core/amm/adapter.js";
import type { AccountData } from "../../core/solana/account.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { BoundedLruMap } from "../../core/solana/bounded-lru-map.js";
import { decodeMintInfo } from "../../core/solana/token-accounts.js";
import { labelAllowed, parseQuoteRequest } from "../../core/quote/quote-request.js";
import type { ParsedQuoteRequest, QuoteRequestInput } from "../../core/quote/quote-request.js";
import { quoteResponseJson } from "../../core/quote/quote-response.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { findBestRoute, marginalRate } from "../../core/quote/route-search.js";
import type { RoutablePool, Route } from "../../core/quote/route-search.js";
import { ValidationError } from "../../core/validation-error.js";
import { CLOCK_SYSVAR, decodeClock } from "./quote-accounts.js";
import type { QuoteAccount, QuoteAccountSource } from "./quote-accounts.js";
import type { Market, MarketIndex } from "./market-index.js";
import { NoRouteError } from "./no-route-error.js";

/** Mainnet SOL (wSOL), USDC and USDT: Jupiter's stable intermediate tokens. */
export const DEFAULT_INTERMEDIATE_TOKENS: readonly string[] = [
  "So11111111111111111111111111111111111111112",
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY2QC1xxm5o2mxFF",
];

/** Rounds of `quoteAccounts` reads (what the first reads reveal can name more). */
const QUOTE_ACCOUNT_ROUNDS = 3;
/** Step accounts when the adapter cannot build a step for counting (a conservative estimate). */
const FALLBACK_STEP_ACCOUNTS = 20;

interface SampleStep {
  readonly builds: boolean;
  readonly accounts: number;
}

export interface QuoteEngineDeps {
  readonly chain: SolanaChain;
  readonly accounts: QuoteAccountSource;
  readonly markets: MarketIndex;
  readonly adapters: readonly AmmAdapter<any>[];
  /** Tokens 2-hop routes pass through (base58). Default: SOL, USDC, USDT. */
  readonly intermediateTokens?: readonly string[];
  /** Monotonic ms, for `timeTaken`. */
  readonly clock?: () => number;
}

export interface QuoteOutcome {
  readonly response: QuoteResponseJson;
  readonly route: Route;
  /** Every account the quote read (pools and what their quotes needed): what WatchQuote follows. */
  readonly accountsRead: readonly string[];
}

export type QuoteOperation = (input: QuoteRequestInput) => Promise<QuoteOutcome>;

export interface QuoteEngine {
  readonly quote: QuoteOperation;
  /** Validated quotes (WatchQuote validates once). */
  quoteParsed(request: ParsedQuoteRequest): Promise<QuoteOutcome>;
  readonly parse: (input: QuoteRequestInput) => ParsedQuoteRequest;
  /** Program id → label of every AMM. */
  readonly programIdToLabel: Readonly<Record<string, string>>;
}

interface DecodedPool {
  readonly market: Market;
  readonly adapter: AmmAdapter<any>;
  readonly pool: unknown;
}

export function createQuoteEngine(deps: QuoteEngineDeps): QuoteEngine {
  const adapters = new Map(deps.adapters.map((a) => [base58Of(a.programId), a]));
  const knownLabels = new Set(deps.adapters.map((a) => a.label));
  const intermediates = deps.intermediateTokens ?? DEFAULT_INTERMEDIATE_TOKENS;
  const clockMs = deps.clock ?? (() => performance.now());
  // Decoding is per account version: the live cache hands out the same object until it changes.
  const decoded = new WeakMap<AccountData, unknown>();
  const sampleSteps = new BoundedLruMap<string, SampleStep>(20_000);
  const programIdToLabel = Object.fromEntries(deps.adapters.map((a) => [base58Of(a.programId), a.label]));

  const parse = (input: QuoteRequestInput) => parseQuoteRequest(input, knownLabels);

  async function candidateMarkets(request: ParsedQuoteRequest): Promise<{ markets: Market[]; middles: string[] }> {
    const x = base58Of(request.inputMint);
    const y = base58Of(request.outputMint);
    let middles: string[] = [];
    if (!request.onlyDirectRoutes) {
      middles = intermediates.filter((m) => m !== x && m !== y);
      if (!request.restrictIntermediateTokens) {
        // Any token both sides already have a known market with.
        const known = deps.markets.known();
        const fromX = new Set(known.flatMap((m) => (m.mints.includes(x) ? m.mints.filter((k) => k !== x) : [])));
        for (const m of known) {
          if (!m.mints.includes(y)) continue;
          const other = m.mints[0] === y ? m.mints[1] : m.mints[0];
          if (other !== x && fromX.has(other) && !middles.includes(other)) middles.push(other);
        }
      }
    }
    const lists = await Promise.all([
      deps.markets.forPair(x, y),
      ...middles.flatMap((m) => [deps.markets.forPair(x, m), deps.markets.forPair(m, y)]),
    ]);
    const unique = new Map<string, Market>();
    for (const list of lists) for (const m of list) if (labelAllowed(request, m.label)) unique.set(m.addressText, m);
    return { markets: [...unique.values()], middles };
  }

  function decode(market: Market, account: AccountData | null): DecodedPool | undefined {
    if (!account || !account.owner.equals(market.programId)) return undefined;
    const adapter = adapters.get(base58Of(market.programId));
    if (!adapter?.quote) return undefined;
    let pool = decoded.get(account);
    if (pool === undefined) {
      try {
        pool = adapter.decodePool(account);
      } catch {
        return undefined;
      }
      decoded.set(account, pool);
    }
    return { market, adapter, pool };
  }

  /** The direction a pool is used in by this request's routes (from the input, else into the output). */
  function aToBOf(market: Market, request: ParsedQuoteRequest): boolean {
    const x = base58Of(request.inputMint);
    const y = base58Of(request.outputMint);
    if (market.mints[0] === x) return true;
    if (market.mints[1] === x) return false;
    return market.mints[1] === y;
  }

  /**
   * A step through `p` built with stand-in token accounts, once per pool, direction and mode: its
   * account count prices the step against `maxAccounts`, and an ExactOut step that does not
   * build (a variant Jupiter's exact-out routes refuse) keeps the pool out of ExactOut routes.
   */
  function sampleStep(p: DecodedPool, aToB: boolean, swapMode: SwapMode, accounts: ReadonlyMap<string, AccountData | null>): SampleStep {
    const key = `${p.market.addressText}:${aToB}:${swapMode}`;
    const cached = sampleSteps.get(key);
    if (cached !== undefined) return cached;
    const [a, b] = p.adapter.mints(p.pool);
    let sample: SampleStep;
    try {
      // Any keys stand in for the token accounts: only the variant and the number of accounts are used.
      const built = p.adapter.build(
        p.pool,
        {
          sourceMint: aToB ? a : b,
          destinationMint: aToB ? b : a,
          sourceTokenAccount: CLOCK_SYSVAR,
          destinationTokenAccount: CLOCK_SYSVAR,
          tokenTransferAuthority: CLOCK_SYSVAR,
          user: CLOCK_SYSVAR,
          inAmount: 1n,
          outAmount: 1n,
          swapMode,
        },
        accounts,
      );
      sample = { builds: true, accounts: built.accounts.length };
    } catch (error) {
      // An AmmError is the adapter's refusal; anything else leaves the estimate.
      sample = { builds: !(error instanceof AmmError), accounts: FALLBACK_STEP_ACCOUNTS };
      if (!(error instanceof AmmError)) return sample; // not the adapter's answer: ask again next time
    }
    sampleSteps.set(key, sample);
    return sample;
  }

  /**
   * Whether transfers of the pool's mints move exactly the amounts the pool's math sees: not with
   * a Token-2022 transfer fee (not applied by the quote math yet) or a transfer hook (whose extra
   * accounts the swap does not pass). Pools of other mints are left out of routes.
   */
  function transfersInFull(p: DecodedPool, accounts: ReadonlyMap<string, AccountData | null>): boolean {
    return p.adapter.mints(p.pool).every((mint) => {
      const account = accounts.get(base58Of(mint));
      const info = account ? decodeMintInfo(account) : undefined;
      return info !== undefined && info.transferHookProgram === undefined && info.transferFeeBasisPoints === undefined;
    });
  }

  async function quoteParsed(request: ParsedQuoteRequest): Promise<QuoteOutcome> {
    const started = clockMs();
    const mints = await deps.chain.getMints([request.inputMint, request.outputMint]);
    for (const [field, key] of [
      ["inputMint", request.inputMint],
      ["outputMint", request.outputMint],
    ] as const) {
      if (!mints.get(base58Of(key))) throw new ValidationError(field, "unknown_mint", `no mint account ${base58Of(key)} on chain`);
    }
    const { markets, middles } = await candidateMarkets(request);
    if (markets.length === 0) throw new NoRouteError("no market trades these tokens (directly or through an intermediate token)");

    const state = new Map<string, QuoteAccount>(await deps.accounts.ensure([CLOCK_SYSVAR, ...markets.map((m) => m.address)]));
    const accountMap = new Map<string, AccountData | null>();
    for (const [address, entry] of state) accountMap.set(address, entry.account);
    const pools = markets.map((m) => decode(m, accountMap.get(m.addressText) ?? null)).filter((p): p is DecodedPool => p !== undefined);

    for (let round = 0; round < QUOTE_ACCOUNT_ROUNDS; round++) {
      const missing = new Map<string, PublicKey>();
      for (const p of pools) {
        // The mints' owners pick a step's variant (Token-2022 or not), which decides whether it builds.
        if (round === 0) for (const mint of p.adapter.mints(p.pool)) if (!accountMap.has(base58Of(mint))) missing.set(base58Of(mint), mint);
        if (!p.adapter.quoteAccounts) continue;
        let keys: PublicKey[];
        try {
          keys = p.adapter.quoteAccounts(p.pool, { amount: request.amount, swapMode: request.swapMode, aToB: aToBOf(p.market, request) }, accountMap);
        } catch {
          continue; // the pool is skipped when it cannot quote
        }
        for (const key of keys) {
          const text = base58Of(key);
          if (!accountMap.has(text)) missing.set(text, key);
        }
      }
      if (missing.size === 0) break;
      for (const [address, entry] of await deps.accounts.ensure([...missing.values()])) {
        state.set(address, entry);
        accountMap.set(address, entry.account);
      }
    }

    const clockAccount = accountMap.get(base58Of(CLOCK_SYSVAR));
    if (!clockAccount) throw new Error("the Clock sysvar could not be read");
    const clock: QuoteClock = decodeClock(clockAccount);
    const routable: RoutablePool[] = pools.map((p) => ({
      address: p.market.addressText,
      label: p.market.label,
      mints: p.market.mints,
      stepAccounts: sampleStep(p, aToBOf(p.market, request), request.swapMode, accountMap).accounts,
      quote(amount: bigint, swapMode: SwapMode, aToB: boolean) {
        if (!transfersInFull(p, accountMap)) return undefined;
        if (swapMode === "ExactOut" && !(p.adapter.supportsExactOut && sampleStep(p, aToB, swapMode, accountMap).builds)) return undefined;
        try {
          return p.adapter.quote!(p.pool, { amount, swapMode, aToB }, accountMap, clock);
        } catch {
          return undefined; // paused, not open, missing arrays, overflow: not routable for this amount
        }
      },
    }));
    const route = findBestRoute({
      inputMint: base58Of(request.inputMint),
      outputMint: base58Of(request.outputMint),
      amount: request.amount,
      swapMode: request.swapMode,
      pools: routable,
      intermediates: middles,
      maxAccounts: request.maxAccounts,
    });
    if (!route) throw new NoRouteError(`no route fills ${request.amount} (${markets.length} markets considered)`);

    let contextSlot = Number.MAX_SAFE_INTEGER;
    for (const entry of state.values()) contextSlot = Math.min(contextSlot, entry.slot);
    const response = quoteResponseJson(request, route, {
      contextSlot: contextSlot === Number.MAX_SAFE_INTEGER ? 0 : contextSlot,
      timeTaken: (clockMs() - started) / 1000,
      marginalRate: marginalRate(route),
    });
    return { response, route, accountsRead: [...state.keys()] };
  }

  return {
    quote: (input) => quoteParsed(parse(input)),
    quoteParsed,
    parse,
    programIdToLabel,
  };
}

