/** What the market subscriptions cost and whether the provider serves them (by AMM). */
import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";

export const marketSubscriptionMetrics = {
  followed: registeredMetric(
    "swapd_market_subscription_followed",
    () =>
      new client.Gauge({
        name: "swapd_market_subscription_followed",
        help: "Per AMM: 1 while its program subscription is confirmed (new pools enter as they appear), 0 while the provider refuses it or the websocket is down (retried)",
        labelNames: ["amm"],
      }),
  ),
  refusals: registeredMetric(
    "swapd_market_subscription_refusals_total",
    () =>
      new client.Counter({
        name: "swapd_market_subscription_refusals_total",
        help: "programSubscribe requests the provider refused, by AMM",
        labelNames: ["amm"],
      }),
  ),
  disconnects: registeredMetric(
    "swapd_market_subscription_disconnects_total",
    () =>
      new client.Counter({
        name: "swapd_market_subscription_disconnects_total",
        help: "Times the market subscriptions' websocket dropped or could not be opened",
      }),
  ),
  notifications: registeredMetric(
    "swapd_market_subscription_notifications_total",
    () =>
      new client.Counter({
        name: "swapd_market_subscription_notifications_total",
        help: "Pool writes the subscriptions announced (each parsed; known pools skipped before decoding)",
      }),
  ),
  pools: registeredMetric(
    "swapd_market_subscription_pools",
    () =>
      new client.Gauge({
        name: "swapd_market_subscription_pools",
        help: "Pools held because a subscription announced them (not known to the listing or the markets file)",
      }),
  ),
};
