// Bad input (table-driven, over gRPC and REST): INVALID_ARGUMENT / 400 naming the field, and not
// one RPC call. Route steps the chain cannot serve: FAILED_PRECONDITION / 400
// FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS naming step, ammKey and label. An RPC that is down:
// UNAVAILABLE / 503 within the timeout.
import * as grpc from "@grpc/grpc-js";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_POOL, SOL, USDC, WALLET, demoSolToUsdc, startSwapStack, toProtoJson } from "./swap-stack.js";
import type { SwapStack } from "./swap-stack.js";

const OTHER_KEY = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

let stack: SwapStack;
beforeAll(async () => {
  stack = await startSwapStack();
});
afterAll(async () => {
  await stack?.close();
});

type Req = Record<string, any>;
interface BadCase {
  name: string;
  /** The field the message must name. */
  field: string;
  mutate: (r: Req) => void;
  /** Only over REST (Jupiter's JSON form; the proto type cannot carry it), or only over gRPC. */
  only?: "rest" | "grpc";
}
const q = (r: Req) => r.quoteResponse;
const step0 = (r: Req) => r.quoteResponse.routePlan[0];

const BAD: BadCase[] = [
  { name: "userPublicKey not base58", field: "userPublicKey", mutate: (r) => (r.userPublicKey = "not-a-key!") },
  { name: "userPublicKey missing", field: "userPublicKey", mutate: (r) => delete r.userPublicKey },
  { name: "userPublicKey of 31 bytes", field: "userPublicKey", mutate: (r) => (r.userPublicKey = "1111111111111111111111111111111") },
  // Base58 decoding is quadratic: a request-sized key must be refused before it is decoded (else: minutes of CPU).
  { name: "userPublicKey of 200 000 characters", field: "userPublicKey", mutate: (r) => (r.userPublicKey = "2".repeat(200_000)) },
  { name: "quoteResponse missing", field: "quoteResponse", mutate: (r) => delete r.quoteResponse },
  { name: "inputMint not a key", field: "quoteResponse.inputMint", mutate: (r) => (q(r).inputMint = "xyz") },
  { name: "outputMint equals inputMint", field: "quoteResponse.outputMint", mutate: (r) => (q(r).outputMint = SOL) },
  { name: "slippageBps over 10000", field: "quoteResponse.slippageBps", mutate: (r) => (q(r).slippageBps = 10_001) },
  { name: "empty routePlan", field: "quoteResponse.routePlan", mutate: (r) => (q(r).routePlan = []) },
  { name: "step without swapInfo", field: "quoteResponse.routePlan[0].swapInfo", mutate: (r) => delete step0(r).swapInfo },
  { name: "step ammKey not a key", field: "quoteResponse.routePlan[0].swapInfo.ammKey", mutate: (r) => (step0(r).swapInfo.ammKey = "0OIl") },
  {
    name: "step input does not chain from the quote",
    field: "quoteResponse.routePlan[0].swapInfo.inputMint",
    mutate: (r) => (step0(r).swapInfo.inputMint = OTHER_KEY),
  },
  {
    name: "step output does not reach the quote's output",
    field: "quoteResponse.routePlan[0].swapInfo.outputMint",
    mutate: (r) => (step0(r).swapInfo.outputMint = OTHER_KEY),
  },
  {
    name: "step percent 0",
    field: "quoteResponse.routePlan[0].percent",
    mutate: (r) => {
      step0(r).percent = 0;
      delete step0(r).bps;
    },
  },
  {
    name: "step percents sum to 60",
    field: "quoteResponse.routePlan",
    mutate: (r) => {
      step0(r).percent = 60;
      step0(r).bps = 6000;
    },
  },
  { name: "payer not a key", field: "payer", mutate: (r) => (r.payer = "payer?") },
  { name: "feeAccount not a key", field: "feeAccount", mutate: (r) => (r.feeAccount = "fee?") },
  { name: "feeAccount is a mint", field: "feeAccount", mutate: (r) => (r.feeAccount = USDC) },
  { name: "trackingAccount not a key", field: "trackingAccount", mutate: (r) => (r.trackingAccount = "track?") },
  { name: "destinationTokenAccount not a key", field: "destinationTokenAccount", mutate: (r) => (r.destinationTokenAccount = "dest?") },
  { name: "platform fee without feeAccount", field: "feeAccount", mutate: (r) => (q(r).platformFee = { amount: "10", feeBps: 20 }) },
  { name: "platform fee bps over 255", field: "quoteResponse.platformFee.feeBps", mutate: (r) => (q(r).platformFee = { amount: "10", feeBps: 300 }) },
  {
    name: "price and prioritization together",
    field: "computeUnitPriceMicroLamports",
    mutate: (r) => {
      r.computeUnitPriceMicroLamports = 1000;
      r.prioritizationFeeLamports = 5000;
    },
  },
  {
    name: "tip payer not a key",
    field: "prioritizationFeeLamports.relayTipLamportsWithPayer.payer",
    mutate: (r) => (r.prioritizationFeeLamports = { jitoTipLamportsWithPayer: { lamports: 1000, payer: "nope" } }),
  },
  {
    name: "autoMultiplier (not supported)",
    field: "prioritizationFeeLamports.autoMultiplier",
    mutate: (r) => (r.prioritizationFeeLamports = { autoMultiplier: 2 }),
  },
  { name: "blockhashSlotsToExpiry over 150", field: "blockhashSlotsToExpiry", mutate: (r) => (r.blockhashSlotsToExpiry = 151) },
  { name: "priceImpactPct not a decimal", field: "quoteResponse.priceImpactPct", mutate: (r) => (q(r).priceImpactPct = "a lot") },
  { name: "useTokenLedger (not supported)", field: "useTokenLedger", mutate: (r) => (r.useTokenLedger = true) },
  // Jupiter's JSON only: values the proto's types cannot even carry.
  { name: "inAmount with decimals", field: "quoteResponse.inAmount", mutate: (r) => (q(r).inAmount = "1.5"), only: "rest" },
  { name: "inAmount negative", field: "quoteResponse.inAmount", mutate: (r) => (q(r).inAmount = "-1"), only: "rest" },
  { name: "outAmount over u64", field: "quoteResponse.outAmount", mutate: (r) => (q(r).outAmount = "18446744073709551616"), only: "rest" },
  { name: "swapMode unknown", field: "quoteResponse.swapMode", mutate: (r) => (q(r).swapMode = "Sideways") },
  {
    name: "priorityLevel unknown",
    field: "prioritizationFeeLamports.priorityLevelWithMaxLamports.priorityLevel",
    mutate: (r) => (r.prioritizationFeeLamports = { priorityLevelWithMaxLamports: { priorityLevel: "ultra", maxLamports: 1000 } }),
  },
  { name: "swapMode, a former enum name that never existed", field: "quoteResponse.swapMode", mutate: (r) => (q(r).swapMode = "SWAP_MODE_UNSPECIFIED") },
  {
    name: "prioritizationFeeLamports unknown word",
    field: "prioritizationFeeLamports",
    mutate: (r) => (r.prioritizationFeeLamports = "sometimes"),
    only: "rest",
  },
  { name: "nativeDestinationAccount (not supported)", field: "nativeDestinationAccount", mutate: (r) => (r.nativeDestinationAccount = WALLET), only: "rest" },
  // The proto's oneof only.
  { name: "auto: false", field: "prioritizationFeeLamports.auto", mutate: (r) => (r.prioritizationFeeLamports = { auto: false }), only: "grpc" },
];

