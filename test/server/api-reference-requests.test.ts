/**
 * The API reference's request side, held to the service's own validators over real HTTP (`buildApp`,
 * embedded chain): for every operation, a request of its required fields (the documented examples)
 * minus one of them is refused naming that field, and one plus any optional field's example is not
 * refused naming that field — so `required` is exactly what the validators refuse when absent, and
 * every example is a value they take. Where Jupiter's published documents (test/fixtures/reference/
 * openapi) describe the same operation, the required parameters are Jupiter's, by Jupiter's names.
 * Every parameter and body field has words and an example.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fetch as undiciFetch } from "undici";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { createLogger } from "../../src/server/logger.js";
import { REST_PATH_ALIASES } from "../../src/server/rest.js";
import { answerValidator } from "../fixtures/openapi-answers.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { referencePath } from "../fixtures/reference.js";
import { LogCapture, onceMoreIfReset, testConfig } from "./helpers.js";

type Schema = Record<string, any>;
const DEMO_SOL = "So11111111111111111111111111111111111111112";
interface Field {
  readonly name: string;
  readonly schema: Schema;
  readonly required: boolean;
  readonly example: unknown;
  readonly description: string | undefined;
  /** The component a message field refers to (its own required fields are probed too). */
  readonly component: Schema | undefined;
  /** The only values the document lets a text field (or a list's items) take. */
  readonly values: readonly string[] | undefined;
}
interface Operation {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly in: "query" | "body";
  readonly fields: readonly Field[];
}

/**
 * The examples name mainnet's USDC and a mainnet wallet; on the embedded chain the probes send its
 * demo mint and wallet instead, so that a request of valid examples passes every check, the chain's
 * included, and each field probed is read.
 */
const ON_THIS_CHAIN: ReadonlyMap<string, string> = new Map([
  ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", DEMO.usdcMint.toBase58()],
  ["jdocuPgEAjMfihABsPgKEvYtsmMzjUHeq9LX4Hvs7f3", DEMO.wallet.toBase58()],
  // The token account examples: the demo wallet's USDC account (initialized, of the output mint).
  ["52trNeiedksDRPhZaNq8vpuL7YJab3hksHGgdqrfMJJr", DEMO.walletUsdcAccount.toBase58()],
]);

function onThisChain(value: unknown): unknown {
  if (typeof value === "string") return ON_THIS_CHAIN.get(value) ?? value;
  if (Array.isArray(value)) return value.map(onThisChain);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, onThisChain(v)]));
  return value;
}

/**
 * Fields whose value must name something this service issued or the chain holds (a signed
 * transaction of an Order, an order's id or account, an initialized nonce account): no example can;
 * their form is checked against their schemas, their presence by the required probe.
 */
const STATE_BOUND = new Set(["signedTransaction", "signedTransactions", "requestId", "orderId", "order", "orders", "nonceAccount", "nonceAccounts"]);

/** What a request needs beyond its required fields (a "single" nonce order's one leg; a real quote to swap). */
const companions = (quote: unknown): Readonly<Record<string, Readonly<Record<string, unknown>>>> => ({
  "POST /trigger/v2/createOrder": { takeProfit: { price: "200.5", minOutAmount: "1" } },
  "POST /swap/v1/swap": { quoteResponse: quote },
  "POST /swap/v1/swap-instructions": { quoteResponse: quote },
});

/** An optional field that only fits another request: what it needs beside it (undefined: left out). */
const CONTEXT: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "POST /trigger/v2/createOrder trailing": { kind: "trailing", takeProfit: undefined },
  "POST /trigger/v2/createOrder stopLoss": { kind: "oco" },
  // The nonce groups' kinds: an OTOCO's entry and its two exits; a DCA's rounds alone.
  "POST /trigger/v2/createOrder entry": { kind: "otoco", stopLoss: { price: "100", minOutAmount: "1" } },
  "POST /trigger/v2/createOrder dca": { kind: "dca", takeProfit: undefined },
  "GET /swap/v2/build nativeDestinationAccount": { inputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", outputMint: DEMO_SOL },
};

let service: Service;
let dataDir: string;
let doc: Schema;
let operations: Operation[];
let companion: ReturnType<typeof companions>;

function component(schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref ?? schema?.items?.$ref;
  return typeof ref === "string" ? doc.components.schemas[ref.replace("#/components/schemas/", "")] : undefined;
}

function operationsOf(document: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [p, ops] of Object.entries(document.paths as Schema)) {
    if (REST_PATH_ALIASES.has(p)) continue; // the same operations as their /swap/v1 paths
    for (const [method, op] of Object.entries(ops as Schema)) {
      const body = op.requestBody?.content?.["application/json"]?.schema as Schema | undefined;
      const fields: Field[] = body?.properties
        ? Object.entries(body.properties as Schema).map(([name, s]) => ({
            name,
            schema: s,
            required: (body.required ?? []).includes(name),
            example: s.examples?.[0],
            description: s.description,
            component: component(s),
            values: s.enum ?? s.items?.enum,
          }))
        : ((op.parameters ?? []) as Schema[]).map((q) => ({
            name: q.name,
            schema: q.schema,
            required: q.required,
            example: q.example,
            description: q.description,
            component: undefined,
            values: q.schema.enum ?? q.schema.items?.enum,
          }));
      if (fields.length > 0) out.push({ method: method.toUpperCase() as "GET" | "POST", path: p, in: body ? "body" : "query", fields });
    }
  }
  return out;
}

