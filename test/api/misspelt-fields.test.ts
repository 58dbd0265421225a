/**
 * Every REST path and its Connect twin refuse a misspelt required field, naming the name they
 * intended: from the live `/openapi.json`, each operation's required query parameters and body
 * fields, each misspelt three ways (two neighbours swapped, a letter dropped, a letter doubled) in
 * an otherwise whole request built from the document's own examples; the answer must be 400 and
 * name both the misspelt and the intended name. A misspelling must never be taken as an absent
 * optional field (the `tkaer` that once gave 200 with no transaction).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { createLogger } from "../../src/server/logger.js";
import { LogCapture, testConfig } from "../server/helpers.js";

/** Three one-edit slips of a name (each differs from it). */
export function misspellings(name: string): string[] {
  const mid = Math.max(1, Math.floor(name.length / 2) - 1);
  const swapped = name.slice(0, mid) + name[mid + 1] + name[mid] + name.slice(mid + 2);
  const dropped = name.slice(0, -2) + name.slice(-1);
  const doubled = name.slice(0, mid) + name[mid] + name.slice(mid);
  return [...new Set([swapped, dropped, doubled])].filter((m) => m !== name);
}

/** The Connect method answering what a REST path does, with the same JSON names. */
const CONNECT_TWINS: Readonly<Record<string, string>> = {
  "GET /swap/v1/quote": "swapd.swap.v1.SwapService/Quote",
  "POST /trigger/v2/createOrder": "swapd.trigger.v2.NonceTriggerService/CreateOrder",
  "POST /trigger/v2/arm": "swapd.trigger.v2.NonceTriggerService/Arm",
  "POST /trigger/v2/cancelOrder": "swapd.trigger.v2.NonceTriggerService/CancelOrder",
  "GET /trigger/v2/orders": "swapd.trigger.v2.NonceTriggerService/GetOrders",
  "POST /trigger/v1/cancelOrder": "swapd.trigger.v1.TriggerService/CancelOrder",
};

interface Operation {
  readonly key: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly query: Record<string, unknown>;
  readonly body: Record<string, unknown> | null;
  readonly required: readonly { readonly name: string; readonly in: "query" | "body" }[];
}

function exampleOf(schema: any): unknown {
  return schema?.example ?? schema?.examples?.[0];
}

function operations(doc: any): Operation[] {
  const found: Operation[] = [];
  for (const [p, item] of Object.entries<any>(doc.paths)) {
    for (const method of ["get", "post"] as const) {
      const op = item[method];
      if (op === undefined) continue;
      const query: Record<string, unknown> = {};
      const required: { name: string; in: "query" | "body" }[] = [];
      for (const param of op.parameters ?? []) {
        if (param.in !== "query") continue;
        if (param.required) {
          query[param.name] = param.example ?? exampleOf(param.schema);
          required.push({ name: param.name, in: "query" });
        }
      }
      let body: Record<string, unknown> | null = null;
      let schema = op.requestBody?.content?.["application/json"]?.schema;
      if (schema?.$ref) schema = doc.components.schemas[schema.$ref.split("/").pop()];
      if (schema?.properties) {
        body = {};
        for (const name of schema.required ?? []) {
          body[name] = exampleOf(schema.properties[name]);
          required.push({ name, in: "body" });
        }
      }
      if (required.length > 0)
        found.push({ key: `${method.toUpperCase()} ${p}`, method: method.toUpperCase() as "GET" | "POST", path: p, query, body, required });
    }
  }
  return found;
}

let service: Service | undefined;
let dataDir: string;
let url: string;
let ops: Operation[];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-misspelt-"));
  service = await buildApp(testConfig({ DATA_DIR: dataDir }), { logger: createLogger("info", new LogCapture()) });
  url = service.server.url;
  ops = operations(await (await fetch(`${url}/openapi.json`)).json());
}, 240_000);

afterAll(async () => {
  await service?.shutdown.run("test done");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function send(op: Operation, query: Record<string, unknown>, body: Record<string, unknown> | null) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const target = `${url}${op.path}${search.size > 0 ? `?${search}` : ""}`;
  const response =
    op.method === "GET"
      ? await fetch(target)
      : await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
  return { status: response.status, text: await response.text() };
}

describe("a misspelt required field is refused with the intended name", () => {
  test("the slips are one edit each, and differ from the name", () => {
    expect(misspellings("taker")).toEqual(["tkaer", "takr", "taaker"]);
    expect(misspellings("inputMint")).toEqual(["inptuMint", "inputMit", "inpuutMint"]);
  });

  test("every REST path with required fields: 3 misspellings of each, each refused naming both names", async () => {
    expect(ops.length).toBeGreaterThanOrEqual(10);
    const missed: string[] = [];
    let probes = 0;
    for (const op of ops) {
      for (const field of op.required) {
        for (const wrong of misspellings(field.name)) {
          const query = { ...op.query };
          const body = op.body === null ? null : { ...op.body };
          const bag = field.in === "query" ? query : body!;
          bag[wrong] = bag[field.name];
          delete bag[field.name];
          const answer = await send(op, query, body);
          probes++;
          if (answer.status !== 400 || !answer.text.includes(wrong) || !answer.text.includes(field.name))
            missed.push(`${op.key} ${field.in} ${wrong} (for ${field.name}): ${answer.status} ${answer.text.slice(0, 160)}`);
        }
      }
    }
    console.log(`${probes} misspellings over ${ops.length} REST operations`);
    expect(missed).toEqual([]);
  }, 240_000);

  test("their Connect twins (same JSON names) refuse them alike", async () => {
    const missed: string[] = [];
    let probes = 0;
    for (const op of ops) {
      const method = CONNECT_TWINS[op.key];
      if (method === undefined) continue;
      const whole = { ...op.query, ...(op.body ?? {}) };
      for (const field of op.required) {
        for (const wrong of misspellings(field.name)) {
          const message: Record<string, unknown> = { ...whole, [wrong]: whole[field.name] };
          delete message[field.name];
          const response = await fetch(`${url}/${method}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(message) });
          const text = await response.text();
          probes++;
          if (response.status !== 400 || !text.includes(wrong) || !text.includes(field.name))
            missed.push(`${method} ${wrong} (for ${field.name}): ${response.status} ${text.slice(0, 160)}`);
        }
      }
    }
    console.log(`${probes} misspellings over ${Object.keys(CONNECT_TWINS).length} Connect methods`);
    expect(probes).toBeGreaterThanOrEqual(30);
    expect(missed).toEqual([]);
  }, 240_000);
});
