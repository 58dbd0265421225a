/**
 * The swap part of the API, ready for `startServer`: the swap-instructions operation (api/swap) and
 * the quote engine (api/quote: quote, swap transaction, WatchQuote, markets) over one account
 * source, behind the Connect service and the REST routes. It sits above both folders, which import
 * only downwards (api/quote builds its `/swap` on api/swap).
 *
 *   const swap = createSwapApi({ chain, lookupTables: config.lookupTables, relayTipAccounts: config.relayTipAccounts });
 *   await swap.start();
 *   startServer({ ..., services: { swap: swap.service }, restRoutes: [...swap.restRoutes] });
 */
import type { RestRoute } from "../server/rest.js";
import type { UnaryJsonCodec } from "../server/protocol/unary-json-codec.js";
import { swapInstructionsJsonCodec } from "./swap/swap-instructions-json-codec.js";
import { swapInstructionsRestRoute } from "./swap/rest-swap-instructions.js";
import { createSwapService } from "./swap/swap-service.js";
import type { SwapV1ServiceImpl } from "./swap/swap-service.js";
import { createAccountSource, createSwapInstructions } from "./swap/swap-instructions.js";
import type { SwapInstructionsDeps, SwapInstructionsOperation } from "./swap/swap-instructions.js";
import { createLookupTableIndex, createQuoteApi } from "./quote/quote-api.js";
import type { QuoteApi, QuoteApiOptions } from "./quote/quote-api.js";
import { PriorityFeeKeeper } from "../chain/priority-fee-keeper.js";
import { DEFAULT_AUTO_SLIPPAGE, PoolRateHistory } from "../core/swap/auto-slippage.js";
import type { AutoSlippageSettings } from "../core/swap/auto-slippage.js";
import type { AccountSource } from "../chain/account-source.js";

export interface SwapApi {
  readonly swapInstructions: SwapInstructionsOperation;
  readonly quote: QuoteApi;
  /** The account source the quote and swap paths share (the live cache when there is one). */
  readonly accounts: AccountSource;
  readonly service: SwapV1ServiceImpl;
  readonly restRoutes: readonly RestRoute[];
  /** Connect JSON codecs of the hot calls (`startServer`'s `jsonCodecs`). */
  readonly jsonCodecs: readonly UnaryJsonCodec[];
  /**
   * The recent prioritization fees: `deps.priorityFees` (which the builder then prices from) or,
   * without it, a keeper of its own for the PriorityFees calls only, started on their first use.
   */
  readonly priorityFees: PriorityFeeKeeper;
  /** Recent rates of the pools quoted (automatic slippage reads them). */
  readonly poolRates: PoolRateHistory;
  /** Automatic slippage's bounds (deps.autoSlippage or the defaults). */
  readonly autoSlippage: AutoSlippageSettings;
  /** Loads MARKETS_FILE and the discovered lookup tables. */
  start(): Promise<void>;
  close(): void;
}

export function createSwapApi(deps: SwapInstructionsDeps & { readonly quote?: QuoteApiOptions }): SwapApi {
  const lookupTables = createLookupTableIndex(deps.chain, deps.quote ?? {});
  // One account source for both paths: the live cache when there is one (memory, and its change
  // notifications drive WatchQuote), reads on their way joined, misses batched.
  const accounts = deps.accounts ?? createAccountSource(deps);
  const poolRates = new PoolRateHistory();
  const swapInstructions = createSwapInstructions({ ...deps, accounts, poolRates, discoveredLookupTables: () => lookupTables.current() });
  const quote = createQuoteApi({ chain: deps.chain, accounts, swapInstructions, lookupTables, poolRates }, deps.quote ?? {});
  const priorityFees = deps.priorityFees ?? new PriorityFeeKeeper({ chain: deps.chain });
  return {
    swapInstructions,
    quote,
    priorityFees,
    poolRates,
    autoSlippage: deps.autoSlippage ?? DEFAULT_AUTO_SLIPPAGE,
    accounts,
    service: createSwapService(swapInstructions, quote.handlers),
    restRoutes: [swapInstructionsRestRoute(swapInstructions), ...quote.restRoutes],
    jsonCodecs: [swapInstructionsJsonCodec],
    start: () => quote.start(),
    close: () => {
      quote.close();
      if (!deps.priorityFees) priorityFees.close();
    },
  };
}
