/**
 * Metrics live on prom-client's GLOBAL registry (`register`), which `GET /metrics` renders. It is
 * process-global while a module may be loaded twice (tests, two instances of one package), and
 * registering a name twice throws: every metric is taken from the registry when already there.
 * Its own folder so that chain/ and server/ can both use it (chain must not import server).
 */
import client from "prom-client";
import type { Metric } from "prom-client";

/** The metric registered under `name`, or the one `make` creates (and registers). */
export function registeredMetric<T extends Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}
