// The JSON request screen's rules, and that it refuses none of the names Jupiter's own API
// documents (the property and parameter names of the OpenAPI files in test/fixtures/reference).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REST_REQUESTS } from "../../src/api/rest-requests/rest-request-shapes.js";
import { nearMissOf, screenJsonRequest, screenQueryParameters } from "../../src/server/protocol/json-request-screen.js";
import { requestShapeOf } from "../../src/server/protocol/request-shape.js";
import { ProgramIdToLabelResponseSchema } from "../../src/gen/swapd/swap/v1/swap_pb.js";

const openapi = (name: string) => readFileSync(new URL(`../fixtures/reference/openapi/${name}`, import.meta.url), "utf8");

/** The lines of a YAML block: from the line matching `head` to the next line indented as little. */
function block(yaml: string, head: RegExp): string {
  const lines = yaml.split("\n");
  const first = lines.findIndex((l) => head.test(l));
  if (first < 0) throw new Error(`no ${head} in the document`);
  const indent = lines[first].length - lines[first].trimStart().length;
  const end = lines.findIndex((l, i) => i > first && l.trim() !== "" && l.length - l.trimStart().length <= indent);
  return lines.slice(first, end < 0 ? undefined : end).join("\n");
}

/** Every parameter `name:` and every key of a `properties:` map in a YAML text. */
function documentedNames(yaml: string): string[] {
  const names = new Set<string>();
  for (const m of yaml.matchAll(/^\s*-?\s*name:\s*([A-Za-z]+)\s*$/gm)) names.add(m[1]);
  const lines = yaml.split("\n");
  lines.forEach((line, i) => {
    const open = /^(\s*)properties:\s*$/.exec(line);
    if (!open) return;
    const indent = open[1].length + 2;
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j].trim() === "") continue;
      const lead = lines[j].length - lines[j].trimStart().length;
      if (lead < indent) break;
      const m = /^\s*([A-Za-z]+):/.exec(lines[j]);
      if (m && lead === indent) names.add(m[1]);
    }
  });
  return [...names];
}

describe("near misses", () => {
  it("case, one and two edits; short names one edit; nothing for unrelated names", () => {
    const known = ["slippageBps", "wrapAndUnwrapSol", "amount", "bps", "page"];
    expect(nearMissOf("slipageBps", known)).toBe("slippageBps");
    expect(nearMissOf("slippagebps", known)).toBe("slippageBps");
    expect(nearMissOf("wrapAndUnwrapSOL", known)).toBe("wrapAndUnwrapSol");
    expect(nearMissOf("ammount", known)).toBe("amount");
    expect(nearMissOf("ammountt", known)).toBe("amount");
    expect(nearMissOf("ammounttt", known)).toBeUndefined();
    expect(nearMissOf("sbp", known)).toBeUndefined(); // two edits from "bps", too short for two
    expect(nearMissOf("bsp", known)).toBe("bps"); // two swapped neighbours: one edit
    expect(nearMissOf("pages", known)).toBe("page");
    expect(nearMissOf("mostReliableAmmsQuoteReport", known)).toBeUndefined();
  });

  it("two swapped neighbours are one edit; a name without its unit; another API's name of the same thing", () => {
    expect(nearMissOf("tkaer", ["taker", "amount"])).toBe("taker");
    expect(nearMissOf("tkear", ["taker", "amount"])).toBeUndefined(); // two swaps apart: two edits, too many for five letters
    expect(nearMissOf("slippage", ["slippageBps", "amount"])).toBe("slippageBps");
    expect(nearMissOf("computeUnitPrice", ["computeUnitPriceMicroLamports"])).toBe("computeUnitPriceMicroLamports");
    expect(nearMissOf("userPublicKey", ["taker", "inputMint"])).toBe("taker");
    expect(nearMissOf("taker", ["userPublicKey", "quoteResponse"])).toBe("userPublicKey");
    expect(nearMissOf("userPublicKey", ["inputMint", "amount"])).toBeUndefined();
    expect(nearMissOf("slip", ["slippageBps"])).toBeUndefined();
  });

  it("none of Jupiter's documented names is refused where Jupiter sends it", () => {
    const swapDocs = [openapi("jup-ag-docs.swap-v1.yaml"), openapi("jupiter-quote-api-node.swagger.yaml")];
    const trigger = openapi("jup-ag-docs.trigger-v1.yaml");
    const names = (docs: string[], head: RegExp) => [...new Set(docs.flatMap((d) => documentedNames(block(d, head))))];
    const schema = (name: string) => names(swapDocs, new RegExp(`^    ${name}:`));
    const places = [
      { at: "swap request", names: schema("SwapRequest"), body: (n: string) => ({ [n]: null }) },
      {
        at: "quoteResponse",
        names: [...schema("QuoteResponse"), ...schema("RoutePlanStep"), ...schema("SwapInfo")],
        body: (n: string) => ({ quoteResponse: { [n]: null, routePlan: [{ [n]: null, swapInfo: { [n]: null } }] } }),
      },
      { at: "platformFee", names: schema("PlatformFee"), body: (n: string) => ({ quoteResponse: { platformFee: { [n]: null } } }) },
      {
        at: "prioritizationFeeLamports",
        names: [...schema("PriorityLevelWithMaxLamports"), ...schema("JitoTipLamports"), ...schema("JitoTipLamportsWithPayer")],
        body: (n: string) => ({ prioritizationFeeLamports: { [n]: null } }),
      },
    ];
    for (const place of places) {
      expect(place.names.length, place.at).toBeGreaterThan(0);
      for (const name of place.names) {
        for (const shape of [REST_REQUESTS.swap.body, REST_REQUESTS.swapInstructions.body]) {
          expect(screenJsonRequest(shape, JSON.stringify(place.body(name)))?.message, `${name} in ${place.at}`).toBeUndefined();
        }
      }
    }
    const quoteParameters = names(swapDocs, /^  parameters:/); // components.parameters: what /quote refers to
    expect(quoteParameters).toContain("slippageBps");
    for (const name of quoteParameters)
      expect(screenQueryParameters(REST_REQUESTS.quote.query, new URLSearchParams({ [name]: "1" }))?.message, name).toBeUndefined();
    const triggerBodies = {
      createOrder: REST_REQUESTS.createOrder.body,
      cancelOrder: REST_REQUESTS.cancelOrder.body,
      cancelOrders: REST_REQUESTS.cancelOrders.body,
      execute: REST_REQUESTS.execute.body,
    };
    for (const [path, shape] of Object.entries(triggerBodies)) {
      const documented = documentedNames(block(trigger, new RegExp(`^  /${path}:`)));
      expect(documented.length, path).toBeGreaterThan(1);
      for (const name of documented) {
        expect(
          screenJsonRequest(shape, JSON.stringify(path === "createOrder" ? { [name]: null, params: { [name]: null } } : { [name]: null }))?.message,
          `${name} in ${path}`,
        ).toBeUndefined();
      }
    }
    for (const name of documentedNames(block(trigger, /^  \/getTriggerOrders:/))) {
      expect(screenQueryParameters(REST_REQUESTS.getTriggerOrders.query, new URLSearchParams({ [name]: "1" }))?.message, name).toBeUndefined();
    }
  });
});

