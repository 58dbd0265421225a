/**
 * SwapInstructionsResponse as Connect JSON text, for the codec path (server/unary-json-codec.ts):
 * the same text as protobuf-es's `toJsonString(…, { alwaysEmitImplicit: true })` — fields in field
 * number order, every implicit field, set message and optional fields only, 64-bit integers as
 * decimal strings, bytes as padded standard base64, the timestamp in RFC 3339 — written straight
 * from the message instead of through an intermediate JSON object.
 */
import { toJson } from "@bufbuild/protobuf";
import { TimestampSchema, type Timestamp } from "@bufbuild/protobuf/wkt";
import type {
  BlockhashWithMetadata,
  DynamicSlippageReport,
  Instruction,
  PrioritizationType,
  SimulationError,
  SwapInstructionsResponse,
} from "../../gen/swapd/swap/v1/swap_pb.js";

const quoted = JSON.stringify as (value: string) => string;

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

// protobuf-es's range for Timestamp JSON (0001-01-01T00:00:00Z ..= 9999-12-31T23:59:59Z).
const TIMESTAMP_MS_MIN = -62_135_596_800_000;
const TIMESTAMP_MS_MAX = 253_402_300_799_000;

function timestamp(value: Timestamp): string {
  const ms = Number(value.seconds) * 1000;
  const { nanos } = value;
  // Out of range: protobuf-es refuses it, with its own words.
  if (ms < TIMESTAMP_MS_MIN || ms > TIMESTAMP_MS_MAX || nanos < 0 || nanos > 999_999_999) return quoted(toJson(TimestampSchema, value) as string);
  let fraction = "";
  if (nanos > 0) {
    const digits = String(nanos + 1_000_000_000).slice(1);
    fraction = digits.endsWith("000000") ? `.${digits.slice(0, 3)}` : digits.endsWith("000") ? `.${digits.slice(0, 6)}` : `.${digits}`;
  }
  return `"${new Date(ms).toISOString().slice(0, -5)}${fraction}Z"`;
}

function instruction(ix: Instruction): string {
  let accounts = "";
  for (let i = 0; i < ix.accounts.length; i++) {
    const a = ix.accounts[i]!;
    accounts += `${i === 0 ? "" : ","}{"pubkey":${quoted(a.pubkey)},"isSigner":${a.isSigner},"isWritable":${a.isWritable}}`;
  }
  return `{"programId":${quoted(ix.programId)},"accounts":[${accounts}],"data":"${base64(ix.data)}"}`;
}

function instructions(list: readonly Instruction[]): string {
  let out = "";
  for (let i = 0; i < list.length; i++) out += (i === 0 ? "" : ",") + instruction(list[i]!);
  return `[${out}]`;
}

function prioritizationType(p: PrioritizationType): string {
  switch (p.kind.case) {
    case "computeBudget": {
      const v = p.kind.value;
      const estimated = v.estimatedMicroLamports === undefined ? "" : `,"estimatedMicroLamports":"${v.estimatedMicroLamports}"`;
      return `{"computeBudget":{"microLamports":"${v.microLamports}"${estimated}}}`;
    }
    case "relayTip":
      return `{"relayTip":{"lamports":"${p.kind.value.lamports}"}}`;
    default:
      return "{}";
  }
}

function simulationError(e: SimulationError): string {
  return `{"errorCode":${quoted(e.errorCode)},"error":${quoted(e.error)}}`;
}

function blockhashWithMetadata(b: BlockhashWithMetadata): string {
  const fetchedAt = b.fetchedAt === undefined ? "" : `,"fetchedAt":${timestamp(b.fetchedAt)}`;
  return `{"blockhash":${quoted(b.blockhash)},"lastValidBlockHeight":"${b.lastValidBlockHeight}"${fetchedAt}}`;
}

function dynamicSlippageReport(r: DynamicSlippageReport): string {
  return (
    `{"slippageBps":${r.slippageBps}` +
    (r.otherAmount === undefined ? "" : `,"otherAmount":"${r.otherAmount}"`) +
    `,"simulatedIncurredSlippageBps":${r.simulatedIncurredSlippageBps}` +
    `,"amplificationRatio":${quoted(r.amplificationRatio)}` +
    `,"categoryName":${quoted(r.categoryName)}` +
    (r.heuristicMaxSlippageBps === undefined ? "" : `,"heuristicMaxSlippageBps":${r.heuristicMaxSlippageBps}`) +
    "}"
  );
}

export function swapInstructionsResponseToJson(m: SwapInstructionsResponse): string {
  let out = "{";
  if (m.tokenLedgerInstruction !== undefined) out += `"tokenLedgerInstruction":${instruction(m.tokenLedgerInstruction)},`;
  out += `"computeBudgetInstructions":${instructions(m.computeBudgetInstructions)}`;
  out += `,"setupInstructions":${instructions(m.setupInstructions)}`;
  if (m.swapInstruction !== undefined) out += `,"swapInstruction":${instruction(m.swapInstruction)}`;
  if (m.cleanupInstruction !== undefined) out += `,"cleanupInstruction":${instruction(m.cleanupInstruction)}`;
  out += `,"otherInstructions":${instructions(m.otherInstructions)}`;
  out += `,"addressLookupTableAddresses":[${m.addressLookupTableAddresses.map(quoted).join(",")}]`;
  out += `,"prioritizationFeeLamports":"${m.prioritizationFeeLamports}"`;
  out += `,"computeUnitLimit":${m.computeUnitLimit}`;
  if (m.prioritizationType !== undefined) out += `,"prioritizationType":${prioritizationType(m.prioritizationType)}`;
  if (m.simulationSlot !== undefined) out += `,"simulationSlot":"${m.simulationSlot}"`;
  if (m.simulationError !== undefined) out += `,"simulationError":${simulationError(m.simulationError)}`;
  if (m.blockhashWithMetadata !== undefined) out += `,"blockhashWithMetadata":${blockhashWithMetadata(m.blockhashWithMetadata)}`;
  if (m.dynamicSlippageReport !== undefined) out += `,"dynamicSlippageReport":${dynamicSlippageReport(m.dynamicSlippageReport)}`;
  if (m.contextSlot !== undefined) out += `,"contextSlot":"${m.contextSlot}"`;
  return `${out}}`;
}
