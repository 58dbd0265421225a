/**
 * The quote engine's part of the swap API, wired: markets (discovery, MARKETS_FILE, POST
 * /markets), the account source shared with the swap path, lookup tables found by authority,
 * the quote, swap-transaction and WatchQuote operations, and their Connect handlers and REST routes.
 */
import type { ProgramQuotes, ShadowResult } from "../../core/quote/quote-planner.js";
import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import type { AccountSource } from "../../chain/account-source.js";
import { LookupTableIndex } from "../../chain/lookup-table-index.js";
import { MarketIndex } from "../../chain/market-index.js";
import type { ListingSettings } from "../../chain/market-index.js";
import type { KeptListingsProgress } from "../../chain/market-listing-source.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { AnyAmmAdapter } from "../../core/amm/adapter.js";
import type { DiscoverySettings } from "../../core/quote/market-limits.js";
import { ammAdapters } from "../../core/amm/registry.js";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import { ProgramIdToLabelResponseSchema, WatchQuoteResponseSchema } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { SwapInstructionsRequest as ProtoSwapInstructionsRequest, SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { RestRoute } from "../../server/rest.js";
import { streamStopSignal, throwIfShuttingDown } from "../../server/context.js";
import { swapRequestFromProto } from "../swap/proto-mapping.js";
import type { SwapInstructionsOperation } from "../swap/swap-instructions.js";
import { createQuoteEngine } from "./quote-engine.js";
import type { ShadowOptions } from "./quote-shadow.js";
import type { QuoteEngine, QuoteEngineDeps } from "./quote-engine.js";
import { recordRouteRates } from "../../core/swap/auto-slippage.js";
import type { PoolRateHistory } from "../../core/swap/auto-slippage.js";
import { quoteRequestFromProto, quoteResponseToProto, swapTransactionToProto } from "./quote-proto.js";
import { quoteRestRoutes } from "./quote-rest-routes.js";
import { createSwapTransaction } from "./swap-transaction.js";
import type { SwapIssuedListener, SwapTransactionOperation } from "./swap-transaction.js";
import { parseWatchQuote, watchQuotes } from "./watch-quote.js";

export interface QuoteApiOptions {
  /** MARKETS_FILE: JSON array of pool addresses, reloaded when it changes. */
  readonly marketsFile?: string;
  /** MARKET_DISCOVERY_TTL_MS: how long discovered markets of a pair are used before a refresh; 0 = no discovery. */
  readonly marketDiscoveryTtlMs?: number;
  /** DISCOVERY_*: limits of on-chain discovery (defaults: DEFAULT_DISCOVERY_SETTINGS). */
  readonly discovery?: Partial<DiscoverySettings>;
  /** MARKET_LISTING (on by default): every pool of each program listed by the service, kept in `keepDir`, listed again every `refreshMs`. */
  readonly marketListing?: ListingSettings;
  /** Told each program the listing listed. */
  readonly onMarketsListed?: (label: string, pools: number, ms: number) => void;
  /** Told each kept listing read at start, with the progress so far. */
  readonly onKeptListingRead?: (label: string, pools: number, ms: number, progress: KeptListingsProgress) => void;
  /** PubSub websocket URL (MARKET_SUBSCRIPTIONS=1): new pools enter the index as they appear, closed ones leave. */
  readonly marketSubscriptionsUrl?: string;
  /** MAX_POOLS_PER_PAIR: pools of one pair a quote prices (default DEFAULT_MAX_POOLS_PER_PAIR). */
  readonly maxPoolsPerPair?: number;
  /** MARKETS_ADDED_MAX: pools POST /markets may add in all. */
  readonly marketsAddedMax?: number;
  /** INTERMEDIATE_TOKENS (base58). Default: SOL, USDC, USDT. */
  readonly intermediateTokens?: readonly string[];
  /** LOOKUP_TABLE_AUTHORITIES (base58): tables they own are candidates for every transaction. */
  readonly lookupTableAuthorities?: readonly string[];
  readonly adapters?: readonly AnyAmmAdapter[];
  /** The program quoter (PROGRAM_QUOTED_AMMS): pools of AMMs without public math take part in routes. */
  readonly programQuotes?: ProgramQuotes;
  /** QUOTE_SHADOW_RATE: the share of quotes whose math-quoted legs the program quoter checks (0–1). */
  readonly shadowRate?: number;
  /** Told each shadow-checked leg whose program paid another amount than the math. */
  readonly onShadowMismatch?: (result: ShadowResult) => void;
  /** WatchQuote's re-quote period without notifications, ms. */
  readonly watchPollMs?: number;
  readonly onError?: (error: unknown, what: string) => void;
}

export interface QuoteApi {
  readonly engine: QuoteEngine;
  readonly markets: MarketIndex;
  readonly lookupTables: LookupTableIndex;
  readonly swapTransaction: SwapTransactionOperation;
  /** `listener` hears every transaction `swap` hands out, before it is answered. */
  onSwapIssued(listener: SwapIssuedListener): void;
  readonly handlers: Pick<ServiceImpl<typeof SwapService>, "quote" | "swap" | "watchQuote" | "programIdToLabel">;
  readonly restRoutes: readonly RestRoute[];
  /** Loads MARKETS_FILE and the lookup tables; call once before serving. */
  start(): Promise<void>;
  close(): void;
}

/** The lookup-table index the swap builder reads from; created before the swap operation. */
export function createLookupTableIndex(chain: SolanaChain, options: QuoteApiOptions): LookupTableIndex {
  const report = options.onError ?? (() => {});
  return new LookupTableIndex(
    chain,
    (options.lookupTableAuthorities ?? []).map((k) => publicKeyFromBase58(k)),
    {
      onError: (error) => report(error, "reading lookup tables"),
    },
  );
}

/** What the quote API is wired to (shared with the swap path). */
export interface QuoteApiDeps {
  readonly chain: SolanaChain;
  /** The one account source (chain/account-source.ts): live cache, joined reads, batched misses. */
  readonly accounts: AccountSource;
  readonly swapInstructions: SwapInstructionsOperation;
  readonly lookupTables: LookupTableIndex;
  /** Where every route's pools' rates are sampled (automatic slippage). */
  readonly poolRates?: PoolRateHistory;
}

/** The Connect handlers: each maps its request to the operation; errors are mapped by the server's interceptor. */
function quoteHandlers(
  engine: QuoteEngine,
  swapTransaction: SwapTransactionOperation,
  accounts: AccountSource,
  options: QuoteApiOptions,
): QuoteApi["handlers"] {
  return {
    async quote(req) {
      return quoteResponseToProto((await engine.quote(quoteRequestFromProto(req))).response);
    },
    async swap(req) {
      return swapTransactionToProto(await swapTransaction(swapRequestFromProto(req as unknown as ProtoSwapInstructionsRequest)));
    },
    async *watchQuote(req, context) {
      const parsed = parseWatchQuote(engine, req.quote ? quoteRequestFromProto(req.quote) : undefined, req.minIntervalMs);
      const stop = streamStopSignal(context);
      try {
        for await (const event of watchQuotes(engine, accounts, parsed.request, parsed.minIntervalMs, stop, {
          ...(options.watchPollMs !== undefined ? { pollMs: options.watchPollMs } : {}),
        })) {
          yield "quote" in event
            ? create(WatchQuoteResponseSchema, { quote: quoteResponseToProto(event.quote) })
            : create(WatchQuoteResponseSchema, { error: event.error });
        }
      } catch (error) {
        // Stopped mid-quote: the client went away (no one to tell), or shutdown (said below).
        if (!stop.aborted) throw error;
      }
      throwIfShuttingDown(context);
    },
    programIdToLabel() {
      return create(ProgramIdToLabelResponseSchema, { labels: engine.programIdToLabel });
    },
  };
}

function shadowOptions(options: QuoteApiOptions): ShadowOptions {
  const mismatch = options.onShadowMismatch;
  return {
    rate: options.shadowRate ?? 0,
    ...(mismatch
      ? {
          onResult: (r: ShadowResult) => {
            if (r.programOut !== undefined && r.programOut !== r.mathOut) mismatch(r);
          },
        }
      : {}),
    ...(options.onError ? { onError: (error: unknown) => options.onError!(error, "quote shadow check") } : {}),
  };
}

function onRouteSampling(history: PoolRateHistory): QuoteEngineDeps["onRoute"] {
  return (route, slotOf) => recordRouteRates(history, route, slotOf);
}

export function createQuoteApi(deps: QuoteApiDeps, options: QuoteApiOptions = {}): QuoteApi {
  const { chain, accounts, lookupTables } = deps;
  const adapters = options.adapters ?? ammAdapters;
  const programQuotes = options.programQuotes;
  const markets = new MarketIndex({
    chain,
    adapters,
    // Pools of a program-quoted AMM are looked for only when its program can be executed.
    discoverable: (a) => !a.quotedByProgram || programQuotes?.canQuote(a) === true,
    ...(options.marketDiscoveryTtlMs !== undefined ? { discoveryTtlMs: options.marketDiscoveryTtlMs } : {}),
    ...(options.discovery ? { discovery: options.discovery } : {}),
    ...(options.marketSubscriptionsUrl ? { subscriptionsUrl: options.marketSubscriptionsUrl } : {}),
    ...(options.intermediateTokens ? { hubTokens: options.intermediateTokens } : {}),
    ...(options.marketsFile ? { marketsFile: options.marketsFile } : {}),
    ...(options.marketsAddedMax !== undefined ? { addedMax: options.marketsAddedMax } : {}),
    ...(options.marketListing ? { listing: options.marketListing } : {}),
    ...(options.onMarketsListed ? { onListed: options.onMarketsListed } : {}),
    ...(options.onKeptListingRead ? { onKeptRead: options.onKeptListingRead } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const engine = createQuoteEngine({
    chain,
    accounts,
    markets,
    adapters,
    ...(options.programQuotes ? { programQuotes: options.programQuotes } : {}),
    ...(options.intermediateTokens ? { intermediateTokens: options.intermediateTokens } : {}),
    ...(options.maxPoolsPerPair !== undefined ? { limits: { maxPoolsPerPair: options.maxPoolsPerPair } } : {}),
    ...(options.shadowRate ? { shadow: shadowOptions(options) } : {}),
    ...(deps.poolRates ? { onRoute: onRouteSampling(deps.poolRates) } : {}),
    ...(options.onError ? { curves: { onError: (error: unknown) => options.onError!(error, "making a pool curve") } } : {}),
  });
  const issuedListeners: SwapIssuedListener[] = [];
  const swapTransaction = createSwapTransaction(deps.swapInstructions, issuedListeners);
  return {
    engine,
    markets,
    lookupTables,
    swapTransaction,
    onSwapIssued: (listener) => void issuedListeners.push(listener),
    handlers: quoteHandlers(engine, swapTransaction, accounts, options),
    restRoutes: quoteRestRoutes(engine, swapTransaction, markets),
    async start() {
      await Promise.all([markets.start(), lookupTables.start()]);
    },
    close() {
      markets.close();
      lookupTables.close();
    },
  };
}
