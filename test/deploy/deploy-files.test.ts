/**
 * The shape of `deploy/` (no service, no promtool needed): the dashboard imports into Grafana with a
 * datasource variable every panel uses and panels that do not overlap; every alert rule waits
 * (`for:`), has a severity and a summary saying where to look, and is in docs/operations.md with
 * them; every alert has a unit test that makes it fire and, later, resolve. And the PromQL reader the other tests rely on reads names
 * as the grammar does.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ALERT_TESTS_FILE, allPanels, readDashboard, readRules } from "./deploy-files.js";
import { promqlSelectors } from "./promql-selectors.js";

const dashboard = readDashboard();
const rules = readRules();
const alerts = rules.groups.flatMap((g) => g.rules);

describe("the PromQL reader", () => {
  it("finds the metric names and matchers of an expression, not its functions, labels or strings", () => {
    const found = promqlSelectors(
      'histogram_quantile(0.9, sum by (le, procedure) (rate(a_seconds_bucket{kind="rest", procedure=~"GET /x|rate"}[5m]))) / on (procedure) group_left b_total or vector(0) unless time()',
    );
    expect(found).toEqual([
      {
        name: "a_seconds_bucket",
        matchers: [
          { label: "kind", op: "=", value: "rest" },
          { label: "procedure", op: "=~", value: "GET /x|rate" },
        ],
      },
      { name: "b_total", matchers: [] },
    ]);
  });

  it("refuses a syntax error and a selector without a metric name", () => {
    expect(() => promqlSelectors("sum(rate(a_total[5m])")).toThrow(/syntax error/);
    expect(() => promqlSelectors('rate({__name__="a_total"}[5m])')).toThrow(/without a metric name/);
  });
});

describe("deploy/grafana/swapd-dashboard.json", () => {
  const panels = allPanels(dashboard).filter((p) => p.type !== "row");

  it("imports anywhere: no numeric id, a uid, a Prometheus datasource variable", () => {
    expect((dashboard as unknown as { id: unknown }).id).toBeNull();
    expect(dashboard.uid).toBe("swapd");
    const ds = dashboard.templating.list.find((v) => v.type === "datasource");
    expect(ds).toMatchObject({ name: "datasource", query: "prometheus" });
  });

  it("every panel and query uses the datasource variable and has a query", () => {
    for (const p of panels) {
      expect(p.datasource, p.title).toEqual({ type: "prometheus", uid: "${datasource}" });
      expect(p.targets?.length ?? 0, p.title).toBeGreaterThan(0);
      for (const t of p.targets ?? []) expect(t.datasource, p.title).toEqual({ type: "prometheus", uid: "${datasource}" });
    }
    expect(panels.length).toBeGreaterThan(40);
  });

  it("panel ids are unique and panels do not overlap on the 24-column grid", () => {
    const all = allPanels(dashboard);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    const cells = new Map<string, string>();
    for (const p of all) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++) {
        for (let j = y; j < y + h; j++) {
          const taken = cells.get(`${i},${j}`);
          expect(taken, `${p.title} overlaps ${taken}`).toBeUndefined();
          cells.set(`${i},${j}`, p.title);
        }
      }
    }
  });
});

describe("deploy/prometheus/swapd-alerts.yml", () => {
  it("every rule is an alert that waits, with a severity and a summary saying where to look", () => {
    expect(alerts.length).toBeGreaterThanOrEqual(20);
    expect(new Set(alerts.map((a) => a.alert)).size).toBe(alerts.length);
    for (const a of alerts) {
      expect(a.alert, a.expr).toMatch(/^Swapd[A-Z]\w+$/);
      expect(a.for, a.alert).toMatch(/^[1-9]\d*[mh]$/);
      expect(["critical", "warning", "info"], a.alert).toContain(a.labels?.["severity"]);
      expect(a.annotations?.["summary"], a.alert).toMatch(/\b(see|check|read|raise)\b/);
    }
  });

  it("docs/operations.md lists every alert, with its severity and its for:", () => {
    const docs = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
    const rows = [...docs.matchAll(/^\| `(Swapd\w+)` \| (\w+) \| .*\((\d+ min)\)[^|]*\|$/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    const minutes = (d: string | undefined) => `${Number(/^(\d+)m$/.exec(d ?? "")?.[1])} min`;
    expect(rows.sort()).toEqual(alerts.map((a) => `${a.alert} ${a.labels?.["severity"]} ${minutes(a.for)}`).sort());
  });

  it("every alert has a unit test making it fire, then resolve", () => {
    interface AlertTest {
      eval_time: string;
      alertname: string;
      exp_alerts: unknown[];
    }
    const tests = parse(readFileSync(ALERT_TESTS_FILE, "utf8")) as { tests: Array<{ alert_rule_test?: AlertTest[] }> };
    const minutes = (t: string) => Number(/^(\d+)m$/.exec(t)![1]);
    // Within one test group (one set of series): expected firing at some time, none at a later one.
    const firesThenResolves = (cases: AlertTest[]) =>
      cases.some((f) => f.exp_alerts.length > 0 && cases.some((r) => r.exp_alerts.length === 0 && minutes(r.eval_time) > minutes(f.eval_time)));
    for (const a of alerts) {
      const groups = tests.tests.map((t) => (t.alert_rule_test ?? []).filter((c) => c.alertname === a.alert));
      expect(groups.some(firesThenResolves), `${a.alert} fires, then resolves, in one test group`).toBe(true);
    }
  });
});
