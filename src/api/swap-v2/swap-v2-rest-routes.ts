/**
 * Jupiter's Swap API v2 REST paths — `GET /swap/v2/build`, `GET /swap/v2/order`,
 * `POST /swap/v2/execute` — and swapd's `POST /swap/v1/execute` (not a Jupiter path: lands a
 * transaction of `POST /swap/v1/swap`, found by its message; `requestId` not needed) and
 * `GET /swap/v2/priority-fees` (the fee estimate per percentile). Each declares its request's
 * fields (rest-request-shapes.ts): a near-miss name (`slipageBps`) is refused naming the right one.
 */
import type { RestRequest, RestRoute } from "../../server/rest.js";
import { EXECUTE_ERRORS, SWAP_API_ERRORS } from "../../server/error-mapping.js";
import { ValidationError } from "../../core/validation-error.js";
import { BUILD_MODES, V2_SWAP_MODES, type BuildInput, type BuildOperation } from "./build.js";
import { PRIORITY_LEVELS } from "../../core/swap/request.js";
import { buildToJupiterJson, executeToJupiterJson, orderToJupiterJson } from "./jupiter-v2-json.js";
import { BROADCAST_FEE_TYPES, ROUTERS, type OrderInput, type OrderOperation } from "./order.js";
import type { SwapExecuteRequest, SwapExecuteResult } from "./swap-execute.js";
import { REST_REQUESTS } from "../rest-requests/rest-request-shapes.js";
import { priorityFeesToJson } from "./priority-fees.js";
import type { PriorityFeesEstimate } from "./priority-fees.js";
import { ref } from "../../server/json-schema.js";
import type { AnswerDoc } from "../../server/route-doc.js";
import { SWAP_V2_SCHEMAS } from "./rest-schemas.js";

const answer = (description: string, schema: string): AnswerDoc => ({ description, schema: ref(schema), components: SWAP_V2_SCHEMAS });

function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const values = query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .filter((v) => v !== "");
  return values.length === 0 ? undefined : values;
}

function buildInputFromQuery(query: URLSearchParams): BuildInput {
  const get = (name: string) => query.get(name) ?? undefined;
  return {
    inputMint: get("inputMint"),
    outputMint: get("outputMint"),
    amount: get("amount"),
    taker: get("taker"),
    slippageBps: get("slippageBps"),
    swapMode: get("swapMode"),
    dexes: listParam(query, "dexes"),
    excludeDexes: listParam(query, "excludeDexes"),
    maxAccounts: get("maxAccounts"),
    platformFeeBps: get("platformFeeBps"),
    feeAccount: get("feeAccount"),
    mode: get("mode"),
    payer: get("payer"),
    wrapAndUnwrapSol: get("wrapAndUnwrapSol"),
    destinationTokenAccount: get("destinationTokenAccount"),
    nativeDestinationAccount: get("nativeDestinationAccount"),
    blockhashSlotsToExpiry: get("blockhashSlotsToExpiry"),
    tipAmount: get("tipAmount"),
    computeUnitPricePercentile: get("computeUnitPricePercentile"),
    forJitoBundle: get("forJitoBundle"),
    autoSlippage: get("autoSlippage"),
  };
}

/**
 * /build's fee parameters, which Jupiter's /order does not declare (its fee is `referralAccount` +
 * `referralFee`): refused by name rather than ignored, since an ignored fee is money not taken.
 */
const BUILD_ONLY_FEE_PARAMETERS = ["platformFeeBps", "feeAccount"] as const;

