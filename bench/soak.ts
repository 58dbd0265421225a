/**
 * `npm run soak`: the service (src/main.ts in a child process, embedded chain) under mixed load for
 * SOAK_MINUTES (default 10): createOrder (writes issued transactions), order history and active
 * listings, Connect health checks, /metrics, all over the real port. Every 30 s it prints the
 * child's RSS and heap, the calls and errors so far, and the table sizes; at the end it checks that
 * RSS after warm-up stayed within 20 % and that retention keeps issued_transactions bounded.
 *
 * Under load V8 lets garbage pile up between major GCs (the used heap swings between ~60 and ~180 MB
 * for ~55 MB of live objects), and RSS follows that sawtooth, so a sample taken at a random point
 * says little. Each sample therefore also asks the child for a full GC over the inspector protocol
 * (the child runs with `--inspect=127.0.0.1:0`) and reads RSS and the live heap after it; the verdict
 * compares those. The RSS before the GC is printed too.
 *
 * The database is PostgreSQL (SOAK_DATABASE_URL, default the test database, in a fresh schema that
 * is dropped afterwards) so the tables can be measured from outside. Retention is shortened
 * (SOAK_RETENTION_HOURS, default 0.02 = 72 s) so that its effect shows within the run.
 * Env: SOAK_MINUTES, SOAK_CLIENTS (default 8), SOAK_SAMPLE_SECONDS (default 30). Options:
 * `--minutes N` (instead of SOAK_MINUTES); `--faults`: faults injected on a schedule
 * (bench/soak-faults.ts: PostgreSQL blackhole, RPC 500s, websocket freeze, HTTP/2 flood), a quote
 * call added to the mix, retention off (rows kept), and the verdict is then: no HTTP 500 and no
 * call left unanswered (30 s) in the whole run, every call answered 200 again from 80 % of the
 * run, every createOrder answered 200 in issued_transactions (none lost) and no order twice, and
 * RSS flat as without faults. Rows of createOrders that were not answered 200 ("extra": the commit
 * went through but its answer was lost in the fault) are counted and dated, not failed on: such a
 * transaction was never handed to anyone, and retention removes it.
 *
 * SOAK_HEAP_SNAPSHOT_DIR=<dir>: the child also runs with `--heapsnapshot-signal=SIGUSR2` and writes
 * a heap snapshot into <dir> after warm-up and another once the load has stopped; the run then prints
 * the object groups that grew most between them (bench/heap-snapshot-summary.ts). The snapshots stay
 * in <dir> for DevTools (Memory → Load). Writing one pauses the service for seconds and its own
 * memory stays in the RSS, so the RSS baseline is then the first sample after the warm-up snapshot.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO } from "../src/localnet/demo-seed.js";
import { startSwapdProcess, type SwapdProcess } from "../scripts/swapd-process.js";
import { heapGrowth, summarizeHeapSnapshot, totalBytes } from "./heap-snapshot-summary.js";
import { connectInspector, inspectorUrlFrom } from "./inspector-client.js";
import { RECOVERED_FROM, startSoakFaults, type SoakFaults } from "./soak-faults.js";

const argv = process.argv.slice(2);
const withFaults = argv.includes("--faults");
const minutesArg = argv.indexOf("--minutes");
const minutes = Number(minutesArg >= 0 ? argv[minutesArg + 1] : (process.env["SOAK_MINUTES"] ?? 10));
if (!(minutes > 0)) throw new Error(`--minutes: must be a number of minutes > 0 (got ${JSON.stringify(argv[minutesArg + 1])})`);
const clients = Number(process.env["SOAK_CLIENTS"] ?? 8);
const sampleSeconds = Number(process.env["SOAK_SAMPLE_SECONDS"] ?? 30);
// With faults every issued row is checked at the end: retention must not delete any.
const retentionHours = withFaults ? "24" : (process.env["SOAK_RETENTION_HOURS"] ?? "0.02");
const databaseUrl = process.env["SOAK_DATABASE_URL"] ?? process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const snapshotDir = process.env["SOAK_HEAP_SNAPSHOT_DIR"] ? path.resolve(process.env["SOAK_HEAP_SNAPSHOT_DIR"]) : undefined;
const schema = `swapd_soak_${randomBytes(4).toString("hex")}`;
const retentionMs = Number(retentionHours) * 3_600_000;
// As src/main.ts schedules the job; an issued transaction lives at least 90 s (its blockhash).
const retentionIntervalMs = Math.min(600_000, Math.max(1_000, Math.floor(retentionMs / 4)));
const staleAfterMs = Math.max(retentionMs, 90_000) + retentionIntervalMs + 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** When the load started (for dating rows in the verdict). */
let runStartedAt = 0;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(/\d+/.exec(line ?? "")?.[0] ?? 0) / 1024);
}

