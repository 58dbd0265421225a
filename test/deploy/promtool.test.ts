/**
 * Prometheus's own tool accepts `deploy/`: `promtool check rules` the alert rules, `promtool check
 * config` the example configuration, `promtool test rules` the rules' unit tests (each alert made
 * to fire and to resolve on synthetic series), and `promtool check rules` over the dashboard's
 * expressions written as recording rules (so that Prometheus's parser, not only its grammar,
 * reads every panel's query).
 * promtool is Debian's `prometheus` package (`.ci/run` installs it); skipped with one line without it.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ALERT_TESTS_FILE, ALERTS_FILE, dashboardExpressions, DEPLOY, readDashboard } from "./deploy-files.js";

const run = promisify(execFile);

function hasPromtool(): boolean {
  try {
    execFileSync("promtool", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const promtool = hasPromtool();
if (!promtool) console.warn("promtool tests of deploy/prometheus skipped: no promtool on PATH (Debian: apt-get install prometheus; .ci/run does)");

const scratch = mkdtempSync(join(tmpdir(), "swapd-promtool-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** promtool's exit code and output (it exits 1 on a failed check and says why on stdout / stderr). */
async function promtoolRun(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run("promtool", args, { timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === "number" ? err.code : -1, output: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

describe.skipIf(!promtool)("promtool on deploy/prometheus", () => {
  it("check rules: the alert rules are valid", async () => {
    const { code, output } = await promtoolRun("check", "rules", ALERTS_FILE);
    expect(output).toMatch(/SUCCESS: 22 rules found/);
    expect(code, output).toBe(0);
  });

  it("check config: the example Prometheus configuration, with the rules it loads", async () => {
    const { code, output } = await promtoolRun("check", "config", `${DEPLOY}prometheus/prometheus.example.yml`);
    expect(output).toMatch(/SUCCESS: 1 rule files found/);
    expect(code, output).toBe(0);
  });

  it("test rules: every alert fires and resolves as its unit tests expect", async () => {
    const { code, output } = await promtoolRun("test", "rules", ALERT_TESTS_FILE);
    expect(output).toMatch(/SUCCESS/);
    expect(code, output).toBe(0);
  });

  it("test rules fails when an expectation is wrong (the unit tests are really checked)", async () => {
    const tests = join(scratch, "wrong.test.yml");
    // The quote p99 of the synthetic series is 475 ms; expecting 470 ms must fail.
    const text = readFileSync(ALERT_TESTS_FILE, "utf8").replace("rule_files:\n  - swapd-alerts.yml", `rule_files:\n  - ${ALERTS_FILE}`);
    expect(text).toContain("quote p99 is 475ms");
    writeFileSync(tests, text.replace("quote p99 is 475ms", "quote p99 is 470ms"));
    const { code, output } = await promtoolRun("test", "rules", tests);
    expect(code).toBe(1);
    expect(output).toMatch(/alertname: SwapdQuoteLatencyHigh/);
  });

  it("check rules: every dashboard expression parses as Prometheus reads it", async () => {
    const expressions = dashboardExpressions(readDashboard());
    expect(expressions.length).toBeGreaterThan(50);
    const rules = { groups: [{ name: "dashboard", rules: expressions.map((e, i) => ({ record: `dashboard:expression_${i}`, expr: e.expr })) }] };
    const file = join(scratch, "dashboard-rules.yml");
    writeFileSync(file, stringify(rules));
    const { code, output } = await promtoolRun("check", "rules", file);
    expect(output).toContain(`SUCCESS: ${expressions.length} rules found`);
    expect(code, output).toBe(0);
  });
});