function badRequest(c: BadCase, form: "rest" | "grpc"): Req {
  const r = demoSolToUsdc();
  if (form === "grpc" && c.only === "grpc") {
    const p = toProtoJson(r);
    c.mutate(p);
    return p;
  }
  c.mutate(r);
  return form === "rest" ? r : toProtoJson(r);
}

/** The server encodes `grpc-message` as the gRPC spec does, so grpc-js shows it verbatim. */
function grpcDetails(err: grpc.ServiceError): string {
  return err.details;
}

function rpcCount(): { client: number; localnet: number } {
  return { client: stack.chain.stats().roundTrips, localnet: stack.localnet.stats().httpRequests };
}

describe("bad input: INVALID_ARGUMENT / 400 naming the field, no RPC call", () => {
  test("the table has at least 20 kinds for each protocol", () => {
    expect(BAD.filter((c) => c.only !== "grpc").length).toBeGreaterThanOrEqual(20);
    expect(BAD.filter((c) => c.only !== "rest").length).toBeGreaterThanOrEqual(20);
  });

  for (const c of BAD) {
    if (c.only !== "grpc") {
      test(`REST: ${c.name}`, async () => {
        const before = rpcCount();
        const { status, body } = await stack.rest(badRequest(c, "rest"));
        expect(status, JSON.stringify(body)).toBe(400);
        expect(body.error).toMatch(new RegExp(`^${c.field.replace(/[[\].]/g, "\\$&")}(\\.\\w+)*: `));
        expect(body.code).toBe(400);
        expect(body.errorCode).toBe(c.field === "computeUnitPriceMicroLamports" ? "INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE" : "INVALID_REQUEST");
        expect(rpcCount()).toEqual(before);
      });
    }
    if (c.only !== "rest") {
      test(`gRPC: ${c.name}`, async () => {
        const before = rpcCount();
        const err = await stack.grpc(badRequest(c, "grpc")).then(
          () => undefined,
          (e: grpc.ServiceError) => e,
        );
        expect(err?.code, err?.details).toBe(grpc.status.INVALID_ARGUMENT);
        expect(grpcDetails(err!)).toMatch(new RegExp(`^${c.field.replace(/[[\].]/g, "\\$&")}(\\.\\w+)*: `));
        expect(rpcCount()).toEqual(before);
      });
    }
  }

  test("a missing userPublicKey is 'is required' over REST, gRPC and Connect alike (proto3 sends it as \"\")", async () => {
    const rest = await stack.rest(
      badRequest(
        BAD.find((c) => c.name === "userPublicKey missing")!,
        "rest",
      ),
    );
    expect(rest.body.error).toBe("userPublicKey: is required");
    const err = await stack
      .grpc(
        badRequest(
          BAD.find((c) => c.name === "userPublicKey missing")!,
          "grpc",
        ),
      )
      .then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
    expect(grpcDetails(err!)).toBe("userPublicKey: is required");
    const r = toProtoJson(demoSolToUsdc());
    delete r.userPublicKey;
    const connect = await stack.connect(r);
    expect(connect.body).toMatchObject({ code: "invalid_argument", message: "userPublicKey: is required" });
  });

  test("Connect JSON: the same mapping (invalid_argument, HTTP 400)", async () => {
    const before = rpcCount();
    const r = toProtoJson(demoSolToUsdc());
    r.quoteResponse.slippageBps = 20_000;
    const { status, body } = await stack.connect(r);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^quoteResponse\.slippageBps: /) });
    expect(rpcCount()).toEqual(before);
  });
});

