/**
 * The PromQL of `deploy/`: every expression of the Grafana dashboard (panel targets, including
 * panels inside collapsed rows, and the `label_values(...)` of query variables) and of the
 * Prometheus alert rules, each with where it is.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const DEPLOY = fileURLToPath(new URL("../../deploy/", import.meta.url));
export const DASHBOARD_FILE = `${DEPLOY}grafana/swapd-dashboard.json`;
export const ALERTS_FILE = `${DEPLOY}prometheus/swapd-alerts.yml`;
export const ALERT_TESTS_FILE = `${DEPLOY}prometheus/swapd-alerts.test.yml`;

export interface Expression {
  /** Where: `dashboard: <panel title> [A]`, `dashboard variable instance`, `alert SwapdDown`. */
  readonly where: string;
  readonly expr: string;
}

interface Target {
  readonly refId?: string;
  readonly expr?: string;
  readonly datasource?: { readonly type?: string; readonly uid?: string };
}
export interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly datasource?: { readonly type?: string; readonly uid?: string };
  readonly gridPos: { readonly h: number; readonly w: number; readonly x: number; readonly y: number };
  readonly targets?: readonly Target[];
  readonly panels?: readonly Panel[];
}
export interface Variable {
  readonly name: string;
  readonly type: string;
  readonly query?: string | { readonly query?: string };
  readonly definition?: string;
}
export interface Dashboard {
  readonly uid: string;
  readonly title: string;
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: readonly Variable[] };
}

export interface AlertRule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}
export interface RuleFile {
  readonly groups: ReadonlyArray<{ readonly name: string; readonly rules: readonly AlertRule[] }>;
}

export const readDashboard = (file = DASHBOARD_FILE): Dashboard => JSON.parse(readFileSync(file, "utf8")) as Dashboard;
export const readRules = (file = ALERTS_FILE): RuleFile => parse(readFileSync(file, "utf8")) as RuleFile;

/** Every panel, those nested in rows included. */
export function allPanels(dashboard: Dashboard): Panel[] {
  return dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/**
 * Grafana's variables put in as Prometheus would see them after Grafana's substitution: the
 * interval variables as a duration, the others as a label value.
 */
export function withGrafanaVariables(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, "5m").replace(/\$\{?(\w+)(?::\w+)?\}?/g, "x");
}

export function dashboardExpressions(dashboard: Dashboard): Expression[] {
  const out: Expression[] = [];
  for (const panel of allPanels(dashboard)) {
    for (const t of panel.targets ?? []) if (t.expr) out.push({ where: `dashboard: ${panel.title} [${t.refId}]`, expr: withGrafanaVariables(t.expr) });
  }
  for (const v of dashboard.templating.list) {
    if (v.type !== "query") continue;
    const query = typeof v.query === "string" ? v.query : (v.query?.query ?? v.definition ?? "");
    const labelValues = /^label_values\((.+),\s*\w+\)$/.exec(query.trim());
    if (labelValues === null) throw new Error(`dashboard variable ${v.name}: expected label_values(<selector>, <label>), got ${query}`);
    out.push({ where: `dashboard variable ${v.name}`, expr: withGrafanaVariables(labelValues[1]) });
  }
  return out;
}

export function ruleExpressions(rules: RuleFile): Expression[] {
  return rules.groups.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert ?? r.record}`, expr: r.expr })));
}
