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

/** A reader of one JSON value: its message or scalar, or NOT_PLAIN thrown for anything but its plain form. */
type Reader<T> = (json: unknown) => T;
type FieldReaders<M> = { readonly [K in Exclude<keyof M, "$typeName">]?: Reader<NonNullable<M[K]>> };

/** The proto names (`in_amount`) of JSON names (`inAmount`) that differ from them. */
function protoNamesOf(jsonNames: Iterable<string>): ReadonlySet<string> {
  const names = new Set<string>();
  for (const name of jsonNames) {
    const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snake !== name) names.add(snake);
  }
  return names;
}

/**
 * A message reader from its zero message and the reader of each field, by JSON name (the same as
 * the local name for every field here). `null` leaves a field as the zero message has it — unset
 * for optional and message fields, the zero value otherwise — which is protobuf-es's reading (a
 * key appears once: the caller has refused duplicates). A key that names a field by its proto name
 * is protobuf-es's to judge (it accepts it, and checks it against the JSON name).
 */
function message<M extends object>(zero: () => M, readers: FieldReaders<M>): Reader<M> {
  const fields = new Map<string, Reader<unknown>>(Object.entries(readers) as [string, Reader<unknown>][]);
  const protoNames = protoNamesOf(fields.keys());
  return (json) => {
    const o = object(json);
    const m = zero() as Record<string, unknown>;
    for (const key in o) {
      const read = fields.get(key);
      if (read === undefined) {
        if (protoNames.has(key)) throw NOT_PLAIN;
        continue;
      }
      const v = o[key];
      if (v !== null) m[key] = read(v);
    }
    return m as M;
  };
}

function list<T>(read: Reader<T>): Reader<T[]> {
  return (json) => {
    if (!Array.isArray(json)) throw NOT_PLAIN;
    return json.map(read);
  };
}

const platformFee = message<PlatformFee>(() => ({ $typeName: "swapd.swap.v1.PlatformFee", amount: 0n, feeBps: 0 }), { amount: u64, feeBps: u32 });

const swapInfo = message<SwapInfo>(
  () => ({ $typeName: "swapd.swap.v1.SwapInfo", ammKey: "", label: "", inputMint: "", outputMint: "", inAmount: 0n, outAmount: 0n, feeMint: "" }),
  { ammKey: string, label: string, inputMint: string, outputMint: string, inAmount: u64, outAmount: u64, feeAmount: u64, feeMint: string },
);

const routePlanStep = message<RoutePlanStep>(() => ({ $typeName: "swapd.swap.v1.RoutePlanStep" }), { swapInfo, percent: u32, bps: u32 });

const quoteResponse = message<QuoteResponse>(
  () => ({
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
  }),
  {
    inputMint: string,
    inAmount: u64,
    outputMint: string,
    outAmount: u64,
    otherAmountThreshold: u64,
    swapMode: string,
    slippageBps: u32,
    platformFee,
    priceImpactPct: string,
    routePlan: list(routePlanStep),
    contextSlot: u64,
    timeTaken: double,
    swapUsdValue: string,
  },
);

const priorityLevelWithMaxLamports = message<PriorityLevelWithMaxLamports>(
  () => ({ $typeName: "swapd.swap.v1.PriorityLevelWithMaxLamports", priorityLevel: "", maxLamports: 0n, global: false }),
  { priorityLevel: string, maxLamports: u64, global: bool },
);

const relayTipLamportsWithPayer = message<RelayTipLamportsWithPayer>(
  () => ({ $typeName: "swapd.swap.v1.RelayTipLamportsWithPayer", lamports: 0n, payer: "" }),
  { lamports: u64, payer: string },
);

type FeeKind = PrioritizationFeeLamports["kind"];
/** The `kind` oneof's members by JSON name. */
const FEE_KINDS = new Map<string, (json: unknown) => FeeKind>([
  ["lamports", (v) => ({ case: "lamports", value: u64(v) })],
  ["priorityLevelWithMaxLamports", (v) => ({ case: "priorityLevelWithMaxLamports", value: priorityLevelWithMaxLamports(v) })],
  ["relayTipLamports", (v) => ({ case: "relayTipLamports", value: u64(v) })],
  ["relayTipLamportsWithPayer", (v) => ({ case: "relayTipLamportsWithPayer", value: relayTipLamportsWithPayer(v) })],
  ["auto", (v) => ({ case: "auto", value: bool(v) })],
  ["autoMultiplier", (v) => ({ case: "autoMultiplier", value: u32(v) })],
  ["disabled", (v) => ({ case: "disabled", value: bool(v) })],
]);
const FEE_KIND_PROTO_NAMES = protoNamesOf(FEE_KINDS.keys());

/** One member of the `kind` oneof at most; a second one, or a null member, is protobuf-es's to judge. */
function prioritizationFeeLamports(json: unknown): PrioritizationFeeLamports {
  const o = object(json);
  const m: PrioritizationFeeLamports = { $typeName: "swapd.swap.v1.PrioritizationFeeLamports", kind: { case: undefined } };
  for (const key in o) {
    const read = FEE_KINDS.get(key);
    if (read === undefined) {
      if (FEE_KIND_PROTO_NAMES.has(key)) throw NOT_PLAIN;
      continue;
    }
    if (m.kind.case !== undefined) throw NOT_PLAIN;
    m.kind = read(o[key]);
  }
  return m;
}

const request = message<SwapInstructionsRequest>(
  () => ({
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
  }),
  {
    userPublicKey: string,
    quoteResponse,
    payer: string,
    wrapAndUnwrapSol: bool,
    useSharedAccounts: bool,
    feeAccount: string,
    trackingAccount: string,
    prioritizationFeeLamports,
    asLegacyTransaction: bool,
    destinationTokenAccount: string,
    dynamicComputeUnitLimit: bool,
    skipUserAccountsRpcCalls: bool,
    dynamicSlippage: bool,
    computeUnitPriceMicroLamports: u64,
    blockhashSlotsToExpiry: u32,
    useTokenLedger: bool,
  },
);

/** The request message, or undefined when the JSON is not in its plain form (protobuf-es then reads it). */
export function swapInstructionsRequestFromJson(json: unknown): SwapInstructionsRequest | undefined {
  try {
    return request(json);
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }
}
