/**
 * Jupiter's `SwapRequest` JSON → the core's raw request. Like Jupiter's server (serde behind
 * axum), a body whose JSON types do not fit is refused as a whole with HTTP 422 ("Failed to
 * deserialize the JSON body into the target type: <field>: ..."); values of the right type are
 * validated by the core (HTTP 400 naming the field). Jupiter's `jitoTipLamports` names are
 * accepted next to the contract's `relayTipLamports` names.
 */
import type { PrioritizationInput, QuoteInput, SwapInstructionsRequest } from "../../core/swap/request.js";
import { SwapdError } from "../../core/swapd-error.js";
import { ValidationError } from "../../core/validation-error.js";

/** The JSON body does not have the shape of a `SwapRequest`: `REQUEST_BODY_SHAPE` (→ HTTP 422, as Jupiter). */
export class JsonBodyShapeError extends SwapdError<"REQUEST_BODY_SHAPE"> {
  override readonly name = "JsonBodyShapeError";
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super("REQUEST_BODY_SHAPE", { field, rule: "json_type" }, `Failed to deserialize the JSON body into the target type: ${field}: ${detail}`);
  }
}

type JsonType = "string" | "number" | "boolean" | "object" | "array";
type Json = Record<string, unknown>;

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? (Number.isInteger(value) ? "integer" : "floating point") : typeof value;
}

function isType(value: unknown, type: JsonType): boolean {
  if (type === "array") return Array.isArray(value);
  if (type === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
  return typeof value === type;
}

/** Checks the JSON type of an optional (absent or null) field; returns the value. */
function field<T = unknown>(obj: Json, name: string, path: string, ...types: JsonType[]): T | undefined {
  const value = obj[name];
  if (value === undefined || value === null) return undefined;
  if (!types.some((t) => isType(value, t))) {
    throw new JsonBodyShapeError(path + name, `invalid type: ${jsonTypeOf(value)}, expected ${types.join(" or ")}`);
  }
  return value as T;
}

const U64: JsonType[] = ["string", "number"]; // Jupiter writes u64 as strings; numbers are tolerated

function swapInfoFromJson(raw: unknown, path: string) {
  if (raw === undefined || raw === null) return raw;
  if (!isType(raw, "object")) throw new JsonBodyShapeError(path, `invalid type: ${jsonTypeOf(raw)}, expected an object`);
  const o = raw as Json;
  const p = `${path}.`;
  return {
    ammKey: field(o, "ammKey", p, "string"),
    label: field(o, "label", p, "string"),
    inputMint: field(o, "inputMint", p, "string"),
    outputMint: field(o, "outputMint", p, "string"),
    inAmount: field(o, "inAmount", p, ...U64),
    outAmount: field(o, "outAmount", p, ...U64),
    feeAmount: field(o, "feeAmount", p, ...U64),
    feeMint: field(o, "feeMint", p, "string"),
  };
}

function quoteFromJson(raw: Json | undefined): QuoteInput | undefined {
  if (raw === undefined) return undefined;
  const p = "quoteResponse.";
  const routePlan = field<unknown[]>(raw, "routePlan", p, "array");
  const platformFee = field<Json>(raw, "platformFee", p, "object");
  return {
    inputMint: field(raw, "inputMint", p, "string"),
    outputMint: field(raw, "outputMint", p, "string"),
    inAmount: field(raw, "inAmount", p, ...U64),
    outAmount: field(raw, "outAmount", p, ...U64),
    otherAmountThreshold: field(raw, "otherAmountThreshold", p, ...U64),
    swapMode: field(raw, "swapMode", p, "string"),
    slippageBps: field(raw, "slippageBps", p, "number"),
    platformFee: platformFee && {
      amount: field(platformFee, "amount", `${p}platformFee.`, ...U64),
      feeBps: field(platformFee, "feeBps", `${p}platformFee.`, "number"),
    },
    priceImpactPct: field(raw, "priceImpactPct", p, "string"),
    contextSlot: field(raw, "contextSlot", p, ...U64),
    timeTaken: field(raw, "timeTaken", p, "number"),
    routePlan:
      routePlan?.map((step, i) => {
        const sp = `${p}routePlan[${i}]`;
        if (!isType(step, "object")) throw new JsonBodyShapeError(sp, `invalid type: ${jsonTypeOf(step)}, expected an object`);
        const s = step as Json;
        return {
          swapInfo: swapInfoFromJson(s.swapInfo, `${sp}.swapInfo`),
          percent: field(s, "percent", `${sp}.`, "number"),
          bps: field(s, "bps", `${sp}.`, "number"),
        };
      }) ?? routePlan,
  } as QuoteInput;
}

/** The one key of a prioritization object (Jupiter: an externally tagged enum). */
function onlyKey(obj: Json, f: string): string {
  const keys = Object.keys(obj);
  if (keys.length !== 1) {
    throw new ValidationError(
      f,
      "enum",
      "must have exactly one of priorityLevelWithMaxLamports, jitoTipLamports, jitoTipLamportsWithPayer (or the relayTip names)",
    );
  }
  return keys[0];
}

function prioritizationFromJson(raw: unknown): PrioritizationInput | undefined {
  const f = "prioritizationFeeLamports";
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === "number") return { kind: "lamports", lamports: raw };
  if (raw === "auto") return { kind: "auto" };
  if (raw === "disabled") return { kind: "disabled" };
  if (!isType(raw, "object")) {
    throw new ValidationError(f, "enum", 'must be an integer, an object, "auto" or "disabled"');
  }
  const obj = raw as Json;
  const key = onlyKey(obj, f);
  switch (key) {
    case "priorityLevelWithMaxLamports": {
      const p = `${f}.priorityLevelWithMaxLamports`;
      const level = field<Json>(obj, key, `${f}.`, "object");
      if (!level) throw new ValidationError(p, "required", "must be an object");
      return {
        kind: "priorityLevel",
        level: field(level, "priorityLevel", `${p}.`, "string") as string,
        maxLamports: field(level, "maxLamports", `${p}.`, ...U64) as string,
        global: field(level, "global", `${p}.`, "boolean") ?? false,
      };
    }
    case "jitoTipLamports":
    case "relayTipLamports":
      return { kind: "relayTip", lamports: field(obj, key, `${f}.`, ...U64) as string };
    case "jitoTipLamportsWithPayer":
    case "relayTipLamportsWithPayer": {
      const p = `${f}.${key}`;
      const tip = field<Json>(obj, key, `${f}.`, "object");
      if (!tip) throw new ValidationError(p, "required", "must be an object {lamports, payer}");
      return {
        kind: "relayTipWithPayer",
        lamports: field(tip, "lamports", `${p}.`, ...U64) as string,
        payer: field(tip, "payer", `${p}.`, "string") as string,
      };
    }
    case "autoMultiplier":
      throw new ValidationError(`${f}.autoMultiplier`, "unsupported", "is not supported; use priorityLevelWithMaxLamports (percentile and cap) instead");
    default:
      throw new ValidationError(`${f}.${key}`, "enum", "is not a known prioritizationFeeLamports kind");
  }
}

