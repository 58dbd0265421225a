/** The swap and quote API over the chain and the live state, with the program quoter (on by default) and its readiness checks. */
import { join } from "node:path";
import type { Config } from "../config.js";
import { startProgramQuoter } from "../chain/program-quoter-start.js";
import { PriorityFeeKeeper } from "../chain/priority-fee-keeper.js";
import type { RpcSolanaChain } from "../chain/rpc-solana-chain.js";
import type { LiveChain } from "../chain/live/live-chain.js";
import { subscriptionTrouble } from "../chain/market-subscription-source.js";
import type { MarketIndex } from "../chain/market-index.js";
import type { KeptListingsProgress } from "../chain/market-listing-source.js";
import { ammAdapters } from "../core/amm/registry.js";
import { DEFAULT_INTERMEDIATE_TOKENS } from "../core/quote/quote-planner.js";
import { DEFAULT_MOVE_WINDOW_SLOTS } from "../core/swap/auto-slippage.js";
import type { Shutdown } from "../runtime/shutdown.js";
import type { Logger } from "../server/logger.js";
import type { ReadinessCheck } from "../server/readiness.js";
import { createSwapApi, type SwapApi } from "../api/swap-api.js";
import { definedFields } from "./defined-fields.js";
import type { OpenedChain } from "./open-chain.js";

/** The recent prioritization fees, kept warm in the background from now on. */
function startPriorityFees(config: Config, chain: RpcSolanaChain, logger: Logger, shutdown: Shutdown): PriorityFeeKeeper {
  const keeper = new PriorityFeeKeeper({
    chain,
    refreshMs: config.priorityFeeRefreshMs,
    onError: (err) => logger.warn({ err }, "priority fees: background read failed (kept samples served, retried)"),
  });
  keeper.start();
  shutdown.hook("priority fees", async () => keeper.close());
  return keeper;
}

export async function startSwapApi(
  config: Config,
  chain: OpenedChain,
  live: LiveChain | undefined,
  logger: Logger,
  shutdown: Shutdown,
): Promise<{ swap: SwapApi; readiness: ReadinessCheck[] }> {
  const programQuoter = await startProgramQuoter({
    chain: chain.chain,
    amms: config.programQuote.amms,
    adapters: ammAdapters,
    shadowMathAmms: config.programQuote.shadowRate > 0,
    cacheDir: join(config.dataDir, "programs"),
    refreshMs: config.programQuote.refreshMs,
    logger,
  });
  if (programQuoter) shutdown.hook("program quoter", () => programQuoter.close());
  const swap = createSwapApi({
    priorityFees: startPriorityFees(config, chain.chain, logger, shutdown),
    autoSlippage: { minBps: config.autoSlippageMinBps, maxBps: config.autoSlippageMaxBps, windowSlots: DEFAULT_MOVE_WINDOW_SLOTS },
    chain: chain.chain,
    lookupTables: config.lookupTables,
    relayTipAccounts: config.relayTipAccounts,
    chainStateTtlMs: config.chainStateTtlMs,
    ...definedFields({ live }),
    quote: {
      ...definedFields({
        marketsFile: config.marketsFile,
        marketSubscriptionsUrl: config.marketSubscriptions ? chain.websocketUrl : undefined,
        marketListing: config.marketListing && { ...config.marketListing, keepDir: join(config.dataDir, "markets") },
        programQuotes: programQuoter?.quoter,
        shadowRate: programQuoter && programQuoter.shadowLabels.length > 0 ? config.programQuote.shadowRate : undefined,
      }),
      marketDiscoveryTtlMs: config.marketDiscoveryTtlMs,
      discovery: config.discovery,
      maxPoolsPerPair: config.maxPoolsPerPair,
      marketsAddedMax: config.marketsAddedMax,
      onMarketsListed: (amm, pools, ms) => logger.info({ amm, pools, ms }, "market listing: program listed whole (no discovery by pair for it)"),
      onKeptListingRead: (amm, pools, ms, progress) =>
        logger.info(
          { amm, pools, ms, ...keptListingsFields(progress) },
          progress.done ? "market listing: every kept listing read" : "market listing: kept listing read (the rest are read in the background)",
        ),
      // The embedded chain's demo USDC stands in for mainnet USDC as an intermediate token.
      intermediateTokens: config.intermediateTokens ?? [...DEFAULT_INTERMEDIATE_TOKENS, ...(chain.intermediateTokens ?? [])],
      lookupTableAuthorities: config.lookupTableAuthorities,
      onShadowMismatch: (r) =>
        logger.warn(
          { amm: r.label, pool: r.pool, inAmount: String(r.inAmount), mathOut: String(r.mathOut), programOut: String(r.programOut) },
          "quote shadow check: the AMM's program pays another amount than swapd's math",
        ),
      onError: (err, what) => logger.warn({ err }, what),
    },
  });
  shutdown.hook("quote engine", () => swap.close());
  await swap.start();
  const readiness = swapReadiness(config, swap, programQuoter);
  // Degraded, not down: a refused or dropped subscription leaves new pools to the listing and discovery.
  readiness.push(marketSubscriptionsReadiness(swap.quote.markets, logger));
  return { swap, readiness };
}

