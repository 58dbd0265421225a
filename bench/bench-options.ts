/** Command-line options of `npm run bench` (`npm run bench -- --help`). */
import type { RequestKind } from "./bench-requests.js";

export interface BenchOptions {
  /** What is measured against the Health/Check baseline. */
  readonly target: RequestKind;
  readonly rounds: number;
  readonly phaseMs: number;
  readonly warmupMs: number;
  readonly concurrency: number;
  /** Pass mark: target requests/s ≥ minRatio × baseline requests/s. */
  readonly minRatio: number;
  /** Pass mark: Solana RPC round trips per target request ≤ this. */
  readonly maxRoundTrips: number;
  readonly logLevel: string;
  /** Instead of the comparison: profile the service under target load and summarise where the CPU goes. */
  readonly cpuProfile: boolean;
  /** Also measure both requests as gRPC over h2 (grpc-js); reported, not gated. */
  readonly grpc: boolean;
  /** Results JSON; by default bench/results/latest.json for the SwapInstructions run, none for `--target health`. */
  readonly out: string | undefined;
  /** Service entry file (default src/main.ts). */
  readonly entry: string;
}

export const USAGE = `npm run bench -- [options]
  --target swap|health   measured request (default swap = SwapInstructions; health = baseline vs itself)
  --rounds N             baseline/target phase pairs, medians taken (default 3)
  --phase-ms MS          length of one phase (default 4000)
  --warmup-ms MS         warm-up per request kind before measuring (default 2000)
  --concurrency N        concurrent keep-alive connections (default 16)
  --min-ratio X          fail when target/baseline requests/s < X (default 0.7)
  --max-round-trips X    fail when RPC round trips per target request > X (default 1)
  --log-level LEVEL      LOG_LEVEL of the service (default warn)
  --grpc                 also measure both over gRPC/h2 with grpc-js (reported, not gated; adds 2 phases per round)
  --cpu-prof             profile the service under target load instead (writes bench/results/profile/)
  --out FILE             results JSON (default bench/results/latest.json; none with --target health)
  --entry FILE           service entry (default src/main.ts)`;

const DEFAULTS: BenchOptions = {
  target: "swap",
  rounds: 3,
  phaseMs: 4_000,
  warmupMs: 2_000,
  concurrency: 16,
  minRatio: 0.7,
  maxRoundTrips: 1,
  logLevel: "warn",
  cpuProfile: false,
  grpc: false,
  out: undefined,
  entry: "src/main.ts",
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
    const flag = argv[i]!;
    const v = argv[i + 1];
    switch (flag) {
      case "--target":
        if (v !== "swap" && v !== "health") throw new UsageError(`--target: swap or health, got ${v}`);
        o.target = v;
        i += 1;
        break;
      case "--rounds": o.rounds = Math.round(num(flag, v, 1, 20)); i += 1; break;
      case "--phase-ms": o.phaseMs = num(flag, v, 100, 60_000); i += 1; break;
      case "--warmup-ms": o.warmupMs = num(flag, v, 0, 60_000); i += 1; break;
      case "--concurrency": o.concurrency = Math.round(num(flag, v, 1, 1024)); i += 1; break;
      case "--min-ratio": o.minRatio = num(flag, v, 0, 100); i += 1; break;
      case "--max-round-trips": o.maxRoundTrips = num(flag, v, 0, 1000); i += 1; break;
      case "--log-level": o.logLevel = v ?? ""; i += 1; break;
      case "--cpu-prof": o.cpuProfile = true; break;
      case "--grpc": o.grpc = true; break;
      case "--out": o.out = v ?? ""; i += 1; break;
      case "--entry": o.entry = v ?? ""; i += 1; break;
      case "--help": case "-h": throw new UsageError(USAGE);
      default: throw new UsageError(`unknown option ${flag}\n${USAGE}`);
    }
  }
  if (o.out === undefined && o.target === "swap") o.out = "bench/results/latest.json";
  return o;
}
