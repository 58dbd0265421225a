/**
 * Jupiter's REST paths of the quote engine: `GET /swap/v1/quote`, `POST /swap/v1/swap`,
 * `GET /swap/v1/program-id-to-label`, and `POST /markets` (Jupiter's `/add-market`: a pool address
 * or a list of them; `{"address": "..."}` / `{"addresses": [...]}` / `["...", ...]`).
 */
import { ValidationError } from "../../core/validation-error.js";
import { SWAP_API_ERRORS } from "../../server/error-mapping.js";
import type { RestRequest, RestRoute } from "../../server/rest.js";
import type { QuoteRequestInput } from "../../core/quote/quote-request.js";
import { swapRequestFromJupiterJson } from "../swap/jupiter-request-json.js";
import { REST_REQUESTS } from "../rest-requests/rest-request-shapes.js";
import type { QuoteEngine } from "./quote-engine.js";
import type { MarketIndex } from "../../chain/market-index.js";
import { swapTransactionToJupiterJson } from "./quote-proto.js";
import { ref } from "../../server/json-schema.js";
import { SWAP_V1_SCHEMAS } from "../swap/rest-schemas.js";
import type { SwapTransactionOperation } from "./swap-transaction.js";

/** Query booleans as Jupiter takes them ("true"/"false"); anything else goes on to be refused by name. */
function queryBoolean(value: string | null): unknown {
  if (value === null || value === "") return undefined;
  return value === "true" ? true : value === "false" ? false : value;
}

function listParam(query: URLSearchParams, name: string): string[] | undefined {
  // Given once (the usual case): its own split, without getAll's and flatMap's arrays.
  const first = query.get(name);
  if (first === null) return undefined;
  const all = query.getAll(name);
  return all.length === 1 ? first.split(",") : all.flatMap((v) => v.split(","));
}

export function quoteRequestFromQuery(query: URLSearchParams): QuoteRequestInput {
  return {
    inputMint: query.get("inputMint"),
    outputMint: query.get("outputMint"),
    amount: query.get("amount"),
    slippageBps: query.get("slippageBps"),
    swapMode: query.get("swapMode"),
    dexes: listParam(query, "dexes"),
    excludeDexes: listParam(query, "excludeDexes"),
    restrictIntermediateTokens: queryBoolean(query.get("restrictIntermediateTokens")),
    onlyDirectRoutes: queryBoolean(query.get("onlyDirectRoutes")),
    asLegacyTransaction: queryBoolean(query.get("asLegacyTransaction")),
    platformFeeBps: query.get("platformFeeBps"),
    maxAccounts: query.get("maxAccounts"),
  };
}

function marketAddresses(body: unknown): string[] | undefined {
  if (typeof body === "string") return [body];
  if (Array.isArray(body) && body.every((x) => typeof x === "string")) return body;
  if (body && typeof body === "object") {
    const b = body as { address?: unknown; addresses?: unknown; pubkey?: unknown };
    if (typeof b.address === "string") return [b.address];
    if (typeof b.pubkey === "string") return [b.pubkey];
    if (Array.isArray(b.addresses) && b.addresses.every((x) => typeof x === "string")) return b.addresses;
  }
  return undefined;
}

/** At most this many pools per POST /markets. */
const MAX_MARKETS_PER_REQUEST = 100;

export function quoteRestRoutes(engine: QuoteEngine, swap: SwapTransactionOperation, markets: MarketIndex): RestRoute[] {
  return [
    {
      method: "GET",
      path: "/swap/v1/quote",
      request: REST_REQUESTS.quote,
      errors: SWAP_API_ERRORS,
      summary: "the best route for an amount (Jupiter's quote)",
      answer: { description: "the quote", schema: ref("QuoteResponse"), components: SWAP_V1_SCHEMAS },
      async handler(req: RestRequest) {
        return { status: 200, body: (await engine.quote(quoteRequestFromQuery(req.query))).response };
      },
    },
    {
      method: "POST",
      path: "/swap/v1/swap",
      request: REST_REQUESTS.swap,
      errors: SWAP_API_ERRORS,
      summary: "a quote's unsigned swap transaction",
      answer: { description: "the transaction to sign", schema: ref("SwapResponse"), components: SWAP_V1_SCHEMAS },
      async handler(req: RestRequest) {
        return { status: 200, body: swapTransactionToJupiterJson(await swap(swapRequestFromJupiterJson(req.body))) };
      },
    },
    {
      method: "GET",
      path: "/swap/v1/program-id-to-label",
      request: REST_REQUESTS.programIdToLabel,
      summary: "the AMMs swapd routes through: program id → label",
      answer: { description: "program id → label", schema: ref("ProgramIdToLabel"), components: SWAP_V1_SCHEMAS },
      handler: () => ({ status: 200, body: engine.programIdToLabel }),
    },
    {
      method: "POST",
      path: "/markets",
      request: REST_REQUESTS.markets,
      errors: SWAP_API_ERRORS,
      summary: "quote through these pools too (Jupiter's /add-market)",
      answer: {
        description: "at least one pool was added",
        schema: ref("MarketsResponse"),
        alsoAnswers: { 400: { description: "no pool was added (each refused with its reason)", schema: ref("MarketsResponse") } },
        components: SWAP_V1_SCHEMAS,
      },
      async handler(req: RestRequest) {
        const addresses = marketAddresses(req.body);
        if (!addresses || addresses.length === 0 || addresses.length > MAX_MARKETS_PER_REQUEST) {
          throw new ValidationError(
            "body",
            "pool_addresses",
            `must be a pool address, a list of 1–${MAX_MARKETS_PER_REQUEST} of them, or {"address": "..."} / {"addresses": [...]}`,
          );
        }
        const result = await markets.add(addresses);
        const body = {
          added: result.added.map((m) => ({ address: m.addressText, label: m.label, mints: m.mints })),
          refused: result.refused,
        };
        return { status: result.added.length > 0 ? 200 : 400, body };
      },
    },
  ];
}
