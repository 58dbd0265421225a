/**
 * The Grafana dashboard and the Prometheus alert rules of `deploy/` query what swapd really
 * exposes: the whole service (`buildApp`, embedded chain, PGlite in a temporary DATA_DIR) serves a
 * few calls (quotes over REST and Connect, an order listing, readiness), then every metric name in
 * the dashboard's expressions and variables and in the rules must be a family of its `GET /metrics`
 * (histograms' `_bucket` / `_sum` / `_count` count as their family; `up` is Prometheus's own), the
 * labels matched on must be on the family's samples where it has some, and the procedures named
 * must be ones the run served.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { createLogger } from "../../src/server/logger.js";
import { LogCapture, testConfig } from "../server/helpers.js";
import { dashboardExpressions, readDashboard, readRules, ruleExpressions } from "./deploy-files.js";
import { checkMetricNames } from "./metric-name-check.js";
import { parseExposition, type Exposition } from "./metrics-text.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "BbMrRgZcZnMaW6SjwnnoniBpMM5t6FmEgfPUYGb5VZuC"; // the embedded chain's demo mint
const WALLET = "HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1"; // the embedded chain's demo wallet

let service: Service | undefined;
let dataDir: string;
let exposition: Exposition;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-deploy-"));
  // METRICS_CACHE_MS=0: the scrape below renders what the calls before it counted.
  service = await buildApp(testConfig({ DATA_DIR: dataDir, METRICS_CACHE_MS: "0" }), { logger: createLogger("info", new LogCapture()) });
  const url = service.server.url;
  const calls = [
    fetch(`${url}/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&slippageBps=50`),
    fetch(`${url}/swapd.swap.v1.SwapService/Quote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputMint: SOL, outputMint: USDC, amount: "1000000000" }),
    }),
    fetch(`${url}/trigger/v1/getTriggerOrders?user=${WALLET}&orderStatus=history`),
    fetch(`${url}/readyz`),
  ];
  for (const r of await Promise.all(calls)) expect(r.status, r.url).toBe(200);
  const metrics = await fetch(`${url}/metrics`);
  expect(metrics.status).toBe(200);
  exposition = parseExposition(await metrics.text());
}, 240_000);

afterAll(async () => {
  await service?.shutdown.run("test done");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("deploy/ queries swapd's real metrics", () => {
  it("the exposition holds swapd's families, with the calls just made", () => {
    expect(exposition.types.get("swapd_call_duration_seconds")).toBe("histogram");
    const procedures = new Set((exposition.samples.get("swapd_calls_total") ?? []).map((l) => l["procedure"]));
    expect(procedures).toContain("GET /swap/v1/quote");
    expect(procedures).toContain("/swapd.swap.v1.SwapService/Quote");
  });

  it("every metric name of the dashboard is exposed, with the labels it matches on", () => {
    const { problems, families, labelChecked } = checkMetricNames(dashboardExpressions(readDashboard()), exposition);
    expect(problems).toEqual([]);
    // The dashboard covers the rooms the issue names (an emptied dashboard would pass the above).
    for (const family of [
      "swapd_call_duration_seconds",
      "swapd_solana_rpc_failures_total",
      "swapd_live_reconnects_total",
      "swapd_landing_landed_total",
      "swapd_nonce_orders_armed",
      "swapd_database_breaker_open",
    ]) {
      expect(families.has(family), family).toBe(true);
    }
    expect(labelChecked).toBeGreaterThan(0);
  });

  it("every metric name of the alert rules is exposed, with the labels it matches on", () => {
    const { problems, families } = checkMetricNames(ruleExpressions(readRules()), exposition);
    expect(problems).toEqual([]);
    expect(families.size).toBeGreaterThanOrEqual(15);
  });

  it("a misspelt name, a histogram series of a counter, an unknown label or procedure are caught", () => {
    const { problems } = checkMetricNames(
      [
        { where: "misspelt", expr: "sum(rate(swapd_call_total[5m]))" },
        { where: "not a histogram", expr: "rate(swapd_calls_total_bucket[5m])" },
        { where: "label", expr: 'rate(swapd_calls_total{procedur="GET /swap/v1/quote"}[5m])' },
        { where: "procedure", expr: 'rate(swapd_calls_total{procedure=~"GET /swap/v1/quote|GET /swap/v1/quotes"}[5m])' },
        { where: "histogram series", expr: "rate(swapd_call_duration_seconds_sum[5m]) / rate(swapd_call_duration_seconds_count[5m])" },
      ],
      exposition,
    );
    expect(problems).toEqual([
      "misspelt: swapd_call_total is not a metric swapd exposes at /metrics (nor a _bucket/_sum/_count of one of its histograms)",
      "not a histogram: swapd_calls_total_bucket is not a metric swapd exposes at /metrics (nor a _bucket/_sum/_count of one of its histograms)",
      expect.stringMatching(/^label: swapd_calls_total has no label procedur \(its samples have /),
      'procedure: procedure "GET /swap/v1/quotes" was not served in this run (make the test call it, or fix the name)',
    ]);
  });
});
