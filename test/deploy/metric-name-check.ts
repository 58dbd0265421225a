/**
 * Checks the PromQL of `deploy/` against what swapd really exposes: every metric name must be a
 * family of the exposition (or a histogram's series of one); a label matched on must be one the
 * family's samples carry (when it has samples); a procedure named in a matcher must be one the run
 * served. Answers the problems found, each naming where it is.
 */
import type { Expression } from "./deploy-files.js";
import { familyOf, type Exposition } from "./metrics-text.js";
import { promqlSelectors } from "./promql-selectors.js";

/** Series Prometheus makes itself (not in any /metrics), which the rules may use. */
export const PROMETHEUS_SERIES: Readonly<Record<string, string>> = { up: "1 or 0 per scrape target, written by Prometheus for each scrape" };

/** Labels Prometheus adds to every scraped series (the target's). */
const TARGET_LABELS = new Set(["job", "instance"]);

export interface CheckSummary {
  readonly problems: string[];
  /** Family → where it is used. */
  readonly families: Map<string, string[]>;
  /** Selectors whose label names could be compared with samples. */
  readonly labelChecked: number;
}

export function checkMetricNames(expressions: readonly Expression[], exposition: Exposition): CheckSummary {
  const problems: string[] = [];
  const families = new Map<string, string[]>();
  let labelChecked = 0;
  const served = new Set((exposition.samples.get("swapd_calls_total") ?? []).map((l) => l["procedure"]));
  for (const { where, expr } of expressions) {
    for (const { name, matchers } of promqlSelectors(expr)) {
      if (PROMETHEUS_SERIES[name] !== undefined) continue;
      const family = familyOf(exposition, name);
      if (family === undefined) {
        problems.push(`${where}: ${name} is not a metric swapd exposes at /metrics (nor a _bucket/_sum/_count of one of its histograms)`);
        continue;
      }
      families.set(family, [...(families.get(family) ?? []), where]);
      const samples = exposition.samples.get(family) ?? [];
      if (samples.length > 0) {
        labelChecked++;
        const labels = new Set(samples.flatMap((s) => Object.keys(s)));
        for (const m of matchers) {
          if (!TARGET_LABELS.has(m.label) && !labels.has(m.label))
            problems.push(`${where}: ${name} has no label ${m.label} (its samples have ${[...labels].join(", ")})`);
        }
      }
      for (const m of matchers) {
        if (m.label !== "procedure" || (m.op !== "=" && m.op !== "=~")) continue;
        for (const procedure of m.value.split("|")) {
          if (!served.has(procedure)) problems.push(`${where}: procedure "${procedure}" was not served in this run (make the test call it, or fix the name)`);
        }
      }
    }
  }
  return { problems, families, labelChecked };
}