/**
 * The refusal's words (`error`, and the Trigger API's `cause`), or "" for an answer that names nothing.
 * Each probe on a connection of its own: a kept-alive one idle past the server's keep-alive timeout
 * (a loaded machine between two tests) can be reset as it is reused, which is not what is probed here.
 */
async function send(op: Operation, fields: Record<string, unknown>): Promise<{ status: number; words: string }> {
  try {
    return await onceMoreIfReset(() => sendOnce(op, fields));
  } catch (e) {
    throw new Error(`${op.method} ${op.path} ${JSON.stringify(fields).slice(0, 200)}: ${String(e)}`, { cause: e });
  }
}

async function sendOnce(op: Operation, fields: Record<string, unknown>): Promise<{ status: number; words: string }> {
  let r: Awaited<ReturnType<typeof undiciFetch>>;
  if (op.in === "query") {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) query.append(k, String(item));
    r = await undiciFetch(`${service.server.url}${op.path}?${query}`, { headers: { connection: "close" } });
  } else {
    r = await undiciFetch(`${service.server.url}${op.path}`, {
      method: op.method,
      headers: { "content-type": "application/json", connection: "close" },
      body: JSON.stringify(fields),
    });
  }
  const body = (await r.json()) as { error?: unknown; cause?: unknown };
  return { status: r.status, words: r.status < 400 ? "" : [body.error, body.cause].filter((w) => typeof w === "string").join(" | ") };
}

/** Whether a refusal names the field (`amount: is required`, `params.makingAmount: ...`, `accounts[0]: ...`). */
function names(words: string, field: string): boolean {
  return words.split(" | ").some((w) => w.startsWith(`${field}:`) || w.startsWith(`${field}.`) || w.startsWith(`${field}[`));
}

function baseOf(op: Operation): Record<string, unknown> {
  const base = Object.fromEntries(op.fields.filter((f) => f.required).map((f) => [f.name, onThisChain(f.example)]));
  return { ...base, ...companion[`${op.method} ${op.path}`] };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-api-requests-"));
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  service = await buildApp(testConfig(database), { logger: createLogger("info", new LogCapture()) });
  doc = (await (await fetch(`${service.server.url}/openapi.json`)).json()) as Schema;
  operations = operationsOf(doc);
  const quote = await fetch(`${service.server.url}/swap/v1/quote?inputMint=${DEMO_SOL}&outputMint=${DEMO.usdcMint.toBase58()}&amount=1000000000`);
  expect(quote.status).toBe(200);
  companion = companions(await quote.json());
}, 240_000);

