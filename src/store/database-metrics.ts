import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";

/** 1 while the database breaker is open (calls fail at once, a background probe looks for recovery). */
export const databaseBreakerOpen = registeredMetric(
  "swapd_database_breaker_open",
  () => new client.Gauge({ name: "swapd_database_breaker_open", help: "1 while the database is known down and calls fail at once" }),
);

/** Times the breaker opened, by the fault that opened it. */
export const databaseBreakerTripsTotal = registeredMetric(
  "swapd_database_breaker_trips_total",
  () =>
    new client.Counter({
      name: "swapd_database_breaker_trips_total",
      help: "Times the database breaker opened, by the fault that opened it",
      labelNames: ["reason"] as const,
    }),
);

/** Database calls refused at once because the breaker was open. */
export const databaseCallsRefusedTotal = registeredMetric(
  "swapd_database_calls_refused_total",
  () =>
    new client.Counter({
      name: "swapd_database_calls_refused_total",
      help: "Database calls answered DATABASE_UNAVAILABLE at once because the database was known down",
    }),
);
