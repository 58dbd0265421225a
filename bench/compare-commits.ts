/**
 * `npm run bench:compare -- --against <ref>`: this checkout's service and an earlier commit's service
 * measured in ONE run, on the same chain, phase by phase alternating (which service goes first flips
 * every round), so load on the shared machine hits both alike. Two parts, the two benches' request
 * mixes:
 * - swap: SwapInstructions through every bench route (bench/run.ts's chain, RPC 50 ms away through the
 *   delaying proxy) and the no-op Health/Check;
 * - quote: GET /swap/v1/quote at never-repeated amounts, direct (5 CP pools, split search) and 2-hop
 *   (50 candidate pools), on the quote bench's chain, and the no-op.
 * Per kind and service: p50 latency and service CPU per request (from /proc), medians over rounds.
 * Verdict per kind: "no worse" when this checkout's CPU per request is ≤ the other's × (1 + tolerance)
 * and its p50 ≤ the other's × (1 + tolerance) + 0.2 ms (the timer and scheduling floor on a shared
 * 2-core machine). Exit 0 no worse everywhere, 1 worse somewhere, 2 setup problem.
 */
import { fileURLToPath } from "node:url";
import { HEALTH, requestFor, SWAP_ROUTES } from "./bench-requests.js";
import { describeHead, prepareComparedTree } from "./compare-tree.js";
import { runVaryingLoad, type LoadRequest } from "./load.js";
import { startLocalnetProcess, type LocalnetProcess } from "./localnet-process.js";
import { processCpuMs } from "./process-cpu.js";
import { BENCH_INTERMEDIATES, BENCH_X, BENCH_Y } from "./quote-markets.js";
import { startRpcDelayProxy, type RpcDelayProxy } from "./rpc-delay-proxy.js";
import { startServiceProcess, type ServiceProcess } from "./service-process.js";
import { median, percentile } from "./statistics.js";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO } from "../src/localnet/demo-accounts.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const QUOTE_CHAIN = fileURLToPath(new URL("./quote-localnet-child.ts", import.meta.url));
const log = (msg: string) => process.stderr.write(`bench compare: ${msg}\n`);

const USAGE = `npm run bench:compare -- --against <git ref> [options]
  --against <ref>     the commit to compare with (required), e.g. the commit before a refactor
  --rounds <n>        rounds per part (default 3); each round measures every kind on both services
  --phase-ms <ms>     length of one measured phase (default 2000)
  --tolerance <x>     allowed excess before "worse" (default 0.10 = 10 %)
  --parts <list>      swap,quote (default both)
  --kinds <list>      only these kinds (e.g. health,whirlpool-2hop); default every kind of the parts`;

interface Options {
  readonly against: string;
  readonly rounds: number;
  readonly phaseMs: number;
  readonly tolerance: number;
  readonly parts: readonly string[];
  /** Empty: every kind. */
  readonly kinds: readonly string[];
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, def: number, min: number): number => {
    const raw = value(name);
    const n = raw === undefined ? def : Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`${name}: must be a number ≥ ${min} (got ${raw})\n${USAGE}`);
    return n;
  };
  const against = value("--against");
  if (argv.includes("--help") || !against) throw new Error(USAGE);
  const parts = (value("--parts") ?? "swap,quote").split(",");
  for (const p of parts) if (p !== "swap" && p !== "quote") throw new Error(`--parts: swap and/or quote (got ${p})\n${USAGE}`);
  const kinds = value("--kinds")?.split(",") ?? [];
  const known = [...SWAP_PART.kinds, ...QUOTE_PART.kinds].map((k) => k.kind);
  for (const k of kinds) if (!known.includes(k)) throw new Error(`--kinds: one of ${known.join(", ")} (got ${k})\n${USAGE}`);
  return { against, rounds: num("--rounds", 3, 1), phaseMs: num("--phase-ms", 2_000, 200), tolerance: num("--tolerance", 0.1, 0), parts, kinds };
}

type Side = "this" | "other";

interface Sample {
  readonly part: string;
  readonly kind: string;
  readonly side: Side;
  readonly p50Ms: number;
  readonly cpuMsPerRequest: number;
  readonly errors: number;
}

