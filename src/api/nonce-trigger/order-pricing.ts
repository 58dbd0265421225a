/**
 * The quotes a CreateOrder needs, per order it makes: up to `routesPerLeg` routes of the order's
 * pair at its amount (each next route avoids the AMMs of the ones before; a DCA's equal rounds
 * share theirs), and the price its triggers are checked against — the pair's own, or with a price
 * mint what the amount fetches in it ("USD prices"), said in the answer as `pricedBy`.
 */
import type { PlannedOrder } from "../../core/nonce-trigger/group-plan.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import type { QuoteEngine } from "../quote/quote-engine.js";

export interface PriceQuote {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly routeLabel: string;
}

export interface PricedOrder {
  readonly routes: readonly QuoteResponseJson[];
  /** What the order's amount fetches of its output now (the best route). */
  readonly pairOut: bigint;
  /** What it fetches of the mint its triggers are watched in (= pairOut without a price mint). */
  readonly watched: PriceQuote;
}

export function routeLabel(quote: QuoteResponseJson): string {
  return quote.routePlan.map((s) => s.swapInfo.label).join(" + ");
}

/** Up to `count` routes of the amount, each avoiding the AMM labels of the ones before. */
async function routes(engine: Pick<QuoteEngine, "quote">, pair: { inputMint: string; outputMint: string; amount: bigint }, count: number) {
  const found: QuoteResponseJson[] = [];
  const excluded = new Set<string>();
  for (let i = 0; i < count; i++) {
    try {
      const { response } = await engine.quote({
        inputMint: pair.inputMint,
        outputMint: pair.outputMint,
        amount: pair.amount.toString(),
        excludeDexes: [...excluded],
      });
      found.push(response);
      for (const step of response.routePlan) excluded.add(step.swapInfo.label);
    } catch (error) {
      if (i === 0) throw error;
      break; // No other route without the AMMs already used: fewer routes than asked (said by the answer's legs).
    }
  }
  return found;
}

function priceQuote(quote: QuoteResponseJson, amount: bigint): PriceQuote {
  return { inputMint: quote.inputMint, outputMint: quote.outputMint, inAmount: amount, outAmount: BigInt(quote.outAmount), routeLabel: routeLabel(quote) };
}

export async function priceOrders(engine: Pick<QuoteEngine, "quote">, orders: readonly PlannedOrder[], routesPerOrder: number): Promise<PricedOrder[]> {
  const seen = new Map<string, Promise<QuoteResponseJson[]>>();
  const once = (pair: { inputMint: string; outputMint: string; amount: bigint }, count: number) => {
    const key = `${pair.inputMint}|${pair.outputMint}|${pair.amount}|${count}`;
    let found = seen.get(key);
    if (found === undefined) seen.set(key, (found = routes(engine, pair, count)));
    return found;
  };
  const priced: PricedOrder[] = [];
  for (const order of orders) {
    const found = await once(order, routesPerOrder);
    const pairOut = BigInt(found[0].outAmount);
    const watched =
      order.watchedMint === order.outputMint
        ? priceQuote(found[0], order.amount)
        : priceQuote((await once({ inputMint: order.inputMint, outputMint: order.watchedMint, amount: order.amount }, 1))[0], order.amount);
    priced.push({ routes: found, pairOut, watched });
  }
  return priced;
}
