/**
 * The swap part of the API, ready for `startServer`: the swap-instructions operation and the quote
 * engine (quote, swap transaction, WatchQuote, markets) behind the Connect service and the REST routes.
 *
 *   const swap = createSwapApi({ chain, lookupTables: config.lookupTables, relayTipAccounts: config.relayTipAccounts });
 *   await swap.start();
 *   startServer({ ..., services: { swap: swap.service }, restRoutes: [...swap.restRoutes] });
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { RestRoute } from "../../server/rest.js";
import type { UnaryJsonCodec } from "../../server/unary-json-codec.js";
import { swapInstructionsJsonCodec } from "./swap-instructions-json-codec.js";
import { swapInstructionsRestRoute } from "./rest-swap-instructions.js";
import { createSwapService } from "./swap-service.js";
import type { SwapV1ServiceImpl } from "./swap-service.js";
import { createSwapInstructions } from "./swap-instructions.js";
import type { SwapInstructionsDeps, SwapInstructionsOperation } from "./swap-instructions.js";
import { createLookupTableIndex, createQuoteApi } from "../quote/quote-api.js";
import type { QuoteApi, QuoteApiOptions } from "../quote/quote-api.js";

export interface SwapApi {
  readonly swapInstructions: SwapInstructionsOperation;
  readonly quote: QuoteApi;
  readonly service: SwapV1ServiceImpl;
  readonly restRoutes: readonly RestRoute[];
  /** Connect JSON codecs of the hot calls (`startServer`'s `jsonCodecs`). */
  readonly jsonCodecs: readonly UnaryJsonCodec[];
  /** Loads MARKETS_FILE and the discovered lookup tables. */
  start(): Promise<void>;
  close(): void;
}

export function createSwapApi(deps: SwapInstructionsDeps & { readonly quote?: QuoteApiOptions }): SwapApi {
  const lookupTables = createLookupTableIndex(deps.chain, deps.quote ?? {});
  const swapInstructions = createSwapInstructions({ ...deps, discoveredLookupTables: () => lookupTables.current() });
  // The quote path reads pool state from the live account cache when there is one (memory, and
  // its change notifications drive WatchQuote); otherwise directly.
  const quoteOptions: QuoteApiOptions = { ...(deps.live ? { accounts: deps.live.accounts } : {}), ...deps.quote };
  const quote = createQuoteApi(deps.chain, swapInstructions, lookupTables, quoteOptions);
  return {
    swapInstructions,
    quote,
    service: createSwapService(swapInstructions, quote.handlers),
    restRoutes: [swapInstructionsRestRoute(swapInstructions), ...quote.restRoutes],
    jsonCodecs: [swapInstructionsJsonCodec],
    start: () => quote.start(),
    close: () => quote.close(),
  };
}
