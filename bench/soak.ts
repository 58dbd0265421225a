/**
 * `npm run soak`: the service (src/main.ts in a child process, embedded chain) under mixed load for
 * SOAK_MINUTES (default 10): createOrder (writes issued transactions), order history and active
 * listings, Connect health checks, /metrics, all over the real port. Every 30 s it prints the
 * child's RSS and heap, the calls and errors so far, and the table sizes; at the end it checks that
 * RSS after warm-up stayed within 20 % and that retention keeps issued_transactions bounded.
 *
 * The database is PostgreSQL (SOAK_DATABASE_URL, default the test database, in a fresh schema that
 * is dropped afterwards) so the tables can be measured from outside. Retention is shortened
 * (SOAK_RETENTION_HOURS, default 0.02 = 72 s) so that its effect shows within the run.
 * Env: SOAK_MINUTES, SOAK_CLIENTS (default 8), SOAK_SAMPLE_SECONDS (default 30).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO } from "../src/localnet/demo-seed.js";
import { startSwapdProcess } from "../test/fixtures/swapd-process.js";

const minutes = Number(process.env["SOAK_MINUTES"] ?? 10);
const clients = Number(process.env["SOAK_CLIENTS"] ?? 8);
const sampleSeconds = Number(process.env["SOAK_SAMPLE_SECONDS"] ?? 30);
const retentionHours = process.env["SOAK_RETENTION_HOURS"] ?? "0.02";
const databaseUrl = process.env["SOAK_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `swapd_soak_${randomBytes(4).toString("hex")}`;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(/\d+/.exec(line ?? "")?.[0] ?? 0) / 1024);
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const swapd = await startSwapdProcess({ DATABASE_URL: url.toString(), RETENTION_HOURS: retentionHours }, 120_000).catch(
    async (e: unknown) => {
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      throw e;
    },
  );
  const pid = swapd.child.pid!;
  const calls: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const call = async (name: string, run: () => Promise<Response>, ok: (status: number) => boolean = (s) => s === 200) => {
    try {
      const response = await run();
      await response.arrayBuffer();
      calls[name] = (calls[name] ?? 0) + 1;
      if (!ok(response.status)) errors[`${name} ${response.status}`] = (errors[`${name} ${response.status}`] ?? 0) + 1;
    } catch (e) {
      errors[`${name} ${(e as Error).name}`] = (errors[`${name} ${(e as Error).name}`] ?? 0) + 1;
    }
  };
  const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const user = DEMO.wallet.toBase58();
  const mix: Array<() => Promise<void>> = [
    () =>
      call("createOrder", () =>
        fetch(
          `${swapd.url}/trigger/v1/createOrder`,
          json({ inputMint: NATIVE_MINT.toBase58(), outputMint: DEMO.usdcMint.toBase58(), maker: user, payer: user, params: { makingAmount: "1000000", takingAmount: "150000" } }),
        ),
      ),
    () => call("history", () => fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${user}&orderStatus=history`)),
    () => call("active", () => fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${user}&orderStatus=active`)),
    () => call("health", () => fetch(`${swapd.url}/grpc.health.v1.Health/Check`, json({}))),
    () => call("metrics", () => fetch(`${swapd.url}/metrics`)),
  ];
  const deadline = Date.now() + minutes * 60_000;
  const workers = Array.from({ length: clients }, async (_, w) => {
    for (let i = w; Date.now() < deadline; i++) await mix[i % mix.length]!();
  });

  const samples: Array<{ t: number; rss: number }> = [];
  const started = Date.now();
  const sample = async () => {
    // The child logs a line per call; the runner keeps none of them.
    swapd.lines.length = 0;
    const tables = await admin.query<{ relname: string; rows: string; bytes: string }>(
      `SELECT c.relname, (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', $1::text, c.relname), false, true, '')))[1]::text AS rows,
              pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname IN ('issued_transactions', 'executions', 'orders', 'trades') ORDER BY c.relname`,
      [schema],
    );
    const metrics = await fetch(`${swapd.url}/metrics`).then((r) => r.text());
    const heap = Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1] ?? 0);
    const t = Math.round((Date.now() - started) / 1000);
    const rss = rssMb(pid);
    samples.push({ t, rss });
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    const failed = Object.values(errors).reduce((a, b) => a + b, 0);
    console.log(
      `t=${String(t).padStart(4)} s  rss=${rss} MB  heap=${Math.round(heap / 1e6)} MB  calls=${total}  errors=${failed}  ` +
        tables.rows.map((r) => `${r.relname}=${r.rows} rows/${Math.round(Number(r.bytes) / 1024)} kB`).join("  "),
    );
  };
  await sample();
  const timer = setInterval(() => void sample(), sampleSeconds * 1000);
  await Promise.all(workers);
  clearInterval(timer);
  await sample();
  console.log(`calls: ${JSON.stringify(calls)}`);
  console.log(`errors: ${JSON.stringify(errors)}`);

  // Warm-up: the first minute (or the first third of a short run).
  const warm = samples.filter((s) => s.t >= Math.min(60, (minutes * 60) / 3));
  const base = warm[0]?.rss ?? samples[0]!.rss;
  const last = samples.at(-1)!.rss;
  const growth = (last - base) / base;
  const [issued] = (await admin.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".issued_transactions`)).rows;
  const created = calls["createOrder"] ?? 0;
  console.log(
    `RSS after warm-up ${base} MB → end ${last} MB (${(growth * 100).toFixed(1)} %, limit 20 %); issued_transactions ${issued?.n} rows of ${created} issued (retention ${retentionHours} h)`,
  );
  await swapd.kill();
  await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
  await admin.end();
  const ok = growth <= 0.2 && Object.keys(errors).length === 0;
  console.log(ok ? "soak: OK" : "soak: FAILED");
  process.exit(ok ? 0 : 1);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