interface Part {
  readonly name: string;
  /** The requests of a kind; `n` counts up so a fresh-amount kind never repeats an amount. */
  readonly kinds: readonly { readonly kind: string; readonly requestAt: (url: string, n: number) => LoadRequest }[];
}

function quoteRequest(url: string, input: string, output: string, amount: bigint, hops: number): LoadRequest {
  return {
    url: `${url}/swap/v1/quote?inputMint=${input}&outputMint=${output}&amount=${amount}`,
    method: "GET",
    headers: {},
    body: Buffer.alloc(0),
    accept: (status, body) => status === 200 && (body.toString("utf8").match(/"swapInfo"/g)?.length ?? 0) >= hops,
  };
}

const SWAP_PART: Part = {
  name: "swap",
  kinds: [HEALTH, ...SWAP_ROUTES.map((r) => r.id)].map((kind) => ({ kind, requestAt: (url: string) => requestFor(kind, url) })),
};

/** Amounts 1 SOL + n × 7,919 lamports (and 1 X + n × 7,919): a new amount every request, on both sides alike. */
const QUOTE_PART: Part = {
  name: "quote",
  kinds: [
    { kind: HEALTH, requestAt: (url) => requestFor(HEALTH, url) },
    {
      kind: "quote-direct-fresh",
      requestAt: (url, n) => quoteRequest(url, NATIVE_MINT.toBase58(), DEMO.usdcMint.toBase58(), 1_000_000_000n + BigInt(n) * 7_919n, 1),
    },
    { kind: "quote-2hop-fresh", requestAt: (url, n) => quoteRequest(url, BENCH_X.toBase58(), BENCH_Y.toBase58(), 1_000_000_000n + BigInt(n) * 7_919n, 2) },
  ],
};

async function measure(part: Part, kind: Part["kinds"][number], side: Side, service: ServiceProcess, phaseMs: number, counter: { n: number }): Promise<Sample> {
  const cpuBefore = processCpuMs(service.pid) ?? Number.NaN;
  const r = await runVaryingLoad(() => kind.requestAt(service.url, counter.n++), { concurrency: 8, durationMs: phaseMs, maxRequests: 2_000_000 });
  const cpu = (processCpuMs(service.pid) ?? Number.NaN) - cpuBefore;
  if (r.errors > 0) log(`${side} ${kind.kind}: ${r.errors} errors (${r.firstError})`);
  return {
    part: part.name,
    kind: kind.kind,
    side,
    p50Ms: percentile(r.latenciesMs, 50),
    cpuMsPerRequest: r.requests > 0 ? cpu / r.requests : Number.NaN,
    errors: r.errors,
  };
}

async function runPart(part: Part, services: Record<Side, ServiceProcess>, options: Options): Promise<Sample[]> {
  const samples: Sample[] = [];
  // One counter per side and kind: both sides see the same amounts, each amount once.
  const counters = new Map<string, { n: number }>();
  const counter = (side: Side, kind: string) => counters.get(`${side}/${kind}`) ?? counters.set(`${side}/${kind}`, { n: 0 }).get(`${side}/${kind}`)!;
  log(`${part.name}: warm-up`);
  for (const side of ["this", "other"] as const)
    for (const kind of part.kinds) await measure(part, kind, side, services[side], Math.min(options.phaseMs, 1_000), counter(side, kind.kind));
  for (let round = 0; round < options.rounds; round++) {
    const order: Side[] = round % 2 === 0 ? ["this", "other"] : ["other", "this"];
    for (const kind of part.kinds) {
      for (const side of order) {
        const s = await measure(part, kind, side, services[side], options.phaseMs, counter(side, kind.kind));
        log(
          `${part.name} round ${round + 1} ${side.padEnd(5)} ${kind.kind.padEnd(20)} p50 ${s.p50Ms.toFixed(2)} ms  cpu/req ${s.cpuMsPerRequest.toFixed(3)} ms`,
        );
        samples.push(s);
      }
    }
  }
  return samples;
}

