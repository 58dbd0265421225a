/**
 * The API reference's answer schemas hold the service's real answers (`buildApp`, embedded chain,
 * real HTTP): each answer of the operations called here validates against the schema `/openapi.json`
 * declares for its status, closed (a property the schema does not declare fails too), with Ajv
 * (JSON Schema 2020-12, strict). The schemas can fail: a real answer with a field taken out, retyped
 * or added is refused. Errors too: the bodies of a refused quote, a refused execute, a refused trigger
 * order, a wrong content type and a mistyped swap body validate against their statuses' schemas.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { createLogger } from "../../src/server/logger.js";
import { answerValidator, type AnswerValidator } from "../fixtures/openapi-answers.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { LogCapture, onceMoreIfReset, testConfig } from "./helpers.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = DEMO.usdcMint.toBase58();
const WALLET = DEMO.wallet.toBase58();

let service: Service;
let dataDir: string;
let doc: Record<string, unknown>;
let closed: AnswerValidator;

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One call on a connection of its own (a kept-alive one idle past the server's keep-alive timeout can be reset as it is reused). */
async function call(method: "GET" | "POST", target: string, body?: unknown, contentType = "application/json"): Promise<Answer> {
  const r = await onceMoreIfReset(() =>
    undiciFetch(`${service.server.url}${target}`, {
      method,
      headers: { connection: "close", ...(body === undefined ? {} : { "content-type": contentType }) },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    }),
  );
  return { status: r.status, body: await r.json() };
}

/** The answer's schema errors against the document, as readable lines. */
function errorsOf(method: string, target: string, answer: Answer, validator = closed): string[] {
  const pathOnly = target.split("?")[0];
  return validator.errors(method, pathOnly, answer.status, answer.body).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
}