describe("inexact numbers", () => {
  const shape = REST_REQUESTS.createOrder.body;
  it("above 2^53, an exponent, a trailing .0: refused at integer fields, with the path", () => {
    expect(screenJsonRequest(shape, '{"params":{"makingAmount":9007199254740993}}')?.message).toMatch(
      /^params\.makingAmount: the JSON number 9007199254740993 is above 2\^53/,
    );
    expect(screenJsonRequest(shape, '{"params":{"slippageBps":5e1}}')?.message).toBe(
      "params.slippageBps: the JSON number 5e1 is not written as an integer; send integers as decimal strings of digits",
    );
    expect(screenJsonRequest(shape, '{"params":{"takingAmount":1.0}}')?.message).toMatch(/^params\.takingAmount: the JSON number 1\.0 /);
    expect(screenJsonRequest(shape, '{"params":{"takingAmount": -1.5e3}}')?.message).toMatch(/^params\.takingAmount: the JSON number -1\.5e3 /);
    // SOL's mint (a run of 42 digits inside a string) is no number; an amount string of 19 digits neither.
    expect(
      screenJsonRequest(shape, '{"inputMint":"So11111111111111111111111111111111111111112","params":{"makingAmount":"1000000000000000000"}}'),
    ).toBeUndefined();
  });

  it("exact integers, fractions (left to the readers' own words), strings, and unknown or non-integer fields pass", () => {
    expect(screenJsonRequest(shape, '{"params":{"makingAmount":9007199254740991,"takingAmount":"9007199254740993"}}')).toBeUndefined();
    expect(screenJsonRequest(shape, '{"params":{"makingAmount":0.125}}')).toBeUndefined();
    expect(screenJsonRequest(shape, '{"other":9007199254740993,"params":{"note":1e3}}')).toBeUndefined();
    expect(screenJsonRequest(REST_REQUESTS.swapInstructions.body, '{"quoteResponse":{"timeTaken":1e3}}')).toBeUndefined();
  });

  it("lists and maps of integers; a map's keys are data, not names", () => {
    expect(screenJsonRequest(REST_REQUESTS.swapInstructions.body, '{"quoteResponse":{"routePlan":[{"percent":100},{"percent":1e2}]}}')?.message).toMatch(
      /^quoteResponse\.routePlan\[1\]\.percent: /,
    );
    expect(screenJsonRequest(requestShapeOf(ProgramIdToLabelResponseSchema), '{"labels":{"lables":"x"}}')).toBeUndefined();
  });
});