async function withChain<T>(part: string, run: (chainUrl: string, env: Record<string, string>) => Promise<T>): Promise<T> {
  const localnet: LocalnetProcess = part === "quote" ? await startLocalnetProcess(60_000, QUOTE_CHAIN) : await startLocalnetProcess(60_000);
  let proxy: RpcDelayProxy | undefined;
  try {
    if (part === "quote") return await run(localnet.url, { INTERMEDIATE_TOKENS: BENCH_INTERMEDIATES.join(","), MARKET_DISCOVERY_TTL_MS: "3600000" });
    if (!localnet.websocketUrl) throw new Error("the chain child did not say its websocket URL");
    proxy = await startRpcDelayProxy(localnet.url, localnet.websocketUrl, 50);
    return await run(proxy.url, proxy.websocketUrl ? { SOLANA_WS_URL: proxy.websocketUrl } : {});
  } finally {
    await proxy?.close();
    await localnet.stop();
  }
}

async function comparePart(part: Part, otherRoot: string, options: Options): Promise<Sample[]> {
  return withChain(part.name, async (solanaRpcUrl, env) => {
    const started: ServiceProcess[] = [];
    try {
      const start = async (root: string | undefined) => {
        const s = await startServiceProcess({ solanaRpcUrl, env, startTimeoutMs: 180_000, ...(root ? { root } : {}) });
        started.push(s);
        return s;
      };
      const services = { this: await start(undefined), other: await start(otherRoot) };
      return await runPart(part, services, options);
    } finally {
      await Promise.all(started.map((s) => s.stop()));
    }
  });
}

interface Verdict {
  readonly line: string;
  readonly worse: boolean;
}

function verdicts(samples: readonly Sample[], tolerance: number): Verdict[] {
  const keys = [...new Set(samples.map((s) => `${s.part}/${s.kind}`))];
  return keys.map((key) => {
    const of = (side: Side) => samples.filter((s) => `${s.part}/${s.kind}` === key && s.side === side);
    const fig = (side: Side) => ({
      p50: median(of(side).map((s) => s.p50Ms)),
      cpu: median(of(side).map((s) => s.cpuMsPerRequest)),
      errors: of(side).reduce((n, s) => n + s.errors, 0),
    });
    const a = fig("this");
    const b = fig("other");
    const worse = a.cpu > b.cpu * (1 + tolerance) || a.p50 > b.p50 * (1 + tolerance) + 0.2 || a.errors > 0;
    const cells = [
      key.padEnd(28),
      `${a.p50.toFixed(2)} / ${b.p50.toFixed(2)} ms`.padEnd(22),
      `${a.cpu.toFixed(3)} / ${b.cpu.toFixed(3)} ms`.padEnd(24),
      `${(a.cpu / b.cpu).toFixed(2)}×`.padEnd(7),
    ];
    return { line: `${cells.join(" ")} ${worse ? "WORSE" : "no worse"}${a.errors + b.errors > 0 ? ` (errors ${a.errors}/${b.errors})` : ""}`, worse };
  });
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  try {
    const other = prepareComparedTree(REPO_ROOT, options.against, log);
    const head = describeHead(REPO_ROOT);
    const samples: Sample[] = [];
    const parts = [SWAP_PART, QUOTE_PART]
      .filter((p) => options.parts.includes(p.name))
      .map((p) => (options.kinds.length === 0 ? p : { ...p, kinds: p.kinds.filter((k) => options.kinds.includes(k.kind)) }))
      .filter((p) => p.kinds.length > 0);
    for (const part of parts) samples.push(...(await comparePart(part, other.root, options)));
    const rows = verdicts(samples, options.tolerance);
    process.stdout.write(
      [
        `this checkout ${head} vs ${other.sha.slice(0, 10)} (${options.against}), ${options.rounds} rounds × ${options.phaseMs} ms, tolerance ${options.tolerance * 100} %`,
        `${"part/kind".padEnd(28)} ${"p50 this / other".padEnd(22)} ${"CPU/req this / other".padEnd(24)} ratio`,
        ...rows.map((r) => r.line),
        "",
      ].join("\n"),
    );
    return rows.some((r) => r.worse) ? 1 : 0;
  } catch (e) {
    log(`setup failed: ${(e as Error).message}`);
    return 2;
  }
}

process.exitCode = await main();
