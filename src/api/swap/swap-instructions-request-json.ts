/**
 * SwapInstructionsRequest from parsed Connect JSON, for the codec path (server/unary-json-codec.ts):
 * the message protobuf-es's `fromJson(…, { ignoreUnknownFields: true })` gives, built directly.
 * Values in their plain JSON form only — strings, booleans, integral numbers, 64-bit integers as
 * decimal strings or safe numbers, `null` for "unset" outside oneofs. Anything else (a number
 * written as a string, a proto field name, a null oneof member, a value of the wrong type) returns
 * undefined, and protobuf-es reads the request and words its errors. Unknown keys are ignored, as
 * Jupiter's own quote responses carry more than the contract models.
 */
import { getTextEncoding } from "@bufbuild/protobuf/wire";
import type {
  PlatformFee,
  PrioritizationFeeLamports,
  PriorityLevelWithMaxLamports,
  QuoteResponse,
  RelayTipLamportsWithPayer,
  RoutePlanStep,
  SwapInfo,
  SwapInstructionsRequest,
} from "../../gen/swapd/swap/v1/swap_pb.js";

/** Thrown inside the reader when a value is not in its plain form; never escapes it. */
class NotPlain {}
const NOT_PLAIN = new NotPlain();

type JsonObject = Record<string, unknown>;
const MAX_U32 = 0xffff_ffff;
const MAX_U64 = 0xffff_ffff_ffff_ffffn;
const DECIMAL_U64 = /^(?:0|[1-9][0-9]{0,19})$/;
const textEncoding = getTextEncoding();

function object(json: unknown): JsonObject {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw NOT_PLAIN;
  return json as JsonObject;
}

function string(json: unknown): string {
  if (typeof json !== "string" || !textEncoding.checkUtf8(json)) throw NOT_PLAIN;
  return json;
}

function bool(json: unknown): boolean {
  if (typeof json !== "boolean") throw NOT_PLAIN;
  return json;
}

function u32(json: unknown): number {
  if (typeof json !== "number" || !Number.isInteger(json) || json < 0 || json > MAX_U32) throw NOT_PLAIN;
  return json;
}

function u64(json: unknown): bigint {
  if (typeof json === "number" && Number.isSafeInteger(json) && json >= 0) return BigInt(json);
  if (typeof json === "string" && DECIMAL_U64.test(json)) {
    const value = BigInt(json);
    if (value <= MAX_U64) return value;
  }
  throw NOT_PLAIN;
}

function double(json: unknown): number {
  if (typeof json !== "number") throw NOT_PLAIN; // JSON.parse yields finite numbers only
  return json;
}

/** A key that names a field by its proto name: protobuf-es accepts it, and checks it against the JSON name. */
function protoNamed(names: ReadonlySet<string>, key: string): void {
  if (names.has(key)) throw NOT_PLAIN;
}

const PLATFORM_FEE_PROTO_NAMES = new Set(["fee_bps"]);
function platformFee(json: unknown): PlatformFee {
  const o = object(json);
  const m: PlatformFee = { $typeName: "swapd.swap.v1.PlatformFee", amount: 0n, feeBps: 0 };
  for (const key in o) {
    const v = o[key];
    switch (key) {
      case "amount":
        m.amount = v === null ? 0n : u64(v);
        break;
      case "feeBps":
        m.feeBps = v === null ? 0 : u32(v);
        break;
      default:
        protoNamed(PLATFORM_FEE_PROTO_NAMES, key);
    }
  }
  return m;
}

const SWAP_INFO_PROTO_NAMES = new Set(["amm_key", "input_mint", "output_mint", "in_amount", "out_amount", "fee_amount", "fee_mint"]);
function swapInfo(json: unknown): SwapInfo {
  const o = object(json);
  const m: SwapInfo = {
    $typeName: "swapd.swap.v1.SwapInfo",
    ammKey: "",
    label: "",
    inputMint: "",
    outputMint: "",
    inAmount: 0n,
    outAmount: 0n,
    feeMint: "",
  };
  for (const key in o) {
    const v = o[key];
    switch (key) {
      case "ammKey":
        m.ammKey = v === null ? "" : string(v);
        break;
      case "label":
        m.label = v === null ? "" : string(v);
        break;
      case "inputMint":
        m.inputMint = v === null ? "" : string(v);
        break;
      case "outputMint":
        m.outputMint = v === null ? "" : string(v);
        break;
      case "inAmount":
        m.inAmount = v === null ? 0n : u64(v);
        break;
      case "outAmount":
        m.outAmount = v === null ? 0n : u64(v);
        break;
      case "feeAmount":
        if (v === null) delete m.feeAmount;
        else m.feeAmount = u64(v);
        break;
      case "feeMint":
        m.feeMint = v === null ? "" : string(v);
        break;
      default:
        protoNamed(SWAP_INFO_PROTO_NAMES, key);
    }
  }
  return m;
}

