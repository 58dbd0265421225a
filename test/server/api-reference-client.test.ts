/**
 * A client generated from the live service's `/openapi.json` (`buildApp`, embedded chain): openapi-typescript
 * turns the document into types, openapi-fetch makes them a client, and `tsc` (strict) type-checks a small
 * program against them — a quote read as text, passed as it is into a swap-instructions request, a refusal's
 * words — where a misspelt required parameter and a wrong type must NOT type-check (`@ts-expect-error`; the
 * same program without those markers is shown to fail on exactly those lines). The program then runs against
 * the service and reads what the service answers.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { createLogger } from "../../src/server/logger.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { LogCapture, testConfig } from "./helpers.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const SOL = "So11111111111111111111111111111111111111112";

/** The program: each `@ts-expect-error` marks a line the generated types must refuse. */
const PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./swapd-api.js";

const [baseUrl, usdc, wallet] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl });
const SOL = "${SOL}";

const quote = await client.GET("/swap/v1/quote", { params: { query: { inputMint: SOL, outputMint: usdc, amount: "1000000000", slippageBps: 50 } } });
if (!quote.data) throw new Error(\`quote refused: \${JSON.stringify(quote.error)}\`);
const outAmount: string = quote.data.outAmount;
const fee: { amount: string; feeBps: number } | null = quote.data.platformFee;
// The quote goes into a swap request as it is.
const built = await client.POST("/swap/v1/swap-instructions", { body: { userPublicKey: wallet, quoteResponse: quote.data } });
if (!built.data) throw new Error(\`swap-instructions refused: \${JSON.stringify(built.error)}\`);
const programId: string = built.data.swapInstruction.programId;
const refused = await client.GET("/swap/v1/quote", { params: { query: { inputMint: SOL, outputMint: usdc, amount: "0" } } });
const words: string | undefined = refused.error?.error;
console.log(JSON.stringify({ outAmount, fee, programId, refusedStatus: refused.response.status, words }));

// @ts-expect-error a misspelt required parameter: \`amout\` is not one, and \`amount\` is missing
void client.GET("/swap/v1/quote", { params: { query: { inputMint: SOL, outputMint: usdc, amout: "1000000000" } } });
// @ts-expect-error \`outAmount\` is a u64 as decimal text, not a number
export const wrong: number = quote.data.outAmount;
`;

const TSCONFIG = {
  compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", types: ["node"], skipLibCheck: true },
  files: ["client.ts"],
};

let service: Service;
let dataDir: string;
let work: string;

async function typeCheck(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    await run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", dir], { cwd: dir });
    return { ok: true, output: "" };
  } catch (e) {
    const failed = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/** A folder with the generated types, the program and a tsconfig; node_modules is the checkout's. */
function project(name: string, types: string, program: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, "swapd-api.ts"), types);
  fs.writeFileSync(path.join(dir, "client.ts"), program);
  return dir;
}

let types: string;
/** Without the markers: the same program, which must fail on the lines they marked. */
const UNMARKED = PROGRAM.split("\n").filter((line) => !line.includes("@ts-expect-error"));
let checkedDir: string;
let unmarkedDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-api-client-"));
  work = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-api-client-ts-"));
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  service = await buildApp(testConfig(database), { logger: createLogger("info", new LogCapture()) });
  types = astToString(await openapiTS(new URL(`${service.server.url}/openapi.json`)));
  checkedDir = project("checked", types, PROGRAM);
  unmarkedDir = project("unmarked", types, UNMARKED.join("\n"));
}, 240_000);

afterAll(async () => {
  await service?.server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("a TypeScript client generated from /openapi.json", () => {
  it("openapi-typescript types every operation: the quote's required parameters and its answer's fields", () => {
    expect(types).toContain('"/swap/v1/quote": {');
    expect(types).toMatch(/inputMint: string;/);
    expect(types).toMatch(/outAmount: string;/);
    expect(types).not.toContain("swagger-ui");
  });

  it("type-checks the typed calls and refuses the misspelt parameter and the wrong type (tsc, strict)", async () => {
    const checked = await typeCheck(checkedDir);
    expect(checked.output).toBe("");
    expect(checked.ok).toBe(true);
    // Without the markers the same program fails, on those two lines and for those reasons.
    const failing = await typeCheck(unmarkedDir);
    expect(failing.ok).toBe(false);
    const errorLines = [...failing.output.matchAll(/client\.ts\((\d+),\d+\): error/g)].map((m) => UNMARKED[Number(m[1]) - 1]);
    expect(errorLines.length).toBeGreaterThanOrEqual(2);
    expect(
      errorLines.every((line) => line.includes("amout") || line.includes("wrong: number")),
      failing.output,
    ).toBe(true);
    expect(errorLines.some((line) => line.includes("amout"))).toBe(true);
    expect(errorLines.some((line) => line.includes("wrong: number"))).toBe(true);
  }, 120_000);

  it("runs against the service: the quote's outAmount, its swap instruction, a refusal's words", async () => {
    const dir = checkedDir;
    const usdc = DEMO.usdcMint.toBase58();
    const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(dir, "client.ts"), service.server.url, usdc, DEMO.wallet.toBase58()], {
      cwd: dir,
    });
    const printed = JSON.parse(stdout.trim()) as Record<string, unknown>;
    const direct = (await (await fetch(`${service.server.url}/swap/v1/quote?inputMint=${SOL}&outputMint=${usdc}&amount=1000000000&slippageBps=50`)).json()) as {
      outAmount: string;
    };
    expect(printed).toEqual({
      outAmount: direct.outAmount,
      fee: null,
      programId: "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4",
      refusedStatus: 400,
      words: "amount: must be greater than 0",
    });
  }, 60_000);
});