async function main(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  let nodeOptions = `${process.env["NODE_OPTIONS"] ?? ""} --inspect=127.0.0.1:0`;
  if (snapshotDir !== undefined) {
    mkdirSync(snapshotDir, { recursive: true });
    nodeOptions += ` --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshotDir}`;
  }
  const faults = withFaults ? await startSoakFaults(url.toString()) : undefined;
  const swapd = await startSwapdProcess(
    { DATABASE_URL: url.toString(), RETENTION_HOURS: retentionHours, NODE_OPTIONS: nodeOptions.trim(), ...faults?.env },
    120_000,
  ).catch(async (e: unknown) => {
    await faults?.close();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    throw e;
  });
  try {
    return await soak(admin, swapd, faults);
  } finally {
    await swapd.kill();
    await faults?.close();
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
    await admin.end();
  }
}

// Long: one run's state (calls, samples, the load's pause for snapshots) is shared by its closures.
async function soak(admin: pg.Client, swapd: SwapdProcess, faults: SoakFaults | undefined): Promise<boolean> {
  const pid = swapd.child.pid!;
  const inspectorUrl = inspectorUrlFrom(swapd.stderr());
  if (inspectorUrl === undefined) throw new Error(`the child did not open its inspector; stderr:\n${swapd.stderr()}`);
  const inspector = await connectInspector(inspectorUrl);
  // The load stops while a heap snapshot is written (the child stands still meanwhile).
  let paused: Promise<void> | undefined;
  let inFlight = 0;

  /** Pauses the load, signals the child to write a heap snapshot, resumes; resolves with the file's path. */
  const heapSnapshot = async (): Promise<string> => {
    let resume!: () => void;
    paused = new Promise((r) => (resume = r));
    try {
      while (inFlight > 0) await sleep(20);
      const before = new Set(readdirSync(snapshotDir!));
      const t0 = Date.now();
      process.kill(pid, "SIGUSR2");
      let file: string | undefined;
      while (file === undefined) {
        if (Date.now() - t0 > 300_000) throw new Error("no heap snapshot within 300 s");
        await sleep(200);
        file = readdirSync(snapshotDir!).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
      }
      // The child writes it on its main thread: once it answers again, and the size holds, it is complete.
      // (Its keep-alive timers ran out meanwhile: pooled connections may be reset, so ask until it answers.)
      let size = -1;
      for (;;) {
        const answered = await fetch(`${swapd.url}/healthz`).then(
          (r) => r.arrayBuffer().then(() => true),
          () => false,
        );
        const now = statSync(path.join(snapshotDir!, file)).size;
        if (answered && now === size && now > 0) break;
        size = now;
        await sleep(500);
      }
      console.log(`heap snapshot ${path.join(snapshotDir!, file)} (${Math.round(size / 1e6)} MB, ${Math.round((Date.now() - t0) / 1000)} s)`);
      await sleep(1_000); // let the closes of the connections it timed out reach the client pool
      return path.join(snapshotDir!, file);
    } finally {
      paused = undefined;
      resume();
    }
  };
  const warmupSeconds = Math.min(60, (minutes * 60) / 3);
  let warmSnapshot: Promise<string> | undefined;
  let baselineAfterSeconds = warmupSeconds;
  const calls: Record<string, number> = {};
  const errors: Record<string, number> = {};
  /** With faults: answers by phase, `name status` → count, and the slowest answer per phase and call. */
  const byPhase: Record<string, Record<string, number>> = {};
  const slowestByPhase: Record<string, Record<string, number>> = {};
  /** requestIds of createOrders answered 200. */
  const createdRequestIds: string[] = [];
  const runStarted = Date.now();
  runStartedAt = runStarted;
  const call = async (name: string, run: (signal: AbortSignal) => Promise<Response>, ok: (status: number) => boolean = (s) => s === 200) => {
    while (paused !== undefined) await paused;
    inFlight++;
    const phase = faults?.phaseAt((Date.now() - runStarted) / (minutes * 60_000));
    const t0 = Date.now();
    let outcome: string;
    try {
      // An answer must come: a call left hanging for 30 s counts as a failure ("TimeoutError").
      const response = await run(AbortSignal.timeout(30_000));
      if (name === "createOrder" && response.status === 200 && faults !== undefined) {
        const body = (await response.json()) as { requestId?: string };
        if (body.requestId) createdRequestIds.push(body.requestId);
      } else await response.arrayBuffer();
      calls[name] = (calls[name] ?? 0) + 1;
      outcome = String(response.status);
      if (!ok(response.status)) errors[`${name} ${response.status}`] = (errors[`${name} ${response.status}`] ?? 0) + 1;
    } catch (e) {
      outcome = (e as Error).name;
      errors[`${name} ${outcome}`] = (errors[`${name} ${outcome}`] ?? 0) + 1;
    } finally {
      inFlight--;
    }
    if (phase !== undefined) {
      const counts = (byPhase[phase] ??= {});
      counts[`${name} ${outcome}`] = (counts[`${name} ${outcome}`] ?? 0) + 1;
      const slowest = (slowestByPhase[phase] ??= {});
      slowest[name] = Math.max(slowest[name] ?? 0, Date.now() - t0);
    }
  };
  const json = (body: unknown, signal?: AbortSignal): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const user = DEMO.wallet.toBase58();
  const mix: Array<() => Promise<void>> = [
    () =>
      call("createOrder", (signal) =>
        fetch(
          `${swapd.url}/trigger/v1/createOrder`,
          json(
            {
              inputMint: NATIVE_MINT.toBase58(),
              outputMint: DEMO.usdcMint.toBase58(),
              maker: user,
              payer: user,
              params: { makingAmount: "1000000", takingAmount: "150000" },
            },
            signal,
          ),
        ),
      ),
    () => call("history", (signal) => fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${user}&orderStatus=history`, { signal })),
    () => call("active", (signal) => fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${user}&orderStatus=active`, { signal })),
    () => call("health", (signal) => fetch(`${swapd.url}/grpc.health.v1.Health/Check`, json({}, signal))),
    () => call("metrics", (signal) => fetch(`${swapd.url}/metrics`, { signal })),
  ];
  if (faults !== undefined) {
    mix.push(() =>
      call("quote", (signal) =>
        fetch(`${swapd.url}/swap/v1/quote?inputMint=${NATIVE_MINT.toBase58()}&outputMint=${DEMO.usdcMint.toBase58()}&amount=1000000&slippageBps=50`, {
          signal,
        }),
      ),
    );
  }
  const deadline = Date.now() + minutes * 60_000;
  const workers = Array.from({ length: clients }, async (_, w) => {
    for (let i = w; Date.now() < deadline; i++) await mix[i % mix.length]();
  });

  const samples: Array<{ t: number; rss: number; rssAfterGc: number; liveHeap: number; issued: number; stale: number }> = [];
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
    // Rows retention should have deleted by now: unexecuted, issued longer ago than retention (or the
    // blockhash's 90 s), plus one job interval and slack.
    const [stale] = (
      await admin.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM "${schema}".issued_transactions i
         WHERE i.created_at < now() - make_interval(secs => $1) AND NOT EXISTS (SELECT 1 FROM "${schema}".executions e WHERE e.message_hash = i.message_hash)`,
        [staleAfterMs / 1000],
      )
    ).rows;
    const metrics = await fetch(`${swapd.url}/metrics`).then((r) => r.text());
    const heap = Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1] ?? 0);
    const t = Math.round((Date.now() - started) / 1000);
    const rss = rssMb(pid);
    await inspector.call("HeapProfiler.collectGarbage");
    const { usedSize } = await inspector.call<{ usedSize: number }>("Runtime.getHeapUsage");
    const rssAfterGc = rssMb(pid);
    const liveHeap = Math.round(usedSize / 1e6);
    const issued = Number(tables.rows.find((r) => r.relname === "issued_transactions")?.rows ?? 0);
    samples.push({ t, rss, rssAfterGc, liveHeap, issued, stale: Number(stale?.n ?? 0) });
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    const failed = Object.values(errors).reduce((a, b) => a + b, 0);
    console.log(
      `t=${String(t).padStart(4)} s  rss=${rss} MB  heap=${Math.round(heap / 1e6)} MB  after GC: rss=${rssAfterGc} MB live=${liveHeap} MB  calls=${total}  errors=${failed}  ` +
        tables.rows.map((r) => `${r.relname}=${r.rows} rows/${Math.round(Number(r.bytes) / 1024)} kB`).join("  ") +
        `  stale=${stale?.n}`,
    );
    if (snapshotDir !== undefined && warmSnapshot === undefined && t >= warmupSeconds) {
      warmSnapshot = heapSnapshot();
      baselineAfterSeconds = Number.POSITIVE_INFINITY;
      await warmSnapshot;
      baselineAfterSeconds = Math.round((Date.now() - started) / 1000);
    }
  };
  await sample();
  const timer = setInterval(() => void sample(), sampleSeconds * 1000);
  const schedule = faults?.run(minutes, swapd.port, (line) => console.log(line));
  await Promise.all(workers);
  await schedule;
  clearInterval(timer);
  await sample();
  const endSnapshot = snapshotDir !== undefined && warmSnapshot !== undefined ? await heapSnapshot() : undefined;
  console.log(`calls: ${JSON.stringify(calls)}`);
  console.log(`errors: ${JSON.stringify(errors)}`);

  // Warm-up: the first minute (or the first third of a short run), and the warm-up heap snapshot.
  const warm = samples.filter((s) => s.t >= baselineAfterSeconds);
  const first = warm[0] ?? samples[0];
  const end = samples.at(-1)!;
  const base = first.rssAfterGc;
  const last = end.rssAfterGc;
  const growth = (last - base) / base;
  const underLoad = samples.filter((s) => s.t >= first.t && s !== end).map((s) => s.rss);
  console.log(
    `live heap after GC: after warm-up ${first.liveHeap} MB → end ${end.liveHeap} MB; RSS before GC under load ${Math.min(...underLoad)}–${Math.max(...underLoad)} MB`,
  );
  const [issued] = (await admin.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".issued_transactions`)).rows;
  const created = calls["createOrder"] ?? 0;
  console.log(
    `RSS after GC: after warm-up ${base} MB → end ${last} MB (${(growth * 100).toFixed(1)} %, limit 20 %); issued_transactions ${issued?.n} rows of ${created} issued (retention ${retentionHours} h)`,
  );
  const peakIssued = Math.max(...samples.map((s) => s.issued));
  const stale = samples.at(-1)!.stale;
  // Deleted rows stay on disk until (auto)vacuum makes their space reusable.
  const [vacuum] = (
    await admin.query<{ autovacuum: string; dead: string }>(
      `SELECT current_setting('autovacuum') AS autovacuum, coalesce(n_dead_tup, 0)::text AS dead
       FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'issued_transactions'`,
      [schema],
    )
  ).rows;
  console.log(
    `issued_transactions: peak ${peakIssued} rows; at the end ${stale} rows older than ${staleAfterMs / 1000} s left (retention bound: 0); ` +
      `${vacuum?.dead} dead rows on disk (autovacuum ${vacuum?.autovacuum} on this server)`,
  );
  if (warmSnapshot !== undefined && endSnapshot !== undefined) {
    const before = summarizeHeapSnapshot(await warmSnapshot);
    const after = summarizeHeapSnapshot(endSnapshot);
    console.log(`live heap (snapshot): after warm-up ${(totalBytes(before) / 1e6).toFixed(1)} MB → end ${(totalBytes(after) / 1e6).toFixed(1)} MB`);
    console.log("groups that grew most (bytes Δ, count Δ → count):");
    for (const g of heapGrowth(before, after).slice(0, 15)) {
      console.log(`  ${(g.bytesDelta / 1e3).toFixed(1).padStart(9)} kB  ${String(g.countDelta).padStart(7)} → ${String(g.count).padStart(7)}  ${g.name}`);
    }
  }
  inspector.close();
  if (faults !== undefined) return (await faultVerdict(admin, byPhase, slowestByPhase, createdRequestIds)) && growth <= 0.2;
  return growth <= 0.2 && stale === 0 && Object.keys(errors).length === 0;
}