const ROUTE_PLAN_STEP_PROTO_NAMES = new Set(["swap_info"]);
function routePlanStep(json: unknown): RoutePlanStep {
  const o = object(json);
  const m: RoutePlanStep = { $typeName: "swapd.swap.v1.RoutePlanStep" };
  for (const key in o) {
    const v = o[key];
    switch (key) {
      case "swapInfo":
        if (v === null) delete m.swapInfo;
        else m.swapInfo = swapInfo(v);
        break;
      case "percent":
        if (v === null) delete m.percent;
        else m.percent = u32(v);
        break;
      case "bps":
        if (v === null) delete m.bps;
        else m.bps = u32(v);
        break;
      default:
        protoNamed(ROUTE_PLAN_STEP_PROTO_NAMES, key);
    }
  }
  return m;
}

const QUOTE_PROTO_NAMES = new Set([
  "input_mint",
  "in_amount",
  "output_mint",
  "out_amount",
  "other_amount_threshold",
  "swap_mode",
  "slippage_bps",
  "platform_fee",
  "price_impact_pct",
  "route_plan",
  "context_slot",
  "time_taken",
  "swap_usd_value",
]);
function quoteResponse(json: unknown): QuoteResponse {
  const o = object(json);
  const m: QuoteResponse = {
    $typeName: "swapd.swap.v1.QuoteResponse",
    inputMint: "",
    inAmount: 0n,
    outputMint: "",
    outAmount: 0n,
    otherAmountThreshold: 0n,
    swapMode: "",
    slippageBps: 0,
    priceImpactPct: "",
    routePlan: [],
    contextSlot: 0n,
    timeTaken: 0,
    swapUsdValue: "",
  };
  for (const key in o) {
    const v = o[key];
    switch (key) {
      case "inputMint":
        m.inputMint = v === null ? "" : string(v);
        break;
      case "inAmount":
        m.inAmount = v === null ? 0n : u64(v);
        break;
      case "outputMint":
        m.outputMint = v === null ? "" : string(v);
        break;
      case "outAmount":
        m.outAmount = v === null ? 0n : u64(v);
        break;
      case "otherAmountThreshold":
        m.otherAmountThreshold = v === null ? 0n : u64(v);
        break;
      case "swapMode":
        m.swapMode = v === null ? "" : string(v);
        break;
      case "slippageBps":
        m.slippageBps = v === null ? 0 : u32(v);
        break;
      case "platformFee":
        if (v === null) delete m.platformFee;
        else m.platformFee = platformFee(v);
        break;
      case "priceImpactPct":
        m.priceImpactPct = v === null ? "" : string(v);
        break;
      case "routePlan":
        if (v === null) break;
        if (!Array.isArray(v)) throw NOT_PLAIN;
        for (const step of v) m.routePlan.push(routePlanStep(step));
        break;
      case "contextSlot":
        m.contextSlot = v === null ? 0n : u64(v);
        break;
      case "timeTaken":
        m.timeTaken = v === null ? 0 : double(v);
        break;
      case "swapUsdValue":
        m.swapUsdValue = v === null ? "" : string(v);
        break;
      default:
        protoNamed(QUOTE_PROTO_NAMES, key);
    }
  }
  return m;
}

const PRIORITY_LEVEL_PROTO_NAMES = new Set(["priority_level", "max_lamports"]);
function priorityLevelWithMaxLamports(json: unknown): PriorityLevelWithMaxLamports {
  const o = object(json);
  const m: PriorityLevelWithMaxLamports = {
    $typeName: "swapd.swap.v1.PriorityLevelWithMaxLamports",
    priorityLevel: "",
    maxLamports: 0n,
    global: false,
  };
  for (const key in o) {
    const v = o[key];
    switch (key) {
      case "priorityLevel":
        m.priorityLevel = v === null ? "" : string(v);
        break;
      case "maxLamports":
        m.maxLamports = v === null ? 0n : u64(v);
        break;
      case "global":
        m.global = v === null ? false : bool(v);
        break;
      default:
        protoNamed(PRIORITY_LEVEL_PROTO_NAMES, key);
    }
  }
  return m;
}

function relayTipLamportsWithPayer(json: unknown): RelayTipLamportsWithPayer {
  const o = object(json);
  const m: RelayTipLamportsWithPayer = { $typeName: "swapd.swap.v1.RelayTipLamportsWithPayer", lamports: 0n, payer: "" };
  for (const key in o) {
    const v = o[key];
    if (key === "lamports") m.lamports = v === null ? 0n : u64(v);
    else if (key === "payer") m.payer = v === null ? "" : string(v);
  }
  return m;
}

