/**
 * Bad input to CreateOrder, CancelOrder, CancelOrders and Execute, over gRPC (grpc-js) and REST:
 * every case answers INVALID_ARGUMENT / 400 with a message naming the field, writes nothing (the
 * store's row counts stay the same) and makes no Solana RPC call (the localnet's counters stay
 * the same). gRPC cases use what the proto can carry; REST cases also send JSON that only a JSON
 * client can (decimal amounts, numbers out of range, wrong types).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { startTriggerHarness } from "./trigger-harness.js";
import type { TriggerHarness } from "./trigger-harness.js";

const maker = DEMO.wallet.toBase58();
const usdc = DEMO.usdcMint.toBase58();
const sol = NATIVE_MINT.toBase58();
const future = String(Math.floor(Date.now() / 1000) + 3600);

function createBody(overrides: Record<string, unknown> = {}, params: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    inputMint: sol,
    outputMint: usdc,
    maker,
    payer: maker,
    params: { makingAmount: "1000000", takingAmount: "2000000", expiredAt: future, ...params },
    ...overrides,
  };
}

interface BadCase {
  readonly kind: string;
  readonly method: "CreateOrder" | "CancelOrder" | "CancelOrders" | "Execute";
  readonly body: Record<string, unknown>;
  /** The message starts with this field path. */
  readonly field: string;
}

const REST_PATH = {
  CreateOrder: "/trigger/v1/createOrder",
  CancelOrder: "/trigger/v1/cancelOrder",
  CancelOrders: "/trigger/v1/cancelOrders",
  Execute: "/trigger/v1/execute",
} as const;

const REST_SUMMARY = {
  CreateOrder: "invalid create order request",
  CancelOrder: "invalid cancel order request",
  CancelOrders: "invalid cancel orders request",
  Execute: "invalid transaction",
} as const;

/** Expressible over both gRPC and REST. */
const bothCases: BadCase[] = [
  { kind: "missing inputMint", method: "CreateOrder", body: createBody({ inputMint: "" }), field: "inputMint" },
  { kind: "inputMint not base58", method: "CreateOrder", body: createBody({ inputMint: "not-a-key!" }), field: "inputMint" },
  { kind: "outputMint too short", method: "CreateOrder", body: createBody({ outputMint: "abc" }), field: "outputMint" },
  { kind: "outputMint equals inputMint", method: "CreateOrder", body: createBody({ outputMint: sol }), field: "outputMint" },
  { kind: "maker with a 0 (not base58)", method: "CreateOrder", body: createBody({ maker: "0".repeat(44) }), field: "maker" },
  { kind: "missing payer", method: "CreateOrder", body: createBody({ payer: "" }), field: "payer" },
  { kind: "missing params", method: "CreateOrder", body: createBody({ params: undefined }), field: "params" },
  { kind: "makingAmount 0", method: "CreateOrder", body: createBody({}, { makingAmount: "0" }), field: "params.makingAmount" },
  { kind: "takingAmount 0", method: "CreateOrder", body: createBody({}, { takingAmount: "0" }), field: "params.takingAmount" },
  { kind: "expiredAt in the past", method: "CreateOrder", body: createBody({}, { expiredAt: "1700000000" }), field: "params.expiredAt" },
  { kind: "expiredAt in milliseconds", method: "CreateOrder", body: createBody({}, { expiredAt: String(Date.now() + 3_600_000) }), field: "params.expiredAt" },
  { kind: "expiredAt negative", method: "CreateOrder", body: createBody({}, { expiredAt: "-5" }), field: "params.expiredAt" },
  { kind: "slippageBps above 10000", method: "CreateOrder", body: createBody({}, { slippageBps: "10001" }), field: "params.slippageBps" },
  { kind: "feeBps above 10000", method: "CreateOrder", body: createBody({ feeAccount: maker }, { feeBps: "20000" }), field: "params.feeBps" },
  { kind: "feeBps without feeAccount", method: "CreateOrder", body: createBody({}, { feeBps: "10" }), field: "params.feeBps" },
  { kind: "feeAccount not a key", method: "CreateOrder", body: createBody({ feeAccount: "xyz" }, { feeBps: "10" }), field: "feeAccount" },
  { kind: "computeUnitPrice not auto or a number", method: "CreateOrder", body: createBody({ computeUnitPrice: "fast" }), field: "computeUnitPrice" },
  { kind: "computeUnitPrice above u64", method: "CreateOrder", body: createBody({ computeUnitPrice: "18446744073709551616" }), field: "computeUnitPrice" },
  { kind: "inputTokenProgram not a token program", method: "CreateOrder", body: createBody({ inputTokenProgram: maker }), field: "inputTokenProgram" },
  { kind: "cancel: missing order", method: "CancelOrder", body: { maker, order: "" }, field: "order" },
  { kind: "cancel: missing maker", method: "CancelOrder", body: { maker: "", order: maker }, field: "maker" },
  { kind: "cancel: bad computeUnitPrice", method: "CancelOrder", body: { maker, order: maker, computeUnitPrice: "1.5" }, field: "computeUnitPrice" },
  { kind: "cancelOrders: bad maker", method: "CancelOrders", body: { maker: "nope" }, field: "maker" },
  { kind: "cancelOrders: bad key in orders", method: "CancelOrders", body: { maker, orders: [maker, "bad"] }, field: "orders[1]" },
  { kind: "cancelOrders: duplicate order", method: "CancelOrders", body: { maker, orders: [usdc, usdc] }, field: "orders[1]" },
  {
    kind: "cancelOrders: more than 100 orders",
    method: "CancelOrders",
    body: { maker, orders: Array.from({ length: 101 }, () => Keypair.generate().publicKey.toBase58()) },
    field: "orders",
  },
  { kind: "execute: missing requestId", method: "Execute", body: { requestId: "", signedTransaction: "AQID" }, field: "requestId" },
  { kind: "execute: requestId not a UUID", method: "Execute", body: { requestId: "12345", signedTransaction: "AQID" }, field: "requestId" },
  { kind: "execute: missing signedTransaction", method: "Execute", body: { requestId: randomUUID(), signedTransaction: "" }, field: "signedTransaction" },
  { kind: "execute: not a transaction", method: "Execute", body: { requestId: randomUUID(), signedTransaction: "AQID" }, field: "signedTransaction" },
];