/** The verdict of a run with faults (see the header); prints what it checks. */
async function faultVerdict(
  admin: pg.Client,
  byPhase: Record<string, Record<string, number>>,
  slowestByPhase: Record<string, Record<string, number>>,
  createdRequestIds: readonly string[],
): Promise<boolean> {
  console.log("answers by phase (call status → count; slowest ms per call):");
  for (const [phase, counts] of Object.entries(byPhase)) {
    console.log(`  ${phase}: ${JSON.stringify(counts)}; slowest ${JSON.stringify(slowestByPhase[phase])}`);
  }
  const all = Object.values(byPhase).flatMap((counts) => Object.entries(counts));
  const http500 = all.filter(([k]) => k.endsWith(" 500")).reduce((n, [, v]) => n + v, 0);
  const unanswered = all.filter(([k]) => /Error$/.test(k)).reduce((n, [, v]) => n + v, 0);
  const notRecovered = Object.entries(byPhase["recovery"] ?? {})
    .filter(([k]) => !k.endsWith(" 200"))
    .reduce((n, [, v]) => n + v, 0);
  const rows = (
    await admin.query<{ request_id: string; order_keys: string[]; created_at: Date }>(
      `SELECT request_id, order_keys, created_at FROM "${schema}".issued_transactions WHERE kind = 'create_order'`,
    )
  ).rows;
  const inDb = new Set(rows.map((r) => r.request_id));
  const answered = new Set(createdRequestIds);
  const lost = [...answered].filter((id) => !inDb.has(id)).length;
  const extraRows = rows.filter((r) => !answered.has(r.request_id));
  const extra = extraRows.length;
  const orderKeys = rows.flatMap((r) => r.order_keys);
  const duplicated = orderKeys.length - new Set(orderKeys).size;
  console.log(
    `faults verdict: HTTP 500 ${http500}; unanswered (30 s) ${unanswered}; not 200 from ${RECOVERED_FROM * 100} % on ${notRecovered}; ` +
      `createOrders answered 200: ${answered.size}, rows ${rows.length}: lost ${lost}, orders twice ${duplicated}, ` +
      `extra (not answered 200) ${extra}${extra > 0 ? ` at ${extraRows.map((r) => `${Math.round((r.created_at.getTime() - runStartedAt) / 1000)} s`).join(", ")}` : ""}`,
  );
  return http500 === 0 && unanswered === 0 && notRecovered === 0 && lost === 0 && duplicated === 0;
}

main().then(
  (ok) => {
    console.log(ok ? "soak: OK" : "soak: FAILED");
    process.exit(ok ? 0 : 1);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