/** Says which AMMs the market subscriptions follow; `/readyz` degraded while a provider refuses one or the websocket is down. */
function marketSubscriptionsReadiness(markets: MarketIndex, logger: Logger): ReadinessCheck {
  const subscriptions = markets.subscriptionStatus();
  if (subscriptions)
    logger.info({ amms: subscriptions.programs }, "market subscriptions: new pools of these AMMs enter as they appear (MARKET_SUBSCRIPTIONS=0 turns it off)");
  return {
    name: "market subscriptions",
    async check() {
      const trouble = subscriptionTrouble(markets.subscriptionStatus());
      return trouble === undefined ? undefined : { degraded: trouble };
    },
  };
}

/** Degraded, not down: a program the RPC will not list is searched by pair meanwhile; a left-out AMM is read again until it loads. */
function swapReadiness(config: Config, swap: SwapApi, programQuoter: Awaited<ReturnType<typeof startProgramQuoter>>): ReadinessCheck[] {
  const readiness: ReadinessCheck[] = [];
  if (config.marketListing) {
    readiness.push({
      name: "market listing",
      async check() {
        const reading = swap.quote.markets.keptListingsProgress();
        const unlisted = swap.quote.markets.unlistedPrograms();
        const trouble = [
          ...(reading && !reading.done ? [keptListingsText(reading)] : []),
          ...unlisted.map((u) => `${u.label} not listed (${u.reason}); searched by pair`),
        ];
        return trouble.length === 0 ? undefined : { degraded: trouble.join("; ") };
      },
    });
  }
  if (programQuoter) {
    readiness.push({
      name: "program quoter",
      async check() {
        const out = programQuoter.leftOut();
        return out.length === 0 ? undefined : { degraded: out.map((o) => `${o.amm} left out: ${o.reason}`).join("; ") };
      },
    });
  }
  return readiness;
}

/** The kept listings' reading as log fields: pools and programs read, the share of bytes, the time left. */
function keptListingsFields(p: KeptListingsProgress): Record<string, number | string> {
  return {
    poolsRead: p.pools,
    programsRead: `${p.programsRead}/${p.programs}`,
    percent: p.bytes === 0 ? 100 : Math.round((100 * p.bytesRead) / p.bytes),
    ...(p.etaMs === undefined ? {} : { etaMs: p.etaMs }),
    totalMs: p.ms,
  };
}

/** `/readyz`'s words for a reading still under way (quotes meanwhile search the programs not read yet by pair). */
function keptListingsText(p: KeptListingsProgress): string {
  const eta = p.etaMs === undefined ? "" : `, about ${Math.ceil(p.etaMs / 1000)} s left`;
  return `reading the kept market listings: ${p.pools} pools of ${p.programsRead}/${p.programs} programs (${Math.round((100 * p.bytesRead) / Math.max(1, p.bytes))} %)${eta}; the rest are searched by pair meanwhile`;
}
