/** Command-line options of `npm run bench` (`npm run bench -- --help`). */
import { HEALTH, SWAP_ROUTES, type RequestKind } from "./bench-requests.js";

export interface BenchOptions {
  /** What is measured against the Health/Check baseline: SwapInstructions routes, or `health` itself (self-check). */
  readonly targets: readonly RequestKind[];
  readonly rounds: number;
  readonly phaseMs: number;
  readonly warmupMs: number;
  readonly concurrency: number;
  /** Delay the loopback proxy in front of the chain adds to every RPC request; 0 = no proxy. */
  readonly rpcDelayMs: number;
  /** Pass mark: target requests/s ≥ minRatio × baseline requests/s. */
  readonly minRatio: number;
  /** Pass mark: the requests' own Solana RPC round trips per request ≤ this (background refreshes taken off). */
  readonly maxRoundTrips: number;
  /** Pass mark: p50 latency of every route ≤ this (ms). */
  readonly maxP50Ms: number;
  /** Pass mark: service CPU per request of a 1-hop route ≤ this × the no-op's. */
  readonly maxCpuRatio: number;
  readonly logLevel: string;
  /** Instead of the comparison: profile the service under load of the first target and summarise where the CPU goes. */
  readonly cpuProfile: boolean;
  /** Also measure every request as gRPC over h2 (grpc-js); reported, not gated. */
  readonly grpc: boolean;
  /** Results JSON; by default bench/results/local/latest.json (ignored by git) for a SwapInstructions run, none for `--target health`. */
  readonly out: string | undefined;
  /** Write the results to the tracked bench/results/latest.json (the figures the README quotes). */
  readonly record: boolean;
  /** Service entry file (default dist/main.js, the compiled build, as `npm start` and the Docker image run it). */
  readonly entry: string;
}

const ROUTE_IDS = SWAP_ROUTES.map((r) => r.id);

export const USAGE = `npm run bench -- [options]
  --routes LIST          SwapInstructions routes to measure, comma-separated (default all:
                         ${ROUTE_IDS.join(",")})
  --target health        measure Health/Check against itself instead (the harness alone, ratio ≈ 1)
  --rpc-delay-ms MS      put the chain behind a loopback proxy adding MS to every RPC request, as a
                         remote RPC (default 50; 0 = the service talks to the chain directly)
  --rounds N             rounds of phases, medians taken (default 2)
  --phase-ms MS          length of one phase (default 3000)
  --warmup-ms MS         warm-up per request kind before measuring (default 1500)
  --concurrency N        concurrent keep-alive connections (default 4)
  --max-round-trips X    fail when a route's own RPC round trips per request > X (default 0.01)
  --max-p50-ms X         fail when a route's p50 latency > X ms (default 5)
  --max-cpu-ratio X      fail when a 1-hop route's service CPU per request > X × the no-op's (default 2)
  --min-ratio X          fail when a route's requests/s < X × the no-op's (default 0.7)
  --log-level LEVEL      LOG_LEVEL of the service (default warn)
  --grpc                 also measure every request over gRPC/h2 with grpc-js (reported, not gated)
  --cpu-prof             profile the service under load of the first route instead (writes bench/results/profile/)
  --out FILE             results JSON (default bench/results/local/latest.json, ignored by git;
                         none with --target health)
  --record               write the results to the tracked bench/results/latest.json instead
  --entry FILE           service entry (default dist/main.js, compiled first when stale; a .ts entry runs through tsx)`;

const DEFAULTS: BenchOptions = {
  targets: ROUTE_IDS,
  rounds: 2,
  phaseMs: 3_000,
  warmupMs: 1_500,
  concurrency: 4,
  rpcDelayMs: 50,
  minRatio: 0.7,
  maxRoundTrips: 0.01,
  maxP50Ms: 5,
  maxCpuRatio: 2,
  logLevel: "warn",
  cpuProfile: false,
  grpc: false,
  out: undefined,
  record: false,
  entry: "dist/main.js",
};

export class UsageError extends Error {}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const o: { -readonly [K in keyof BenchOptions]: BenchOptions[K] } = { ...DEFAULTS };
  const num = (flag: string, v: string | undefined, min: number, max: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`${flag}: expected a number ${min}–${max}, got ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const v = argv[i + 1];
    switch (flag) {
      case "--routes": {
        const ids = (v ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = ids.filter((id) => !ROUTE_IDS.includes(id));
        if (ids.length === 0 || unknown.length > 0)
          throw new UsageError(`--routes: unknown route ${unknown.join(", ") || "(none given)"}; routes: ${ROUTE_IDS.join(", ")}`);
        o.targets = ids;
        i += 1;
        break;
      }
      case "--target":
        if (v !== "health" && v !== "swap") throw new UsageError(`--target: health (or swap = every route), got ${v}`);
        o.targets = v === "health" ? [HEALTH] : ROUTE_IDS;
        i += 1;
        break;
      case "--rpc-delay-ms":
        o.rpcDelayMs = num(flag, v, 0, 10_000);
        i += 1;
        break;
      case "--rounds":
        o.rounds = Math.round(num(flag, v, 1, 20));
        i += 1;
        break;
      case "--phase-ms":
        o.phaseMs = num(flag, v, 100, 60_000);
        i += 1;
        break;
      case "--warmup-ms":
        o.warmupMs = num(flag, v, 0, 60_000);
        i += 1;
        break;
      case "--concurrency":
        o.concurrency = Math.round(num(flag, v, 1, 1024));
        i += 1;
        break;
      case "--min-ratio":
        o.minRatio = num(flag, v, 0, 100);
        i += 1;
        break;
      case "--max-round-trips":
        o.maxRoundTrips = num(flag, v, 0, 1000);
        i += 1;
        break;
      case "--max-p50-ms":
        o.maxP50Ms = num(flag, v, 0, 60_000);
        i += 1;
        break;
      case "--max-cpu-ratio":
        o.maxCpuRatio = num(flag, v, 0, 1000);
        i += 1;
        break;
      case "--log-level":
        o.logLevel = v ?? "";
        i += 1;
        break;
      case "--cpu-prof":
        o.cpuProfile = true;
        break;
      case "--grpc":
        o.grpc = true;
        break;
      case "--out":
        o.out = v ?? "";
        i += 1;
        break;
      case "--record":
        o.record = true;
        break;
      case "--entry":
        o.entry = v ?? "";
        i += 1;
        break;
      case "--help":
      case "-h":
        throw new UsageError(USAGE);
      default:
        throw new UsageError(`unknown option ${flag}\n${USAGE}`);
    }
  }
  if (o.out === undefined && !o.targets.includes(HEALTH)) o.out = o.record ? "bench/results/latest.json" : "bench/results/local/latest.json";
  return o;
}
