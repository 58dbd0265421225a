// The Connect JSON Quote answer carries every field of the REST (Jupiter-shaped) answer, field by
// field, with the same values: a Jupiter-shaped client over Connect never reads `undefined` where
// Jupiter's JSON has a value (proto3 JSON leaves out unset messages, so `platformFee` is always set).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { startQuoteApiStack, type QuoteApiStack } from "./quote-stack.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = DEMO.usdcMint.toBase58();

let stack: QuoteApiStack;
beforeAll(async () => {
  stack = await startQuoteApiStack({});
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** A JSON value that is not an object or array. */
type Leaf = string | number | boolean | null;

/** Every path to a leaf of a JSON value (`routePlan[0].swapInfo.inAmount`), with the leaf. */
function leaves(value: unknown, path = ""): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`).forEach((leaf, p) => out.set(p, leaf)));
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) leaves(v, path === "" ? k : `${path}.${k}`).forEach((leaf, p) => out.set(p, leaf));
  } else out.set(path, value as Leaf);
  return out;
}

function keyPaths(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [path === "" ? k : `${path}.${k}`, ...keyPaths(v, path === "" ? k : `${path}.${k}`)]);
}

describe("Quote over Connect JSON has every field of the REST answer", () => {
  for (const platformFeeBps of [0, 20]) {
    it(`platformFeeBps ${platformFeeBps}`, async () => {
      const rest = await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&platformFeeBps=${platformFeeBps}`);
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      const connect = await stack.post("/swapd.swap.v1.SwapService/Quote", { inputMint: SOL, outputMint: USDC, amount: "1000000000", platformFeeBps });
      expect(connect.status, JSON.stringify(connect.body)).toBe(200);
      const connectKeys = new Set(keyPaths(connect.body));
      // Fields of Jupiter's answer that are per-call (timing) are compared for presence only.
      const perCall = new Set(["timeTaken", "contextSlot"]);
      for (const key of keyPaths(rest.body)) expect(connectKeys.has(key), `Connect answer lacks ${key}`).toBe(true);
      const connectLeaves = leaves(connect.body);
      for (const [path, value] of leaves(rest.body)) {
        if (perCall.has(path)) continue;
        if (value === null) {
          // Jupiter's null (no platform fee) is proto3's zero message: present, with zero values.
          expect(connect.body[path], path).toBeDefined();
          expect(
            Object.values(connect.body[path]).every((v) => v === 0 || v === "0"),
            path,
          ).toBe(true);
          continue;
        }
        // u64 amounts: Jupiter writes some as strings, proto3 JSON all of them.
        expect(String(connectLeaves.get(path)), path).toBe(String(value));
      }
    });
  }
});
