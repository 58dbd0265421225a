import client from "prom-client";
import { registeredMetric } from "../../metrics/registered-metric.js";

/** Age in slots of the oldest live account state a response used (newest known slot − its slot). */
export const liveAccountAgeSlots = registeredMetric(
  "swapd_live_account_age_slots",
  () =>
    new client.Histogram({
      name: "swapd_live_account_age_slots",
      help: "Age in slots of the oldest live account state a response was built from",
      buckets: [0, 1, 2, 4, 8, 16, 32, 64, 150],
    }),
);

export const liveNotificationsTotal = registeredMetric(
  "swapd_live_notifications_total",
  () => new client.Counter({ name: "swapd_live_notifications_total", help: "Account updates received from the live account stream", labelNames: ["source"] }),
);

export const liveReconnectsTotal = registeredMetric(
  "swapd_live_reconnects_total",
  () =>
    new client.Counter({
      name: "swapd_live_reconnects_total",
      help: "Times the live account stream connected again after losing its connection",
      labelNames: ["source"],
    }),
);

export const liveResyncsTotal = registeredMetric(
  "swapd_live_resyncs_total",
  () =>
    new client.Counter({
      name: "swapd_live_resyncs_total",
      help: "Full re-reads of the live account cache after the stream (re)connected",
      labelNames: ["source"],
    }),
);

export const liveAccountsGauge = registeredMetric(
  "swapd_live_accounts",
  () => new client.Gauge({ name: "swapd_live_accounts", help: "Accounts held (and subscribed) by the live account cache" }),
);

export const liveStreamTimeoutsTotal = registeredMetric(
  "swapd_live_stream_timeouts_total",
  () =>
    new client.Counter({
      name: "swapd_live_stream_timeouts_total",
      help: "Live account stream connections given up: `connect` (handshake or subscriptions unanswered in time), `silence` (nothing received, probes unanswered)",
      labelNames: ["source", "phase"],
    }),
);

export const livePoolsGauge = registeredMetric(
  "swapd_live_pools",
  () =>
    new client.Gauge({
      name: "swapd_live_pools",
      help: "Pools held by the live account cache, each with the accounts it depends on (an account held on its own counts as one)",
    }),
);

export const livePoolEvictionsTotal = registeredMetric(
  "swapd_live_pool_evictions_total",
  () =>
    new client.Counter({
      name: "swapd_live_pool_evictions_total",
      help: "Pools dropped from the live account cache with the accounts no other held pool needs (and unsubscribed): `pools` (LIVE_POOLS_MAX), `accounts` (LIVE_ACCOUNTS_MAX), `idle` (unused for 10 minutes)",
      labelNames: ["reason"],
    }),
);
