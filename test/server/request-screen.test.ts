// Requests that JSON readers would let pass silently, refused over the real port of the real service
// (`src/main.ts` with the embedded chain and PGlite) on REST, Connect JSON and gRPC-JSON alike:
// a near-miss field name or query parameter (named with its suggestion), and a JSON number that
// JSON.parse cannot keep exactly where the contract has an integer. Unknown, unrelated fields
// (Jupiter's own extras) stay accepted.
import http2 from "node:http2";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = DEMO.usdcMint.toBase58();
const WALLET = DEMO.wallet.toBase58();
const POOL = DEMO_POOLS.raydiumCpSolUsdc.toBase58();
const ABOVE_2_53 = "9007199254740993"; // 2^53 + 1: JSON.parse reads 9007199254740992

const dataDir = mkdtempSync(join(tmpdir(), "swapd-request-screen-"));
let swapd: SwapdProcess;
beforeAll(async () => {
  // PostgreSQL when there is one (a fresh PGlite database takes its own long seconds to create).
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  swapd = await startSwapdProcess(database, 90_000);
}, 120_000);
afterAll(async () => {
  await swapd?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The body text with a number spliced in as written (JSON.stringify cannot write 2^53 + 1). */
function withNumber(body: Record<string, unknown>, placeholder: string, number: string): string {
  return JSON.stringify(body).replace(`"${placeholder}"`, number);
}

function quoteResponse(extra: Record<string, unknown> = {}) {
  return {
    inputMint: SOL,
    inAmount: "1000000000",
    outputMint: USDC,
    outAmount: "149175000",
    otherAmountThreshold: "148429125",
    swapMode: "ExactIn",
    slippageBps: 50,
    priceImpactPct: "0.001",
    routePlan: [
      {
        swapInfo: {
          ammKey: POOL,
          label: "Raydium CP",
          inputMint: SOL,
          outputMint: USDC,
          inAmount: "1000000000",
          outAmount: "149175000",
          feeAmount: "0",
          feeMint: SOL,
        },
        percent: 100,
      },
    ],
    contextSlot: 1234,
    timeTaken: 0.002,
    ...extra,
  };
}

function createOrderBody(makingAmount: unknown) {
  return { maker: WALLET, payer: WALLET, inputMint: USDC, outputMint: SOL, params: { makingAmount, takingAmount: "50000000" }, computeUnitPrice: "auto" };
}

interface Answer {
  readonly status: number;
  readonly message: string;
}

async function rest(path: string, body?: string): Promise<Answer> {
  const res = await fetch(`${swapd.url}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body });
  const json = (await res.json()) as { error?: string };
  return { status: res.status, message: json.error ?? "" };
}

async function connect(procedure: string, body: string): Promise<Answer & { code: string }> {
  const res = await fetch(`${swapd.url}/${procedure}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const json = (await res.json()) as { code?: string; message?: string };
  return { status: res.status, code: json.code ?? "ok", message: json.message ?? "" };
}

/** gRPC with the JSON codec (`application/grpc+json`) over h2c: one enveloped message, the status in the trailers. */
async function grpcJson(procedure: string, body: string): Promise<{ grpcStatus: number; message: string }> {
  const session = http2.connect(swapd.url);
  try {
    const data = Buffer.from(body);
    const envelope = Buffer.alloc(5 + data.length);
    envelope.writeUInt32BE(data.length, 1);
    data.copy(envelope, 5);
    const stream = session.request({ ":method": "POST", ":path": `/${procedure}`, "content-type": "application/grpc+json", te: "trailers" });
    stream.end(envelope);
    return await new Promise((resolve, reject) => {
      let headers: http2.IncomingHttpHeaders = {};
      stream.on("response", (h) => (headers = h));
      stream.on("trailers", (t) => (headers = { ...headers, ...t }));
      stream.on("data", () => {});
      stream.on("error", reject);
      stream.on("end", () => resolve({ grpcStatus: Number(headers["grpc-status"]), message: decodeURIComponent(String(headers["grpc-message"] ?? "")) }));
    });
  } finally {
    session.close();
  }
}

const SWAP_INSTRUCTIONS = "swapd.swap.v1.SwapService/SwapInstructions";
const CREATE_ORDER = "swapd.trigger.v1.TriggerService/CreateOrder";
const QUOTE = "swapd.swap.v1.SwapService/Quote";
const INVALID_ARGUMENT = 3;

describe("a near-miss field name is refused, naming both", () => {
  it("REST query: slipageBps", async () => {
    const answer = await rest(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1000000&slipageBps=100`);
    expect(answer).toEqual({ status: 400, message: "slipageBps: unknown parameter; did you mean slippageBps?" });
  });

  it("REST body: wrapAndUnwrapSOL (case), and inside quoteResponse (two edits)", async () => {
    const top = await rest("/swap/v1/swap-instructions", JSON.stringify({ userPublicKey: WALLET, quoteResponse: quoteResponse(), wrapAndUnwrapSOL: false }));
    expect(top).toEqual({ status: 400, message: "wrapAndUnwrapSOL: unknown field; did you mean wrapAndUnwrapSol?" });
    const nested = await rest("/swap/v1/swap-instructions", JSON.stringify({ userPublicKey: WALLET, quoteResponse: quoteResponse({ slipageBps: 100 }) }));
    expect(nested).toEqual({ status: 400, message: "quoteResponse.slipageBps: unknown field; did you mean slippageBps?" });
  });

  it("Connect JSON: SwapInstructions and Quote", async () => {
    const swap = await connect(SWAP_INSTRUCTIONS, JSON.stringify({ userPublicKey: WALLET, quoteResponse: quoteResponse(), wrapAndUnwrapSOL: false }));
    expect(swap).toEqual({ status: 400, code: "invalid_argument", message: "wrapAndUnwrapSOL: unknown field; did you mean wrapAndUnwrapSol?" });
    const quote = await connect(QUOTE, JSON.stringify({ inputMint: SOL, outputMint: USDC, amount: "1000000", slipageBps: 100 }));
    expect(quote).toEqual({ status: 400, code: "invalid_argument", message: "slipageBps: unknown field; did you mean slippageBps?" });
  });

  it("gRPC-JSON: SwapInstructions and Quote", async () => {
    const swap = await grpcJson(SWAP_INSTRUCTIONS, JSON.stringify({ userPublicKey: WALLET, quoteResponse: quoteResponse(), wrapAndUnwrapSOL: false }));
    expect(swap).toEqual({ grpcStatus: INVALID_ARGUMENT, message: "wrapAndUnwrapSOL: unknown field; did you mean wrapAndUnwrapSol?" });
    const quote = await grpcJson(QUOTE, JSON.stringify({ inputMint: SOL, outputMint: USDC, amount: "1000000", slipageBps: 100 }));
    expect(quote).toEqual({ grpcStatus: INVALID_ARGUMENT, message: "slipageBps: unknown field; did you mean slippageBps?" });
  });

  it("gRPC-web with JSON: the same refusal", async () => {
    const data = Buffer.from(JSON.stringify({ inputMint: SOL, outputMint: USDC, amount: "1000000", slipageBps: 100 }));
    const envelope = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), data]);
    envelope.writeUInt32BE(data.length, 1);
    const res = await fetch(`${swapd.url}/${QUOTE}`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+json", "x-grpc-web": "1" },
      body: envelope,
    });
    // The status is in the headers (trailers-only answer) or in the body's trailer frame.
    const body = Buffer.from(await res.arrayBuffer());
    const trailer = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n${body.length > 5 ? body.subarray(5).toString() : ""}`;
    expect(trailer).toMatch(/grpc-status: ?3\b/);
    expect(decodeURIComponent(/grpc-message: ?([^\r\n]*)/.exec(trailer)?.[1] ?? "")).toBe("slipageBps: unknown field; did you mean slippageBps?");
  });

  it("unknown, unrelated fields stay accepted (Jupiter's extras), on every protocol", async () => {
    const extras = quoteResponse({ mostReliableAmmsQuoteReport: { info: {} }, instructionVersion: "V1", scoreReport: null, swapUsdValue: "150" });
    const body = JSON.stringify({ userPublicKey: WALLET, quoteResponse: extras, someClientTag: "abc" });
    const viaRest = await fetch(`${swapd.url}/swap/v1/swap-instructions`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(viaRest.status, await viaRest.clone().text()).toBe(200);
    expect((await connect(SWAP_INSTRUCTIONS, body)).status).toBe(200);
    expect((await grpcJson(SWAP_INSTRUCTIONS, body)).grpcStatus).toBe(0);
    const quote = await fetch(`${swapd.url}/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1000000&forJitoBundle=true&instructionVersion=V1`);
    expect(quote.status, await quote.clone().text()).toBe(200);
  });
});

describe("a JSON number above 2^53 for an integer is refused, not rounded", () => {
  const createOrder = withNumber(createOrderBody("AMOUNT"), "AMOUNT", ABOVE_2_53);
  const swapInstructions = withNumber({ userPublicKey: WALLET, quoteResponse: quoteResponse({ inAmount: "AMOUNT" }) }, "AMOUNT", ABOVE_2_53);
  const sayStringForCreateOrder = `params.makingAmount: the JSON number ${ABOVE_2_53} is above 2^53 and would lose precision; send 64-bit integers as decimal strings ("${ABOVE_2_53}")`;
  const sayStringForSwap = `quoteResponse.inAmount: the JSON number ${ABOVE_2_53} is above 2^53 and would lose precision; send 64-bit integers as decimal strings ("${ABOVE_2_53}")`;

  it("CreateOrder on REST, Connect and gRPC-JSON", async () => {
    expect(await rest("/trigger/v1/createOrder", createOrder)).toEqual({ status: 400, message: sayStringForCreateOrder });
    expect(await connect(CREATE_ORDER, createOrder)).toEqual({ status: 400, code: "invalid_argument", message: sayStringForCreateOrder });
    expect(await grpcJson(CREATE_ORDER, createOrder)).toEqual({ grpcStatus: INVALID_ARGUMENT, message: sayStringForCreateOrder });
  });

  it("SwapInstructions on REST, Connect (the codec path) and gRPC-JSON", async () => {
    expect(await rest("/swap/v1/swap-instructions", swapInstructions)).toEqual({ status: 400, message: sayStringForSwap });
    expect(await connect(SWAP_INSTRUCTIONS, swapInstructions)).toEqual({ status: 400, code: "invalid_argument", message: sayStringForSwap });
    expect(await grpcJson(SWAP_INSTRUCTIONS, swapInstructions)).toEqual({ grpcStatus: INVALID_ARGUMENT, message: sayStringForSwap });
  });

  it("an exponent or a trailing .0 for an integer is refused too; the same amount as a string is not", async () => {
    const exponent = withNumber({ userPublicKey: WALLET, quoteResponse: quoteResponse({ inAmount: "AMOUNT" }) }, "AMOUNT", "1e9");
    const refused = await connect(SWAP_INSTRUCTIONS, exponent);
    expect(refused).toMatchObject({
      status: 400,
      message: "quoteResponse.inAmount: the JSON number 1e9 is not written as an integer; send 64-bit integers as decimal strings of digits",
    });
    const point = withNumber(createOrderBody("AMOUNT"), "AMOUNT", "100000000.0");
    expect((await grpcJson(CREATE_ORDER, point)).message).toMatch(/^params\.makingAmount: the JSON number 100000000\.0 is not written as an integer/);
    // The same request with the amount as a string gets past the screen (whatever the order then says).
    const asString = await connect(CREATE_ORDER, JSON.stringify(createOrderBody(ABOVE_2_53)));
    expect(asString.message).not.toMatch(/2\^53|JSON number/);
    const swapAsString = await connect(SWAP_INSTRUCTIONS, JSON.stringify({ userPublicKey: WALLET, quoteResponse: quoteResponse({ inAmount: "1000000000" }) }));
    expect(swapAsString.status).toBe(200);
  });
});

describe("a field or parameter given twice is refused, naming it (JSON.parse keeps the last, URLSearchParams.get the first)", () => {
  /** The body text with `"name":` written twice: first `first`, then the body's own value. */
  function twice(body: Record<string, unknown>, name: string, first: string): string {
    const text = JSON.stringify(body);
    const at = text.indexOf(`"${name}":`);
    return `${text.slice(0, at)}"${name}":${first},${text.slice(at)}`;
  }

  it("REST bodies: createOrder's makingAmount, swap-instructions' nested inAmount, /swap/v2/execute's requestId", async () => {
    const order = twice(createOrderBody("900000000000"), "makingAmount", '"1000"');
    expect(JSON.parse(order).params.makingAmount).toBe("900000000000"); // what JSON.parse alone would have used
    expect(await rest("/trigger/v1/createOrder", order)).toEqual({ status: 400, message: "params.makingAmount: given more than once; send each field once" });
    const swap = twice({ userPublicKey: WALLET, quoteResponse: quoteResponse() }, "userPublicKey", `"${SOL}"`);
    expect(await rest("/swap/v1/swap-instructions", swap)).toEqual({ status: 400, message: "userPublicKey: given more than once; send each field once" });
    const nested = twice({ userPublicKey: WALLET, quoteResponse: quoteResponse() }, "percent", "50");
    expect(await rest("/swap/v1/swap", nested)).toEqual({
      status: 400,
      message: "quoteResponse.routePlan[0].percent: given more than once; send each field once",
    });
    const execute = twice({ signedTransaction: "AQ==", requestId: "a" }, "requestId", '"b"');
    expect(await rest("/swap/v2/execute", execute)).toEqual({ status: 400, message: "requestId: given more than once; send each field once" });
  });

  it("Connect and gRPC-JSON refuse the same body (protobuf-es)", async () => {
    const order = twice(createOrderBody("900000000000"), "makingAmount", '"1000"');
    expect(await connect(CREATE_ORDER, order)).toMatchObject({ status: 400, code: "invalid_argument" });
    expect((await grpcJson(CREATE_ORDER, order)).grpcStatus).toBe(INVALID_ARGUMENT);
  });

  it("REST query: a repeated scalar on /swap/v1/quote, /swap/v2/order and /swap/v2/build", async () => {
    const pair = `inputMint=${SOL}&outputMint=${USDC}`;
    expect(await rest(`/swap/v1/quote?${pair}&amount=1000000&amount=5000000000`)).toEqual({ status: 400, message: "amount: must be given once, got 2 values" });
    expect(await rest(`/v6/quote?${pair}&amount=1000000&slippageBps=50&slippageBps=5000`)).toEqual({
      status: 400,
      message: "slippageBps: must be given once, got 2 values",
    });
    expect(await rest(`/swap/v2/order?${pair}&amount=1000000&amount=5000000000`)).toEqual({ status: 400, message: "amount: must be given once, got 2 values" });
    expect(await rest(`/swap/v2/order?${pair}&amount=1000000&maxLamports=1&maxLamports=2`)).toEqual({
      status: 400,
      message: "maxLamports: must be given once, got 2 values",
    });
    expect(await rest(`/swap/v2/build?${pair}&amount=1000000&taker=${WALLET}&taker=${SOL}`)).toEqual({
      status: 400,
      message: "taker: must be given once, got 2 values",
    });
  });

  it("a list parameter may still be repeated (dexes=A&dexes=B is both)", async () => {
    const res = await fetch(`${swapd.url}/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1000000&dexes=Raydium%20CP&dexes=Whirlpool`);
    expect(res.status, await res.clone().text()).toBe(200);
  });
});