/** Order's parameters: Build's that Jupiter's /order documents, and its own. */
function orderInputFromQuery(query: URLSearchParams): OrderInput {
  const get = (name: string) => query.get(name) ?? undefined;
  for (const name of BUILD_ONLY_FEE_PARAMETERS) {
    if (query.has(name))
      throw new ValidationError(
        name,
        "unknown",
        "is not a /swap/v2/order parameter (it is /swap/v2/build's); /order takes its fee as referralAccount + referralFee",
      );
  }
  return {
    inputMint: get("inputMint"),
    outputMint: get("outputMint"),
    amount: get("amount"),
    taker: get("taker"),
    slippageBps: get("slippageBps"),
    swapMode: get("swapMode"),
    excludeDexes: listParam(query, "excludeDexes"),
    payer: get("payer"),
    priorityFeeLamports: get("priorityFeeLamports"),
    priorityLevel: get("priorityLevel"),
    maxLamports: get("maxLamports"),
    receiver: get("receiver"),
    referralAccount: get("referralAccount"),
    referralFee: get("referralFee"),
    jitoTipLamports: get("jitoTipLamports"),
    broadcastFeeType: get("broadcastFeeType"),
    excludeRouters: listParam(query, "excludeRouters"),
  };
}

function executeBody(req: RestRequest): SwapExecuteRequest {
  const body = req.body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  return { signedTransaction: b["signedTransaction"], requestId: b["requestId"] };
}

export interface SwapV2Operations {
  readonly build: BuildOperation;
  readonly order: OrderOperation;
  execute(request: SwapExecuteRequest, requireRequestId: boolean): Promise<SwapExecuteResult>;
  priorityFees(accounts: readonly string[]): PriorityFeesEstimate;
}

export function swapV2RestRoutes(ops: SwapV2Operations): RestRoute[] {
  // A refusal answers Jupiter's /execute body with its execute code (the one mapping's EXECUTE_ERRORS form).
  const execute = (requireRequestId: boolean) => async (req: RestRequest) => {
    if (req.body === null || typeof req.body !== "object" || Array.isArray(req.body)) {
      throw new ValidationError("body", "object", "must be a JSON object with signedTransaction and requestId");
    }
    return { status: 200, body: executeToJupiterJson(await ops.execute(executeBody(req), requireRequestId)) };
  };
  return [
    {
      method: "GET",
      path: "/swap/v2/build",
      request: { ...REST_REQUESTS.build, values: { swapMode: V2_SWAP_MODES, mode: BUILD_MODES } },
      errors: SWAP_API_ERRORS,
      summary: "the best route's instructions for the taker",
      answer: answer("the quote and its instructions", "BuildResponse"),
      handler: async (req) => ({ status: 200, body: buildToJupiterJson(await ops.build(buildInputFromQuery(req.query))) }),
    },
    {
      method: "GET",
      path: "/swap/v2/order",
      request: {
        ...REST_REQUESTS.order,
        values: { swapMode: V2_SWAP_MODES, priorityLevel: PRIORITY_LEVELS, broadcastFeeType: BROADCAST_FEE_TYPES, excludeRouters: ROUTERS },
      },
      errors: SWAP_API_ERRORS,
      summary: "a quote and, with a taker, its unsigned transaction (sign it, then /execute)",
      answer: answer("the order", "OrderResponse"),
      handler: async (req) => ({ status: 200, body: orderToJupiterJson(await ops.order(orderInputFromQuery(req.query))) }),
    },
    {
      method: "GET",
      path: "/swap/v2/priority-fees",
      request: REST_REQUESTS.priorityFees,
      errors: SWAP_API_ERRORS,
      summary: "the compute unit price per percentile of recent fees",
      answer: answer("the estimate", "PriorityFeesResponse"),
      handler: (req) => ({ status: 200, body: priorityFeesToJson(ops.priorityFees(listParam(req.query, "accounts") ?? [])) }),
    },
    {
      method: "POST",
      path: "/swap/v2/execute",
      request: REST_REQUESTS.swapExecute,
      errors: EXECUTE_ERRORS,
      summary: "lands an Order's signed transaction",
      answer: answer("landed (`Success`) or not (`Failed`, with the program's error)", "ExecuteResponse"),
      handler: execute(true),
    },
    {
      method: "POST",
      path: "/swap/v1/execute",
      request: REST_REQUESTS.landSwap,
      errors: EXECUTE_ERRORS,
      summary: "lands a signed transaction of /swap/v1/swap or /swap/v2/order (swapd's)",
      answer: answer("landed (`Success`) or not (`Failed`, with the program's error)", "ExecuteResponse"),
      handler: execute(false),
    },
  ];
}