function expectValid(method: "GET" | "POST", target: string, answer: Answer, status: number): void {
  expect(answer.status, `${method} ${target}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(status);
  expect(errorsOf(method, target, answer), `${method} ${target}`).toEqual([]);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-api-answers-"));
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  service = await buildApp(testConfig(database), { logger: createLogger("info", new LogCapture()) });
  doc = (await (await fetch(`${service.server.url}/openapi.json`)).json()) as Record<string, unknown>;
  closed = answerValidator(doc, { closed: true });
}, 240_000);

afterAll(async () => {
  await service?.server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("successful answers validate against their declared schemas", () => {
  let quote: Answer;
  beforeAll(async () => {
    quote = await call("GET", `/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000`);
  });

  it("Swap API v1: quote, swap, swap-instructions, program-id-to-label", async () => {
    expectValid("GET", "/swap/v1/quote", quote, 200);
    expect((quote.body as { platformFee: unknown }).platformFee).toBeNull(); // REST's convention, declared nullable
    const request = { userPublicKey: WALLET, quoteResponse: quote.body };
    expectValid("POST", "/swap/v1/swap", await call("POST", "/swap/v1/swap", request), 200);
    expectValid("POST", "/swap/v1/swap-instructions", await call("POST", "/swap/v1/swap-instructions", request), 200);
    const dynamic = await call("POST", "/swap/v1/swap-instructions", { ...request, dynamicSlippage: true, prioritizationFeeLamports: 1000 });
    expectValid("POST", "/swap/v1/swap-instructions", dynamic, 200);
    expectValid("GET", "/swap/v1/program-id-to-label", await call("GET", "/swap/v1/program-id-to-label"), 200);
    expectValid("GET", "/v6/quote", await call("GET", `/v6/quote?inputMint=${USDC}&outputMint=${SOL}&amount=5000000&platformFeeBps=20`), 200);
  });

  it("Swap API v2: build, order with and without a taker, priority fees", async () => {
    const base = `inputMint=${SOL}&outputMint=${USDC}&amount=1000000`;
    expectValid("GET", "/swap/v2/build", await call("GET", `/swap/v2/build?${base}&taker=${WALLET}&slippageBps=rtse&tipAmount=10000`), 200);
    expectValid("GET", "/swap/v2/order", await call("GET", `/swap/v2/order?${base}`), 200);
    expectValid("GET", "/swap/v2/order", await call("GET", `/swap/v2/order?${base}&taker=${WALLET}&slippageBps=30`), 200);
    expectValid("GET", "/swap/v2/priority-fees", await call("GET", `/swap/v2/priority-fees?accounts=${WALLET}`), 200);
  });

  it("trigger orders: v1 createOrder and both listings, v2 createOrder and its listing", async () => {
    const create = { inputMint: SOL, outputMint: USDC, maker: WALLET, payer: WALLET, params: { makingAmount: "100000000", takingAmount: "20000000" } };
    expectValid("POST", "/trigger/v1/createOrder", await call("POST", "/trigger/v1/createOrder", create), 200);
    for (const status of ["active", "history"]) {
      const target = `/trigger/v1/getTriggerOrders?user=${WALLET}&orderStatus=${status}`;
      expectValid("GET", target, await call("GET", target), 200);
    }
    const nonce = { taker: WALLET, inputMint: SOL, outputMint: USDC, amount: "100000000", kind: "single", takeProfit: { price: "200", minOutAmount: "1" } };
    expectValid("POST", "/trigger/v2/createOrder", await call("POST", "/trigger/v2/createOrder", nonce), 200);
    expectValid("GET", "/trigger/v2/orders", await call("GET", `/trigger/v2/orders?taker=${WALLET}`), 200);
  });

  it("the operator's: liveness, readiness, this document", async () => {
    expectValid("GET", "/healthz", await call("GET", "/healthz"), 200);
    expectValid("GET", "/readyz", await call("GET", "/readyz"), 200);
    expectValid("GET", "/openapi.json", { status: 200, body: doc }, 200);
  });

  it("the schemas can fail: a field taken out, retyped or added is refused", () => {
    const body = quote.body as Record<string, unknown>;
    const { outAmount, ...withoutOutAmount } = body;
    expect(errorsOf("GET", "/swap/v1/quote", { status: 200, body: withoutOutAmount }).join()).toContain("outAmount");
    expect(errorsOf("GET", "/swap/v1/quote", { status: 200, body: { ...body, outAmount: Number(outAmount) } }).join()).toContain("/outAmount");
    expect(errorsOf("GET", "/swap/v1/quote", { status: 200, body: { ...body, swapMode: "ExactInOut" } }).join()).toContain("/swapMode");
    const step = (body.routePlan as Record<string, unknown>[])[0];
    const badStep = { ...step, swapInfo: { ...(step.swapInfo as object), ammKey: "not base58 0OIl" } };
    expect(errorsOf("GET", "/swap/v1/quote", { status: 200, body: { ...body, routePlan: [badStep] } }).join()).toContain("/routePlan/0/swapInfo/ammKey");
    // Closed, an undeclared field fails; the published document is open (clients stay forward compatible).
    const added = { status: 200, body: { ...body, surprise: 1 } };
    expect(errorsOf("GET", "/swap/v1/quote", added).join()).toContain("surprise");
    expect(errorsOf("GET", "/swap/v1/quote", added, answerValidator(doc, { closed: false }))).toEqual([]);
  });
});

describe("error answers validate against their statuses' schemas", () => {
  it("a quote without its amount (400), a near-miss name (400), a POST that is not JSON (415)", async () => {
    const missing = await call("GET", `/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}`);
    expectValid("GET", "/swap/v1/quote", missing, 400);
    expect(missing.body).toEqual({ error: "amount: is required", errorCode: "INVALID_REQUEST", code: 400 });
    expectValid("GET", "/swap/v1/quote", await call("GET", `/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amout=1`), 400);
    expectValid("POST", "/swap/v1/swap", await call("POST", "/swap/v1/swap", "{}", "text/plain"), 415);
  });

  it("a swap body of the wrong JSON types (422), an execute refused before sending (400, Jupiter's execute body)", async () => {
    expectValid("POST", "/swap/v1/swap", await call("POST", "/swap/v1/swap", { userPublicKey: 7, quoteResponse: {} }), 422);
    const refused = await call("POST", "/swap/v2/execute", { signedTransaction: "AQ==", requestId: "x" });
    expectValid("POST", "/swap/v2/execute", refused, 400);
    expect(refused.body).toMatchObject({ status: "Failed", code: -1002 });
    // The screen's refusal of the same path is the Swap API body: the declared 400 takes either.
    expectValid("POST", "/swap/v2/execute", await call("POST", "/swap/v2/execute", { signedTransaction: "AQ==", requestld: "x" }), 400);
  });

  it("the Trigger API's bodies: a refused order (cause), a refused listing, /markets with nothing added", async () => {
    const order = await call("POST", "/trigger/v1/createOrder", { inputMint: SOL, outputMint: USDC, maker: WALLET, payer: WALLET, params: {} });
    expectValid("POST", "/trigger/v1/createOrder", order, 400);
    expect(order.body).toMatchObject({ error: "invalid create order request", errorCode: "INVALID_REQUEST" });
    expectValid("GET", "/trigger/v1/getTriggerOrders", await call("GET", `/trigger/v1/getTriggerOrders?user=${WALLET}&orderStatus=open`), 400);
    expectValid("POST", "/markets", await call("POST", "/markets", { address: WALLET }), 400);
  });
});