afterAll(async () => {
  await service?.server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("every parameter and body field", () => {
  it("has words and an example; the operations with required fields are the ones that read input", () => {
    expect(operations.length).toBeGreaterThanOrEqual(18);
    const fields = operations.flatMap((op) => op.fields.map((f) => ({ at: `${op.method} ${op.path} ${f.name}`, ...f })));
    expect(fields.length).toBeGreaterThanOrEqual(130);
    expect(fields.filter((f) => !f.description).map((f) => f.at)).toEqual([]);
    expect(fields.filter((f) => f.example === undefined).map((f) => f.at)).toEqual([]);
    // Each example fits its own schema (closed: an example object has no field the schema lacks).
    const schemas = answerValidator(doc, { closed: true });
    const misfits = fields.map((f) => ({ at: f.at, errors: schemas.errorsAgainst(f.schema, f.example) })).filter((m) => m.errors.length > 0);
    expect(misfits.map((m) => `${m.at}: ${JSON.stringify(m.errors[0])}`)).toEqual([]);
    expect(schemas.errorsAgainst(fields.find((f) => f.name === "amount")!.schema, "1.5")).not.toEqual([]);
    const quote = operations.find((op) => op.path === "/swap/v1/quote")!;
    expect(quote.fields.filter((f) => f.required).map((f) => f.name)).toEqual(["inputMint", "outputMint", "amount"]);
  });
});

describe("required is what the validators refuse when absent", () => {
  it("each operation's required fields, one left out at a time (nested ones too), are refused by name", async () => {
    const wrong: string[] = [];
    let probes = 0;
    for (const op of operations) {
      const base = baseOf(op);
      const refusal = await send(op, base);
      // Nothing documented is missing from it (no field left optional that must be given), and the
      // required fields' examples are valid: the request goes past every check that names them.
      for (const f of op.fields.filter((f) => !STATE_BOUND.has(f.name)))
        if (names(refusal.words, f.name)) wrong.push(`${op.method} ${op.path} of its required fields: refused by ${f.name}: ${refusal.words}`);
      for (const f of op.fields) {
        if (f.required) {
          const { [f.name]: _left, ...without } = base;
          const r = await send(op, without);
          probes++;
          if (!names(r.words, f.name)) wrong.push(`${op.method} ${op.path} without ${f.name}: ${r.status} ${r.words || "accepted"}`);
        }
        const inner = f.component?.required as string[] | undefined;
        const value = base[f.name];
        if (!inner || value === null || typeof value !== "object") continue;
        for (const name of inner) {
          const { [name]: _left, ...partial } = value as Record<string, unknown>;
          const r = await send(op, { ...base, [f.name]: partial });
          probes++;
          if (!names(r.words, `${f.name}.${name}`)) wrong.push(`${op.method} ${op.path} without ${f.name}.${name}: ${r.status} ${r.words || "accepted"}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(probes).toBeGreaterThanOrEqual(35);
  }, 120_000);

  it("each optional field's example, added alone, is not refused by name (but for the names documented as refused)", async () => {
    const wrong: string[] = [];
    let probes = 0;
    for (const op of operations) {
      for (const f of op.fields.filter((f) => !f.required)) {
        if (f.description?.startsWith("Not supported") || STATE_BOUND.has(f.name)) continue;
        const context = CONTEXT[`${op.method} ${op.path} ${f.name}`] ?? {};
        const request = Object.fromEntries(
          Object.entries({ ...baseOf(op), ...(onThisChain(context) as object), [f.name]: onThisChain(f.example) }).filter(([, v]) => v !== undefined),
        );
        const r = await send(op, request);
        probes++;
        if (names(r.words, f.name)) wrong.push(`${op.method} ${op.path} with ${f.name}=${JSON.stringify(f.example)}: ${r.status} ${r.words}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(probes).toBeGreaterThanOrEqual(90);
  }, 120_000);
});

describe("the values a text field takes", () => {
  it("each value the document lists is taken, one it does not list is refused by name", async () => {
    const wrong: string[] = [];
    const listed = operations.flatMap((op) => op.fields.filter((f) => f.values !== undefined).map((f) => ({ op, f })));
    expect(listed.map(({ op, f }) => `${op.path} ${f.name}`).sort()).toEqual([
      "/swap/v1/quote swapMode",
      "/swap/v2/build mode",
      "/swap/v2/build swapMode",
      "/swap/v2/order broadcastFeeType",
      "/swap/v2/order excludeRouters",
      "/swap/v2/order priorityLevel",
      "/swap/v2/order swapMode",
      "/trigger/v1/getTriggerOrders orderStatus",
    ]);
    for (const { op, f } of listed) {
      const asSent = (value: string) => (Array.isArray(f.example) ? [value] : value);
      for (const value of f.values!) {
        const r = await send(op, { ...baseOf(op), [f.name]: asSent(value) });
        if (names(r.words, f.name)) wrong.push(`${op.method} ${op.path} ${f.name}=${value}: ${r.status} ${r.words}`);
      }
      const r = await send(op, { ...baseOf(op), [f.name]: asSent("notAValue") });
      if (!names(r.words, f.name)) wrong.push(`${op.method} ${op.path} ${f.name}=notAValue: ${r.status} ${r.words || "accepted"}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe("Jupiter's published documents", () => {
  const jupiter = (file: string, prefix: string) => {
    const d = parse(fs.readFileSync(referencePath(`openapi/${file}`), "utf8")) as Schema;
    const resolve = (s: Schema): Schema => (typeof s?.$ref === "string" ? resolve(d.components[s.$ref.split("/")[2]][s.$ref.split("/")[3]]) : s);
    return Object.entries(d.paths as Schema).flatMap(([p, ops]) =>
      Object.entries(ops as Schema).map(([method, op]) => {
        const body = op.requestBody ? resolve(op.requestBody.content["application/json"].schema) : undefined;
        const required = body
          ? ((body.required ?? []) as string[])
          : ((op.parameters ?? []) as Schema[])
              .map(resolve)
              .filter((q) => q.required)
              .map((q) => q.name as string);
        return { at: `${method.toUpperCase()} ${prefix}${p}`, required: [...required].sort() };
      }),
    );
  };

  it("where Jupiter documents an operation, its required fields are Jupiter's, by Jupiter's names", () => {
    const theirs = [
      ...jupiter("jup-ag-docs.swap-v1.yaml", "/swap/v1"),
      ...jupiter("jup-ag-docs.swap-v2.yaml", "/swap/v2"),
      ...jupiter("jup-ag-docs.trigger-v1.yaml", "/trigger/v1"),
    ];
    expect(theirs.length).toBeGreaterThanOrEqual(12);
    const ours = Object.fromEntries(
      operations.map((op) => [
        `${op.method} ${op.path}`,
        op.fields
          .filter((f) => f.required)
          .map((f) => f.name)
          .sort(),
      ]),
    );
    const documented = Object.fromEntries(operations.map((op) => [`${op.method} ${op.path}`, op.fields.map((f) => f.name)]));
    for (const { at, required } of theirs) {
      if (at === "GET /swap/v1/program-id-to-label") continue; // no parameters on either side
      expect(documented[at], at).toEqual(expect.arrayContaining(required));
      expect(ours[at], at).toEqual(required);
    }
  });
});