/** Only a JSON client can send these (the proto types refuse them client-side). */
const restOnlyCases: BadCase[] = [
  { kind: "makingAmount with a decimal point", method: "CreateOrder", body: createBody({}, { makingAmount: "0.125" }), field: "params.makingAmount" },
  { kind: "takingAmount above u64", method: "CreateOrder", body: createBody({}, { takingAmount: "18446744073709551616" }), field: "params.takingAmount" },
  { kind: "makingAmount not a string of digits", method: "CreateOrder", body: createBody({}, { makingAmount: "1e6" }), field: "params.makingAmount" },
  { kind: "wrapAndUnwrapSol not a boolean", method: "CreateOrder", body: createBody({ wrapAndUnwrapSol: "yes" }), field: "wrapAndUnwrapSol" },
  { kind: "orders not an array", method: "CancelOrders", body: { maker, orders: "abc" }, field: "orders" },
  { kind: "signedTransaction not base64", method: "Execute", body: { requestId: randomUUID(), signedTransaction: "%%%" }, field: "signedTransaction" },
];

/** The body as grpc-js/proto-loader takes it: amounts as decimal strings, bytes as a Buffer. */
function grpcRequest(c: BadCase): Record<string, unknown> {
  if (c.method !== "Execute") return c.body;
  return { requestId: c.body["requestId"], signedTransaction: Buffer.from(String(c.body["signedTransaction"]), "base64") };
}

let h: TriggerHarness;
beforeAll(async () => {
  h = await startTriggerHarness();
});
afterAll(async () => {
  await h?.close();
});

async function expectNothingDone(run: () => Promise<void>): Promise<void> {
  const rows = await h.rowCounts();
  const rpc = h.localnet.stats().httpRequests;
  await run();
  expect(await h.rowCounts()).toEqual(rows);
  expect(h.localnet.stats().httpRequests).toBe(rpc);
}

describe("bad input: INVALID_ARGUMENT / 400 naming the field, nothing written, no RPC call", () => {
  it(`has at least 15 kinds per protocol (${bothCases.length} over gRPC, ${bothCases.length + restOnlyCases.length} over REST)`, () => {
    expect(new Set(bothCases.map((c) => c.kind)).size).toBeGreaterThanOrEqual(15);
  });

  for (const c of bothCases) {
    it(`gRPC ${c.method}: ${c.kind}`, async () => {
      await expectNothingDone(async () => {
        const error = await h.grpc(c.method, grpcRequest(c)).then(
          () => null,
          (e: { code: number; details: string }) => e,
        );
        expect(error).toMatchObject({ code: 3 }); // INVALID_ARGUMENT
        expect(error!.details.startsWith(`${c.field}: `)).toBe(true);
      });
    });
  }

  for (const c of [...bothCases, ...restOnlyCases]) {
    it(`REST ${REST_PATH[c.method]}: ${c.kind}`, async () => {
      await expectNothingDone(async () => {
        const { status, body } = await h.rest(REST_PATH[c.method], c.body);
        expect(status).toBe(400);
        expect(body).toMatchObject({ error: REST_SUMMARY[c.method], code: 400 });
        expect(String(body["cause"]).startsWith(`${c.field}: `)).toBe(true);
        if (c.method === "Execute") expect(body["status"]).toBe("Failed");
      });
    });
  }

  it("REST: a body that is not a JSON object names the body", async () => {
    await expectNothingDone(async () => {
      const { status, body } = await h.rest("/trigger/v1/createOrder", ["not", "an", "object"]);
      expect(status).toBe(400);
      expect(String(body["cause"])).toMatch(/^body: /);
    });
  });

  it("a token program that does not match the mint's owner names the field (after the one mint read), nothing written", async () => {
    const rows = await h.rowCounts();
    const { status, body } = await h.rest("/trigger/v1/createOrder", createBody({ outputTokenProgram: TOKEN_2022_PROGRAM_ID.toBase58() }));
    expect(status).toBe(400);
    expect(String(body["cause"])).toMatch(/^outputTokenProgram: /);
    expect(await h.rowCounts()).toEqual(rows);
  });
});
