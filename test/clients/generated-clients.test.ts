/**
 * The Python and Go clients generated from proto/ (scripts/generate-clients.mjs, Debian's protoc and
 * plugins) against the real service over its real port: the checked-in clients/ is what proto/
 * generates, and the examples — run on freshly generated code — call Health/Check, Quote and
 * SwapInstructions over the embedded chain's demo pool, CreateOrder, and (Go) Execute with the
 * order's transaction signed by the demo wallet.
 * Skipped with one line when the tools are missing (`.ci/run` installs them).
 */
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { constantProductOut, SOL, USDC } from "./demo-pool-quote.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const PYTHON = "/usr/bin/python3"; // Debian's python3-grpcio is installed for the system Python
const GOCODE = "/usr/share/gocode"; // Debian's Go library sources (golang-google-grpc-dev, ...)
const LIMIT_ORDER_V2 = "j1o2qRpjcyUwEvwtcfhEQefh773ZgjxcVRry7LDqg5X";

function missingTools(): string[] {
  const onPath = (tool: string) => {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  const missing = ["protoc", "grpc_python_plugin", "protoc-gen-go", "protoc-gen-go-grpc", "go"].filter((t) => !onPath(t));
  try {
    execFileSync(PYTHON, ["-c", "import grpc, google.protobuf"], { stdio: "ignore" });
  } catch {
    missing.push(`${PYTHON} with grpc (python3-grpcio)`);
  }
  if (!existsSync(join(GOCODE, "src/google.golang.org/grpc/health/grpc_health_v1"))) missing.push("golang-google-grpc-dev");
  // APIv1 1.3 (which Debian's grpc may pull in instead) cannot marshal protoc-gen-go's APIv2 messages.
  if (!existsSync(join(GOCODE, "src/github.com/golang/protobuf/proto/registry.go"))) missing.push("golang-github-golang-protobuf-1-5-dev");
  return missing;
}

const missing = missingTools();
if (missing.length > 0) {
  console.warn(
    `generated-clients test skipped: missing ${missing.join(", ")} (Debian: apt-get install protobuf-compiler libprotobuf-dev protobuf-compiler-grpc python3-grpcio golang-go protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev golang-github-golang-protobuf-1-5-dev; .ci/run does)`,
  );
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== "__pycache__") // left by running the Python example
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Generated files of a clients tree (not the examples), relative path → content without the tool-version comment lines. */
function generatedFiles(clients: string): Map<string, string> {
  const dirs = ["python/swapd", "python/grpc_health", "go/gen"].map((d) => join(clients, d));
  return new Map(
    dirs.flatMap(filesUnder).map((file) => [
      relative(clients, file),
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => !/^\/\/\s+(-\s+)?protoc(-gen-go(-grpc)?)?\s+v\d/.test(line))
        .join("\n"),
    ]),
  );
}