describe("REST: a body that is not a SwapRequest → 422 like Jupiter, no RPC call", () => {
  const cases: [string, unknown, string][] = [
    ["userPublicKey is a number", { ...demoSolToUsdc(), userPublicKey: 5 }, "userPublicKey: invalid type: integer, expected string"],
    ["quoteResponse is a string", { ...demoSolToUsdc(), quoteResponse: "quote" }, "quoteResponse: invalid type: string, expected object"],
    [
      "routePlan is an object",
      (() => {
        const r = demoSolToUsdc();
        r.quoteResponse.routePlan = {};
        return r;
      })(),
      "quoteResponse.routePlan: invalid type: object, expected array",
    ],
    ["wrapAndUnwrapSol is a string", { ...demoSolToUsdc(), wrapAndUnwrapSol: "yes" }, "wrapAndUnwrapSol: invalid type: string, expected boolean"],
    ["the body is an array", [demoSolToUsdc()], "body: invalid type: array"],
  ];
  for (const [name, body, detail] of cases) {
    test(name, async () => {
      const before = rpcCount();
      const res = await stack.rest(body);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(
        `Failed to deserialize the JSON body into the target type: ${detail}${detail.startsWith("body") ? ", expected a SwapRequest object" : ""}`,
      );
      expect(rpcCount()).toEqual(before);
    });
  }
});

