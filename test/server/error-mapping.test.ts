/**
 * The one error table (`src/server/error-mapping.ts`): every code maps, and one failure gives one
 * answer on every protocol over the real port — grpc-js, gRPC-web, Connect JSON, and the REST
 * paths in each of Jupiter's body layouts. The expected codes, statuses and bodies are written out
 * here (gRPC's status numbers, Connect's code names and HTTP statuses from the Connect protocol
 * spec, Jupiter's `errorCode`s and bodies), not read from the table. Real-failure paths (a pool
 * that does not exist, an RPC that is down, a database cut) are in test/api and test/faults.
 */
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainRpcError, ChainUnavailableError } from "../../src/chain/chain-errors.js";
import { AmmError } from "../../src/core/amm/adapter.js";
import { SwapPreconditionError } from "../../src/core/swap/precondition-error.js";
import { SWAPD_ERROR_CODES, SwapdError } from "../../src/core/swapd-error.js";
import type { InputErrorCode } from "../../src/core/swapd-error.js";
import { ValidationError } from "../../src/core/validation-error.js";
import { NoRouteError } from "../../src/api/quote/no-route-error.js";
import { TransactionTooLargeError } from "../../src/core/swap/transaction-too-large-error.js";
import { JsonBodyShapeError } from "../../src/api/swap/jupiter-request-json.js";
import { ExecutionInterruptedError } from "../../src/landing/index.js";
import { SwapInstructionsResponseSchema, SwapService } from "../../src/gen/swapd/swap/v1/swap_pb.js";
import { ERROR_MAPPING, EXECUTE_ERRORS, LISTING_ERRORS, SWAP_API_ERRORS, toConnectError, toRestErrorResponse } from "../../src/server/error-mapping.js";
import type { RestRoute } from "../../src/server/rest.js";
import { DatabaseUnavailableError } from "../../src/store/database-errors.js";
import type { LogCapture } from "./helpers.js";
import { startTestServer } from "./helpers.js";