describe.skipIf(missing.length > 0)("generated Python and Go clients over the real port", () => {
  let work: string;
  let fresh: string;
  let swapd: SwapdProcess;
  let restQuote: { outAmount: string; routePlan: { swapInfo: { ammKey: string } }[] };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "swapd-clients-"));
    fresh = join(work, "clients");
    execFileSync(process.execPath, [join(root, "scripts/generate-clients.mjs"), "--out", fresh, "--only", "python,go"], { stdio: "pipe" });
    // The checked-in examples, over the freshly generated code.
    copyFileSync(join(root, "clients/python/example.py"), join(fresh, "python/example.py"));
    mkdirSync(join(fresh, "go/example"), { recursive: true });
    copyFileSync(join(root, "clients/go/go.mod"), join(fresh, "go/go.mod"));
    copyFileSync(join(root, "clients/go/example/main.go"), join(fresh, "go/example/main.go"));
    const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: join(work, "data") };
    swapd = await startSwapdProcess(database, 90_000);
    const query = new URLSearchParams({ inputMint: SOL, outputMint: USDC, amount: "1000000000", slippageBps: "50" });
    restQuote = (await (await fetch(`${swapd.url}/swap/v1/quote?${query}`)).json()) as typeof restQuote;
  }, 150_000);

  afterAll(async () => {
    await swapd?.kill();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the checked-in clients/ is what proto/ generates (else: npm run generate:clients)", () => {
    const checkedIn = generatedFiles(join(root, "clients"));
    const generated = generatedFiles(fresh);
    expect([...checkedIn.keys()].sort()).toEqual([...generated.keys()].sort());
    for (const [file, text] of generated) expect(checkedIn.get(file), file).toBe(text);
  });

  function expectSwapLines(stdout: string): void {
    expect(stdout).toMatch(/^Health\/Check: SERVING$/m);
    const quote = /^Quote: (\d+) (\S+) -> (\d+) (\S+) \(at least (\d+), (\S+)\) via Raydium CP (\S+)$/m.exec(stdout);
    expect(quote, stdout).not.toBeNull();
    const [, inAmount, inputMint, outAmount, outputMint, threshold, swapMode, ammKey] = quote!;
    expect({ inAmount, inputMint, outputMint, swapMode }).toEqual({ inAmount: "1000000000", inputMint: SOL, outputMint: USDC, swapMode: "ExactIn" });
    expect(BigInt(outAmount)).toBe(constantProductOut(1_000_000_000n));
    expect(outAmount).toBe(restQuote.outAmount);
    expect(BigInt(threshold)).toBe((BigInt(outAmount) * 9_950n) / 10_000n);
    expect(ammKey).toBe(restQuote.routePlan[0].swapInfo.ammKey);
    expect(stdout).toMatch(
      /^SwapInstructions: swap instruction to JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 with \d+ accounts, \d+ setup instructions, compute unit limit \d+$/m,
    );
  }

  /** CreateOrder's line: the order address and the request id. */
  function expectCreateOrderLine(stdout: string): { order: string; requestId: string } {
    const created = /^CreateOrder: order (\S+), request (\S+), unsigned transaction of (\d+) bytes$/m.exec(stdout);
    expect(created, stdout).not.toBeNull();
    expect(bs58.decode(created![1])).toHaveLength(32);
    expect(created![2]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Number(created![3])).toBeGreaterThan(200);
    return { order: created![1], requestId: created![2] };
  }

  it("Python: Health/Check, Quote, SwapInstructions, CreateOrder, and the nonce trigger service's GetOrders", async () => {
    const { stdout } = await run(PYTHON, [join(fresh, "python/example.py"), `127.0.0.1:${swapd.port}`], { timeout: 60_000 });
    expectSwapLines(stdout);
    expectCreateOrderLine(stdout);
    // swapd.trigger.v2 over the generated stub: the demo wallet has no nonce orders on a fresh data dir.
    expect(stdout).toMatch(/^NonceTrigger GetOrders: 0 orders of \w{32,44}$/m);
  }, 90_000);

  it("Go (GOPATH mode over Debian's sources, offline): the same, then Execute of the signed order", async () => {
    const gopath = join(work, "gopath");
    mkdirSync(join(gopath, "src/swapd.dev/clients"), { recursive: true });
    symlinkSync(join(fresh, "go"), join(gopath, "src/swapd.dev/clients/go"));
    const binary = join(work, "go-example");
    const env = {
      ...process.env,
      GO111MODULE: "off",
      GOPATH: `${gopath}:${GOCODE}`,
      GOFLAGS: "",
      GOPROXY: "off",
      // Kept between runs (it is a cache, beside the other tools' in node_modules/.cache), so only the first run compiles grpc.
      GOCACHE: join(root, "node_modules", ".cache", "swapd-go-build"),
    };
    await run("go", ["build", "-o", binary, "swapd.dev/clients/go/example"], { env, cwd: join(fresh, "go"), timeout: 240_000 });
    const { stdout } = await run(binary, [`127.0.0.1:${swapd.port}`], { timeout: 60_000 });
    expectSwapLines(stdout);
    expectCreateOrderLine(stdout);
    // The server checks every required signature before sending, so reaching the chain shows the Go
    // client signed the issued message with the demo wallet's key; the chain has no Limit Order v2 binary.
    const executed = /^Execute: (\S+), code (\d+), signature (\S+), error "(.*)"$/m.exec(stdout);
    expect(executed, stdout).not.toBeNull();
    expect(executed![1]).toBe("EXECUTION_STATUS_FAILED");
    expect(executed![2]).toBe("500");
    expect(bs58.decode(executed![3])).toHaveLength(64);
    expect(executed![4]).toMatch(new RegExp(`InvalidProgramForExecution: program ${LIMIT_ORDER_V2} is not deployed on this chain`));
  }, 300_000);
});