describe("Connect JSON: a value whose JSON type does not fit is refused naming its JSON path, no RPC call", () => {
  const cases: [string, (r: Req) => void, string][] = [
    ["inAmount 1.5", (r) => (q(r).inAmount = 1.5), "quoteResponse.inAmount: "],
    ['a step\'s outAmount "x"', (r) => (step0(r).swapInfo.outAmount = "x"), "quoteResponse.routePlan[0].swapInfo.outAmount: "],
    ['wrapAndUnwrapSol "yes"', (r) => (r.wrapAndUnwrapSol = "yes"), 'wrapAndUnwrapSol: expected boolean, got "yes"'],
    ["prioritizationFeeLamports.lamports -1", (r) => (r.prioritizationFeeLamports = { lamports: "-1" }), "prioritizationFeeLamports.lamports: "],
    ["routePlan an object", (r) => (q(r).routePlan = {}), "quoteResponse.routePlan: "],
  ];
  for (const [name, mutate, prefix] of cases) {
    test(name, async () => {
      const before = rpcCount();
      const r = toProtoJson(demoSolToUsdc());
      mutate(r);
      const { status, body } = await stack.connect(r);
      expect(status).toBe(400);
      expect(body.code).toBe("invalid_argument");
      expect(body.message.startsWith(prefix), body.message).toBe(true);
      expect(body.message).not.toMatch(/swapd\.swap\.v1|_amount|_sol\b/); // no proto names
      expect(rpcCount()).toEqual(before);
    });
  }
});

describe("route steps the chain cannot serve: FAILED_PRECONDITION naming step, ammKey and label", () => {
  const withPool = (ammKey: string, label: string) => {
    const r = demoSolToUsdc();
    r.quoteResponse.routePlan[0].swapInfo.ammKey = ammKey;
    r.quoteResponse.routePlan[0].swapInfo.label = label;
    return r;
  };
  const cases = [
    { name: "missing pool", ammKey: OTHER_KEY, label: "Raydium CP", reason: "pool account not found" },
    { name: "unknown pool owner (a wallet)", ammKey: WALLET, label: "Mystery AMM", reason: "unsupported AMM (owner program 11111111111111111111111111111111)" },
  ];
  for (const c of cases) {
    const named = `routePlan[0] (ammKey ${c.ammKey}, label "${c.label}"): ${c.reason}`;
    test(`REST: ${c.name}`, async () => {
      const { status, body } = await stack.rest(withPool(c.ammKey, c.label));
      expect(status).toBe(400);
      expect(body).toEqual({ error: named, errorCode: "FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS", code: 400 });
    });
    test(`gRPC: ${c.name}`, async () => {
      const err = await stack.grpc(toProtoJson(withPool(c.ammKey, c.label))).then(
        () => undefined,
        (e: grpc.ServiceError) => e,
      );
      expect(err?.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(grpcDetails(err!)).toBe(named);
    });
  }

  test("a pool that does not trade the step's mints", async () => {
    const r = demoSolToUsdc();
    const s = r.quoteResponse.routePlan[0].swapInfo;
    r.quoteResponse.outputMint = s.outputMint = OTHER_KEY;
    const { status, body } = await stack.rest(r);
    expect(status).toBe(400);
    expect(body.errorCode).toBe("FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS");
    expect(body.error).toContain(`routePlan[0] (ammKey ${DEMO_POOL}, label "Raydium CP")`);
  });
});

describe("an RPC that is down: UNAVAILABLE / 503 within the timeout", () => {
  let down: SwapStack;
  beforeAll(async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    down = await startSwapStack({
      chainUrl: `http://127.0.0.1:${port}`,
      chainOptions: { timeoutMs: 1_500, maxRetries: 2, backoff: { baseMs: 50, maxMs: 200 } },
    });
  });
  afterAll(async () => {
    await down?.close();
  });

  test("REST: 503 with Jupiter's error body", async () => {
    const started = Date.now();
    const { status, body } = await down.rest(demoSolToUsdc());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(status).toBe(503);
    expect(body).toMatchObject({ errorCode: "RPC_CLIENT_ERROR", code: 503, error: expect.stringMatching(/^RPC client error: /) });
  });

  test("gRPC: UNAVAILABLE", async () => {
    const started = Date.now();
    const err = await down.grpc(toProtoJson(demoSolToUsdc())).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err?.code).toBe(grpc.status.UNAVAILABLE);
  });
});