const STEP = { index: 0, ammKey: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", label: "Raydium CP" };
const SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

/** A failure of each kind, by name; what a handler throws. */
const FAILURES: Readonly<Record<string, () => unknown>> = {
  invalidInput: () => new ValidationError("quoteResponse.inAmount", "u64", "must be an unsigned 64-bit integer string"),
  conflictingFee: () =>
    new ValidationError("computeUnitPriceMicroLamports", "exclusive", "cannot be combined with prioritizationFeeLamports", "CONFLICTING_PRIORITY_FEE"),
  orderNotFound: () => new ValidationError("order", "order_exists", "no matching order found (the account does not exist)", "ORDER_NOT_FOUND"),
  bodyShape: () => new JsonBodyShapeError("userPublicKey", "invalid type: integer, expected string"),
  limitReached: () => new ValidationError("createOrder", "pending_per_caller", "this caller has 200 orders waiting to be armed", "LIMIT_REACHED"),
  poolNotFound: () => new SwapPreconditionError("POOL_NOT_FOUND", "pool account not found", STEP),
  ammDefault: () => new AmmError("Raydium CP pool is disabled"),
  noRoute: () => new NoRouteError("no market trades SOL/XYZ"),
  tooLarge: () => new TransactionTooLargeError(1300, 0),
  rpcDown: () => new ChainUnavailableError("getMultipleAccounts", "connect ECONNREFUSED", 3),
  rpcRefused: () => new ChainRpcError("sendTransaction", -32602, "Invalid params"),
  databaseDown: () => new DatabaseUnavailableError("connection refused"),
  shuttingDown: () => new ExecutionInterruptedError(SIGNATURE),
  bug: () => new TypeError("Cannot read properties of undefined (reading 'secret internals')"),
};

interface Expected {
  /** gRPC status number (grpc/doc/statuscodes.md). */
  readonly grpc: number;
  /** Connect code name and its HTTP status (connectrpc.com/docs/protocol#error-codes). */
  readonly connect: readonly [string, number];
  /** REST status and Jupiter errorCode. */
  readonly rest: readonly [number, string];
}

const EXPECTED: Readonly<Record<keyof typeof FAILURES, Expected>> = {
  invalidInput: { grpc: 3, connect: ["invalid_argument", 400], rest: [400, "INVALID_REQUEST"] },
  conflictingFee: { grpc: 3, connect: ["invalid_argument", 400], rest: [400, "INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE"] },
  orderNotFound: { grpc: 3, connect: ["invalid_argument", 400], rest: [400, "ORDER_NOT_FOUND"] },
  bodyShape: { grpc: 3, connect: ["invalid_argument", 400], rest: [422, "INVALID_REQUEST"] },
  limitReached: { grpc: 8, connect: ["resource_exhausted", 429], rest: [429, "LIMIT_REACHED"] },
  poolNotFound: { grpc: 9, connect: ["failed_precondition", 400], rest: [400, "FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS"] },
  ammDefault: { grpc: 9, connect: ["failed_precondition", 400], rest: [400, "FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS"] },
  noRoute: { grpc: 5, connect: ["not_found", 404], rest: [400, "COULD_NOT_FIND_ANY_ROUTE"] },
  tooLarge: { grpc: 9, connect: ["failed_precondition", 400], rest: [400, "TRANSACTION_TOO_LARGE"] },
  rpcDown: { grpc: 14, connect: ["unavailable", 503], rest: [503, "RPC_CLIENT_ERROR"] },
  rpcRefused: { grpc: 14, connect: ["unavailable", 503], rest: [503, "RPC_CLIENT_ERROR"] },
  databaseDown: { grpc: 14, connect: ["unavailable", 503], rest: [503, "DATABASE_UNAVAILABLE"] },
  shuttingDown: { grpc: 14, connect: ["unavailable", 503], rest: [503, "SERVICE_SHUTTING_DOWN"] },
  bug: { grpc: 13, connect: ["internal", 500], rest: [500, "INTERNAL_ERROR"] },
};

/** The message a client sees: the error's own, except for a bug (never leaked). */
function visibleMessage(name: string): string {
  return name === "bug" ? "internal error" : (FAILURES[name]() as Error).message;
}

describe("the table", () => {
  it("maps every code, once, and nothing else", () => {
    expect(new Set(SWAPD_ERROR_CODES).size).toBe(SWAPD_ERROR_CODES.length);
    expect(Object.keys(ERROR_MAPPING).sort()).toEqual([...SWAPD_ERROR_CODES].sort());
  });

  it("execute refusals: Jupiter's /execute body with its execute code (dev.jup.ag /execute: -1002 invalid transaction, -1003 not fully signed, -1004 invalid block height); other failures keep the Swap API body", () => {
    const refusals: [InputErrorCode, number][] = [
      ["TRANSACTION_NOT_ISSUED", -1002],
      ["INVALID_INPUT", -1002],
      ["TRANSACTION_NOT_SIGNED", -1003],
      ["TRANSACTION_EXPIRED", -1004],
    ];
    for (const [code, executeCode] of refusals) {
      const error = new ValidationError("signedTransaction", "rule", "refused", code);
      expect(toRestErrorResponse(error, EXECUTE_ERRORS), code).toEqual({
        status: 400,
        body: { status: "Failed", error: "signedTransaction: refused", code: executeCode },
      });
      expect(toConnectError(error).code, code).toBe(3); // INVALID_ARGUMENT over Connect and gRPC
    }
    const unavailable = toRestErrorResponse(
      new SwapdError("RPC_UNAVAILABLE", { method: "getBlockHeight", reason: "down", attempts: 3 }, "down"),
      EXECUTE_ERRORS,
    );
    expect(unavailable).toEqual({ status: 503, body: { error: "RPC client error: down", errorCode: "RPC_CLIENT_ERROR", code: 503 } });
  });

  it("every row: a Jupiter-style errorCode, an HTTP status in the class of its Connect code", () => {
    // Connect codes that are the caller's (4xx) or the server's / upstream's (5xx) fault.
    const clientSide = new Set([
      "invalid_argument",
      "failed_precondition",
      "not_found",
      "already_exists",
      "permission_denied",
      "unauthenticated",
      "resource_exhausted",
      "out_of_range",
    ]);
    for (const code of SWAPD_ERROR_CODES) {
      const row = ERROR_MAPPING[code];
      expect(row.errorCode, code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(row.summary.length, code).toBeGreaterThan(0);
      const connectName = toConnectError(new SwapdError(code, {}, "x")).code;
      const name = [
        "",
        "canceled",
        "unknown",
        "invalid_argument",
        "deadline_exceeded",
        "not_found",
        "already_exists",
        "permission_denied",
        "resource_exhausted",
        "failed_precondition",
        "aborted",
        "out_of_range",
        "unimplemented",
        "internal",
        "unavailable",
        "data_loss",
        "unauthenticated",
      ][connectName];
      expect(Math.floor(row.http / 100), `${code} → ${name} / ${row.http}`).toBe(clientSide.has(name) ? 4 : 5);
    }
  });

  it("each failure carries its code; the old error classes are thin subclasses of the one coded error", () => {
    const codes = Object.fromEntries(Object.entries(FAILURES).map(([name, make]) => [name, (make() as { code?: unknown }).code]));
    expect(codes).toEqual({
      invalidInput: "INVALID_INPUT",
      conflictingFee: "CONFLICTING_PRIORITY_FEE",
      orderNotFound: "ORDER_NOT_FOUND",
      bodyShape: "REQUEST_BODY_SHAPE",
      limitReached: "LIMIT_REACHED",
      poolNotFound: "POOL_NOT_FOUND",
      ammDefault: "AMM_ERROR",
      noRoute: "NO_ROUTE",
      tooLarge: "TRANSACTION_TOO_LARGE",
      rpcDown: "RPC_UNAVAILABLE",
      rpcRefused: "RPC_ERROR",
      databaseDown: "DATABASE_UNAVAILABLE",
      shuttingDown: "SHUTTING_DOWN",
      bug: undefined,
    });
    for (const [name, make] of Object.entries(FAILURES)) expect(make() instanceof SwapdError, name).toBe(name !== "bug");
    expect(new ValidationError("a.b", "u64", "bad")).toMatchObject({ field: "a.b", rule: "u64", context: { field: "a.b", rule: "u64" } });
    expect(new ChainRpcError("m", -32002, "x")).toMatchObject({ code: "RPC_ERROR", rpcCode: -32002, context: { method: "m", rpcCode: -32002 } });
    // An AMM's own code survives the route step it is reported for.
    const ammError = new AmmError("not a pool", "AMM_NOT_A_POOL");
    expect(new SwapPreconditionError(ammError.code, ammError.message, STEP)).toMatchObject({ code: "AMM_NOT_A_POOL", context: { step: STEP } });
  });
});

describe("one failure, one answer on every protocol (over the real port)", () => {
  let url: string;
  let port: number;
  let logs: LogCapture;
  let close: () => Promise<void>;
  let grpcClient: any;

  const failing = (name: string): never => {
    throw FAILURES[name]();
  };
  const restRoute = (path: string, errors: RestRoute["errors"]): RestRoute => ({
    method: "POST",
    path,
    ...(errors ? { errors } : {}),
    handler: (req) => failing(String((req.body as { fail?: unknown }).fail)),
  });

  beforeAll(async () => {
    const started = await startTestServer({
      services: {
        swap: {
          swapInstructions: (req) => (req.userPublicKey === "none" ? create(SwapInstructionsResponseSchema, {}) : failing(req.userPublicKey)),
          // A stream that answers once, then fails: the error is mapped the same inside a stream.
          async *watchQuote(req) {
            yield {};
            failing(req.quote!.inputMint);
          },
        },
      },
      restRoutes: [
        restRoute("/test/swap-api", SWAP_API_ERRORS),
        restRoute("/test/default", undefined),
        restRoute("/test/trigger-api", { layout: "trigger", invalidRequest: "invalid test request", extra: { status: "Failed" } }),
        restRoute("/test/listing", LISTING_ERRORS),
      ],
    });
    url = started.server.url;
    port = started.server.port;
    logs = started.logs;
    close = () => started.server.close();
    const protoDir = fileURLToPath(new URL("../../proto/", import.meta.url));
    const defs = protoLoader.loadSync(["swapd/swap/v1/swap.proto"], { includeDirs: [protoDir], longs: String, enums: String, defaults: true, oneofs: true });
    const pkg = grpc.loadPackageDefinition(defs) as any;
    grpcClient = new pkg.swapd.swap.v1.SwapService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    grpcClient?.close();
    await close?.();
  });

  const grpcUnary = (fail: string) =>
    new Promise<grpc.ServiceError>((resolve, reject) =>
      grpcClient.SwapInstructions({ userPublicKey: fail }, { deadline: Date.now() + 10_000 }, (err: grpc.ServiceError | null) =>
        err ? resolve(err) : reject(new Error("answered")),
      ),
    );
  const grpcStream = (fail: string) =>
    new Promise<{ messages: number; error: grpc.ServiceError }>((resolve, reject) => {
      let messages = 0;
      const call = grpcClient.WatchQuote({ quote: { inputMint: fail } }, { deadline: Date.now() + 10_000 });
      call.on("data", () => messages++);
      call.on("error", (error: grpc.ServiceError) => resolve({ messages, error }));
      call.on("end", () => reject(new Error("ended without an error")));
    });
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const handlerFailedLines = () => logs.lines.filter((l) => l["msg"] === "handler failed").length;

  for (const name of Object.keys(FAILURES)) {
    const expected = EXPECTED[name];
    it(`${name}: gRPC ${expected.grpc}, Connect ${expected.connect.join(" / ")}, REST ${expected.rest.join(" ")}`, async () => {
      const message = visibleMessage(name);
      const logged = handlerFailedLines();

      const unary = await grpcUnary(name);
      expect([unary.code, unary.details]).toEqual([expected.grpc, message]);
      const stream = await grpcStream(name);
      expect([stream.messages, stream.error.code, stream.error.details]).toEqual([1, expected.grpc, message]);

      const web = createClient(SwapService, createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1" }));
      const webError = await web.swapInstructions({ userPublicKey: name }).then(
        () => undefined,
        (e: { code: number; rawMessage: string }) => e,
      );
      expect([webError?.code, webError?.rawMessage]).toEqual([expected.grpc, message]);

      const connect = await post("/swapd.swap.v1.SwapService/SwapInstructions", { userPublicKey: name });
      expect(connect).toEqual({ status: expected.connect[1], body: { code: expected.connect[0], message } });

      // Jupiter's Swap API: {error, errorCode, code}; the failures of the server or its upstreams read "<summary>: <message>".
      const [status, errorCode] = expected.rest;
      const swapApiError = name === "bug" ? "internal error" : status >= 500 ? `${ERROR_SUMMARY[errorCode]}: ${message}` : message;
      const swapApi = await post("/test/swap-api", { fail: name });
      expect(swapApi).toEqual({ status, body: { error: swapApiError, errorCode, code: status } });
      // A route without a form of its own answers as the Swap API does.
      expect(await post("/test/default", { fail: name })).toEqual(swapApi);

      // Jupiter's Trigger API: {error: summary, cause, code} (+ the route's status: "Failed"); bad input summarised per route.
      const trigger = await post("/test/trigger-api", { fail: name });
      const triggerSummary = expected.grpc === 3 && errorCode !== "ORDER_NOT_FOUND" ? "invalid test request" : TRIGGER_SUMMARY[errorCode];
      expect(trigger).toEqual({
        status,
        body: {
          error: triggerSummary,
          ...(name === "bug" ? {} : { cause: message }),
          errorCode,
          code: status,
          status: "Failed",
          ...(name === "shuttingDown" ? { signature: SIGNATURE } : {}),
        },
      });

      // getTriggerOrders: bad input as {error, code}; server-side failures as the Trigger API.
      const listing = await post("/test/listing", { fail: name });
      if (status < 500) expect(listing).toEqual({ status, body: { error: message, code: status } });
      else expect(listing.body).toMatchObject({ error: TRIGGER_SUMMARY[errorCode], errorCode, code: status });

      // Only a bug is logged, once per call that met it (here: 2 gRPC, 1 gRPC-web, 1 Connect, 4 REST).
      expect(handlerFailedLines() - logged).toBe(name === "bug" ? 8 : 0);
    });
  }

  it("a call that succeeds is untouched by the mapping", async () => {
    const res = await post("/swapd.swap.v1.SwapService/SwapInstructions", { userPublicKey: "none" });
    expect(res.status).toBe(200);
  });
});

/** Jupiter's Swap API text for server-side failures ("RPC client error" is Jupiter's own). */
const ERROR_SUMMARY: Readonly<Record<string, string>> = {
  RPC_CLIENT_ERROR: "RPC client error",
  DATABASE_UNAVAILABLE: "database unavailable",
  SERVICE_SHUTTING_DOWN: "service shutting down",
};

/** The Trigger API's `error` of each errorCode (bad input aside). */
const TRIGGER_SUMMARY: Readonly<Record<string, string>> = {
  ...ERROR_SUMMARY,
  ORDER_NOT_FOUND: "no matching orders found",
  FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS: "cannot build the swap",
  COULD_NOT_FIND_ANY_ROUTE: "could not find any route",
  TRANSACTION_TOO_LARGE: "transaction too large",
  LIMIT_REACHED: "limit reached",
  INTERNAL_ERROR: "internal error",
};