/** Jupiter's `SwapRequest` JSON as the core's raw request. */
export function swapRequestFromJupiterJson(body: unknown): SwapInstructionsRequest {
  if (!isType(body, "object")) {
    throw new JsonBodyShapeError("body", `invalid type: ${jsonTypeOf(body)}, expected a SwapRequest object`);
  }
  const o = body as Json;
  if (field(o, "nativeDestinationAccount", "", "string") !== undefined) {
    throw new ValidationError("nativeDestinationAccount", "unsupported", "is not supported by this service (V2 instructions only)");
  }
  if (field(o, "useTokenLedger", "", "boolean") === true) {
    throw new ValidationError("useTokenLedger", "unsupported", "is not supported by this service");
  }
  const dynamicSlippage = field<boolean | Json>(o, "dynamicSlippage", "", "boolean", "object");
  const unitPrice = field(o, "computeUnitPriceMicroLamports", "", ...U64);
  return {
    userPublicKey: field(o, "userPublicKey", "", "string") as string,
    quote: quoteFromJson(field<Json>(o, "quoteResponse", "", "object")) as QuoteInput,
    payer: field(o, "payer", "", "string"),
    wrapAndUnwrapSol: field(o, "wrapAndUnwrapSol", "", "boolean"),
    useSharedAccounts: field(o, "useSharedAccounts", "", "boolean"),
    feeAccount: field(o, "feeAccount", "", "string"),
    trackingAccount: field(o, "trackingAccount", "", "string"),
    prioritization: prioritizationFromJson(o.prioritizationFeeLamports),
    asLegacyTransaction: field(o, "asLegacyTransaction", "", "boolean"),
    destinationTokenAccount: field(o, "destinationTokenAccount", "", "string"),
    dynamicComputeUnitLimit: field(o, "dynamicComputeUnitLimit", "", "boolean"),
    skipUserAccountsRpcCalls: field(o, "skipUserAccountsRpcCalls", "", "boolean"),
    // The older object form `{minBps, maxBps}` means "on"; either way the quote's slippage is used.
    dynamicSlippage: dynamicSlippage === undefined ? undefined : dynamicSlippage !== false,
    // The older spec allowed "auto" here: the same as not setting it.
    computeUnitPriceMicroLamports: unitPrice === "auto" ? undefined : (unitPrice as string | number | undefined),
    blockhashSlotsToExpiry: field(o, "blockhashSlotsToExpiry", "", "number"),
  };
}