const PRIORITIZATION_PROTO_NAMES = new Set([
  "priority_level_with_max_lamports",
  "relay_tip_lamports",
  "relay_tip_lamports_with_payer",
  "auto_multiplier",
]);
/** One member of the `kind` oneof at most; a second one, or a null member, is protobuf-es's to judge. */
function prioritizationFeeLamports(json: unknown): PrioritizationFeeLamports {
  const o = object(json);
  const m: PrioritizationFeeLamports = { $typeName: "swapd.swap.v1.PrioritizationFeeLamports", kind: { case: undefined } };
  for (const key in o) {
    const v = o[key];
    let kind: PrioritizationFeeLamports["kind"];
    switch (key) {
      case "lamports":
        kind = { case: "lamports", value: u64(v) };
        break;
      case "priorityLevelWithMaxLamports":
        kind = { case: "priorityLevelWithMaxLamports", value: priorityLevelWithMaxLamports(v) };
        break;
      case "relayTipLamports":
        kind = { case: "relayTipLamports", value: u64(v) };
        break;
      case "relayTipLamportsWithPayer":
        kind = { case: "relayTipLamportsWithPayer", value: relayTipLamportsWithPayer(v) };
        break;
      case "auto":
        kind = { case: "auto", value: bool(v) };
        break;
      case "autoMultiplier":
        kind = { case: "autoMultiplier", value: u32(v) };
        break;
      case "disabled":
        kind = { case: "disabled", value: bool(v) };
        break;
      default:
        protoNamed(PRIORITIZATION_PROTO_NAMES, key);
        continue;
    }
    if (m.kind.case !== undefined) throw NOT_PLAIN;
    m.kind = kind;
  }
  return m;
}

const REQUEST_PROTO_NAMES = new Set([
  "user_public_key",
  "quote_response",
  "wrap_and_unwrap_sol",
  "use_shared_accounts",
  "fee_account",
  "tracking_account",
  "prioritization_fee_lamports",
  "as_legacy_transaction",
  "destination_token_account",
  "dynamic_compute_unit_limit",
  "skip_user_accounts_rpc_calls",
  "dynamic_slippage",
  "compute_unit_price_micro_lamports",
  "blockhash_slots_to_expiry",
  "use_token_ledger",
]);

function request(json: unknown): SwapInstructionsRequest {
  const o = object(json);
  const m: SwapInstructionsRequest = {
    $typeName: "swapd.swap.v1.SwapInstructionsRequest",
    userPublicKey: "",
    payer: "",
    feeAccount: "",
    trackingAccount: "",
    asLegacyTransaction: false,
    destinationTokenAccount: "",
    dynamicComputeUnitLimit: false,
    skipUserAccountsRpcCalls: false,
    dynamicSlippage: false,
    useTokenLedger: false,
  };
  for (const key in o) {
    const v = o[key];
    switch (key) {
      case "userPublicKey":
        m.userPublicKey = v === null ? "" : string(v);
        break;
      case "quoteResponse":
        if (v === null) delete m.quoteResponse;
        else m.quoteResponse = quoteResponse(v);
        break;
      case "payer":
        m.payer = v === null ? "" : string(v);
        break;
      case "wrapAndUnwrapSol":
        if (v === null) delete m.wrapAndUnwrapSol;
        else m.wrapAndUnwrapSol = bool(v);
        break;
      case "useSharedAccounts":
        if (v === null) delete m.useSharedAccounts;
        else m.useSharedAccounts = bool(v);
        break;
      case "feeAccount":
        m.feeAccount = v === null ? "" : string(v);
        break;
      case "trackingAccount":
        m.trackingAccount = v === null ? "" : string(v);
        break;
      case "prioritizationFeeLamports":
        if (v === null) delete m.prioritizationFeeLamports;
        else m.prioritizationFeeLamports = prioritizationFeeLamports(v);
        break;
      case "asLegacyTransaction":
        m.asLegacyTransaction = v === null ? false : bool(v);
        break;
      case "destinationTokenAccount":
        m.destinationTokenAccount = v === null ? "" : string(v);
        break;
      case "dynamicComputeUnitLimit":
        m.dynamicComputeUnitLimit = v === null ? false : bool(v);
        break;
      case "skipUserAccountsRpcCalls":
        m.skipUserAccountsRpcCalls = v === null ? false : bool(v);
        break;
      case "dynamicSlippage":
        m.dynamicSlippage = v === null ? false : bool(v);
        break;
      case "computeUnitPriceMicroLamports":
        if (v === null) delete m.computeUnitPriceMicroLamports;
        else m.computeUnitPriceMicroLamports = u64(v);
        break;
      case "blockhashSlotsToExpiry":
        if (v === null) delete m.blockhashSlotsToExpiry;
        else m.blockhashSlotsToExpiry = u32(v);
        break;
      case "useTokenLedger":
        m.useTokenLedger = v === null ? false : bool(v);
        break;
      default:
        protoNamed(REQUEST_PROTO_NAMES, key);
    }
  }
  return m;
}

/** The request message, or undefined when the JSON is not in its plain form (protobuf-es then reads it). */
export function swapInstructionsRequestFromJson(json: unknown): SwapInstructionsRequest | undefined {
  try {
    return request(json);
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }
}
