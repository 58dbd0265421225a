// The SwapInstructions JSON codec (compiled from the descriptors: server/protocol/json-reader-from-descriptor.ts and json-writer-from-descriptor.ts) against protobuf-es, the
// reader and writer connect-es uses for every other call: on every request the fast reader takes,
// it must build exactly protobuf-es's message; on every request protobuf-es refuses, it must step
// aside; and the writer must produce protobuf-es's text byte for byte.
import { create, equals, fromJson, fromJsonString, toJsonString, type JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { SwapInstructionsRequestSchema, SwapInstructionsResponseSchema, type SwapInstructionsResponse } from "../../src/gen/swapd/swap/v1/swap_pb.js";
import { swapInstructionsRequestFromJson, swapInstructionsResponseToJson } from "../../src/api/swap/swap-instructions-json-codec.js";
import { repeatedJsonKey } from "../../src/server/protocol/json-duplicate-keys.js";
import { SWAP_ROUTES, swapInstructionsMessage } from "../../bench/bench-requests.js";
import { demoSolToUsdc, toProtoJson } from "./swap-stack.js";

/** A small deterministic generator (mulberry32), so that a failing case can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const READ_OPTIONS = { ignoreUnknownFields: true } as const;

type Judged = { fast: "accepted" | "declined"; reference: "accepted" | "refused" };

/** Reads `json` both ways and checks the contract between them; says what each did. */
function judge(json: unknown): Judged {
  let reference;
  try {
    reference = fromJson(SwapInstructionsRequestSchema, json as JsonValue, READ_OPTIONS);
  } catch {
    reference = undefined;
  }
  const fast = swapInstructionsRequestFromJson(json);
  if (reference === undefined) {
    expect(fast, `fast reader accepted what protobuf-es refuses: ${JSON.stringify(json)}`).toBeUndefined();
    return { fast: "declined", reference: "refused" };
  }
  if (fast !== undefined) {
    expect(equals(SwapInstructionsRequestSchema, fast, reference), JSON.stringify(json)).toBe(true);
    expect(fast).toStrictEqual(reference);
  }
  return { fast: fast === undefined ? "declined" : "accepted", reference: "accepted" };
}

/** Requests as clients send them: the bench's routes, and Jupiter-shaped ones with every option. */
function corpus(): Record<string, any>[] {
  const requests: Record<string, any>[] = SWAP_ROUTES.map((r) => swapInstructionsMessage(r.id));
  const fees: unknown[] = [1000, "auto", "disabled", { jitoTipLamports: 10_000 }, { jitoTipLamportsWithPayer: { lamports: "5000", payer: "payer" } }];
  for (const fee of fees) requests.push(toProtoJson(demoSolToUsdc({ prioritizationFeeLamports: fee })));
  requests.push(
    toProtoJson(
      demoSolToUsdc({
        payer: "P",
        wrapAndUnwrapSol: false,
        useSharedAccounts: true,
        feeAccount: "F",
        trackingAccount: "T",
        asLegacyTransaction: true,
        destinationTokenAccount: "D",
        dynamicComputeUnitLimit: true,
        skipUserAccountsRpcCalls: true,
        dynamicSlippage: true,
        computeUnitPriceMicroLamports: "18446744073709551615",
        blockhashSlotsToExpiry: 4_294_967_295,
        useTokenLedger: true,
        // Jupiter's own quote keys the contract does not model, and a client's extras.
        somethingNew: { nested: [1, "x", null] },
      }),
    ),
  );
  const withEverything = toProtoJson(
    demoSolToUsdc({ prioritizationFeeLamports: { priorityLevelWithMaxLamports: { priorityLevel: "veryHigh", maxLamports: 4_000_000, global: true } } }),
  );
  withEverything.quoteResponse.platformFee = { amount: "12", feeBps: 20 };
  withEverything.quoteResponse.swapUsdValue = "149.17";
  withEverything.quoteResponse.mostReliableAmmsQuoteReport = { info: { a: "1" } };
  withEverything.quoteResponse.routePlan[0].bps = 10_000;
  withEverything.quoteResponse.timeTaken = 1e-7;
  requests.push(withEverything);
  const nulls = toProtoJson(demoSolToUsdc());
  for (const key of ["payer", "wrapAndUnwrapSol", "computeUnitPriceMicroLamports", "prioritizationFeeLamports", "dynamicSlippage"]) nulls[key] = null;
  nulls.quoteResponse.routePlan[0].swapInfo.feeAmount = null;
  nulls.quoteResponse.routePlan[0].percent = null;
  nulls.quoteResponse.routePlan.push({ swapInfo: null });
  requests.push(nulls);
  return requests;
}

/** Values a client might put anywhere: plain ones, numbers as strings, out of range, wrong types, bad text. */
const MUTANTS: readonly unknown[] = [
  "1",
  "0",
  "01",
  " 1",
  "-1",
  "1.0",
  "1e3",
  "0x10",
  "NaN",
  "Infinity",
  "18446744073709551615",
  "18446744073709551616",
  "99999999999999999999",
  "",
  "x",
  "\ud800",
  "é✓𝄞",
  0,
  1,
  -1,
  1.5,
  1e3,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 64,
  -0,
  true,
  false,
  null,
  {},
  [],
  [1],
  { lamports: "1" },
];

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
}

/** Every place a value sits in a JSON tree (object members and array elements). */
function slots(json: unknown, out: Slot[] = []): Slot[] {
  if (Array.isArray(json)) {
    json.forEach((v, i) => {
      out.push({ parent: json, key: i });
      slots(v, out);
    });
  } else if (typeof json === "object" && json !== null) {
    for (const [k, v] of Object.entries(json)) {
      out.push({ parent: json as Record<string, unknown>, key: k });
      slots(v, out);
    }
  }
  return out;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** One random change: a value replaced, a member removed or renamed to its proto name, a second oneof member. */
function mutate(json: Record<string, any>, random: () => number): Record<string, any> {
  const copy = structuredClone(json);
  const all = slots(copy);
  const slot = all[Math.floor(random() * all.length)];
  const roll = random();
  const parent = slot.parent as any;
  if (roll < 0.75 || Array.isArray(parent)) {
    parent[slot.key] = structuredClone(MUTANTS[Math.floor(random() * MUTANTS.length)]);
  } else if (roll < 0.85) {
    delete parent[slot.key];
  } else if (roll < 0.95) {
    const value = parent[slot.key];
    delete parent[slot.key];
    parent[snake(String(slot.key))] = value;
  } else {
    copy.prioritizationFeeLamports = { ...(copy.prioritizationFeeLamports ?? {}), auto: true, lamports: "5" };
  }
  return copy;
}

describe("SwapInstructions JSON request reader", () => {
  it("builds protobuf-es's message for every request clients send", () => {
    for (const json of corpus()) expect(judge(json), JSON.stringify(json)).toEqual({ fast: "accepted", reference: "accepted" });
  });

  it("on thousands of random changes: equals protobuf-es whenever it accepts, steps aside whenever protobuf-es refuses", () => {
    const random = seeded(0x5eed);
    const base = corpus();
    const counts = { accepted: 0, declinedValid: 0, refused: 0 };
    for (let i = 0; i < 4000; i++) {
      let json = base[i % base.length];
      const changes = 1 + Math.floor(random() * 3);
      for (let c = 0; c < changes; c++) json = mutate(json, random);
      const verdict = judge(json);
      if (verdict.reference === "refused") counts.refused++;
      else if (verdict.fast === "accepted") counts.accepted++;
      else counts.declinedValid++;
    }
    // The mutations reach all three outcomes, so the equality above was tested on each side.
    expect(counts.accepted).toBeGreaterThan(500);
    expect(counts.refused).toBeGreaterThan(500);
    expect(counts.declinedValid).toBeGreaterThan(100);
  });

  it("declines forms protobuf-es accepts but words differently (it then reads them itself)", () => {
    const base = toProtoJson(demoSolToUsdc());
    const cases: Record<string, any>[] = [
      { ...base, quoteResponse: { ...base.quoteResponse, slippageBps: "50" } },
      { ...base, quoteResponse: { ...base.quoteResponse, in_amount: "5" } },
      { ...base, prioritizationFeeLamports: { auto: null } },
      { ...base, prioritizationFeeLamports: { lamports: "1e3" } },
    ];
    for (const json of cases) expect(judge(json).fast).toBe("declined");
  });
});

describe("SwapInstructions JSON response writer", () => {
  const WRITE_OPTIONS = { alwaysEmitImplicit: true } as const;
  const expectSameText = (m: SwapInstructionsResponse) =>
    expect(swapInstructionsResponseToJson(m)).toBe(toJsonString(SwapInstructionsResponseSchema, m, WRITE_OPTIONS));

  it("writes protobuf-es's text for an empty response and one with every field", () => {
    expectSameText(create(SwapInstructionsResponseSchema));
    const ix = { programId: 'Prog"\\\n\u0001é𝄞', accounts: [{ pubkey: "a", isSigner: true, isWritable: false }], data: new Uint8Array([0, 255, 1]) };
    expectSameText(
      create(SwapInstructionsResponseSchema, {
        tokenLedgerInstruction: ix,
        computeBudgetInstructions: [ix, ix],
        setupInstructions: [ix],
        swapInstruction: ix,
        cleanupInstruction: ix,
        otherInstructions: [ix],
        addressLookupTableAddresses: ["L1", "L\u2028"],
        prioritizationFeeLamports: 18_446_744_073_709_551_615n,
        computeUnitLimit: 4_294_967_295,
        prioritizationType: { kind: { case: "computeBudget", value: { microLamports: 5n, estimatedMicroLamports: 7n } } },
        simulationSlot: 0n,
        simulationError: { errorCode: "E", error: 'failed: "x"' },
        blockhashWithMetadata: { blockhash: "B", lastValidBlockHeight: 9n, fetchedAt: { seconds: 1_700_000_000n, nanos: 123_456_789 } },
        dynamicSlippageReport: {
          slippageBps: 1,
          otherAmount: 0n,
          simulatedIncurredSlippageBps: -5,
          amplificationRatio: "1.5",
          categoryName: "c",
          heuristicMaxSlippageBps: 0,
        },
        contextSlot: 0n,
      }),
    );
  });

  it("writes protobuf-es's text for thousands of random responses", () => {
    const random = seeded(0xc0dec);
    const int = (n: number) => Math.floor(random() * n);
    const maybe = <T>(make: () => T): T | undefined => (random() < 0.5 ? make() : undefined);
    const text = () => ["", "a", "So11111111111111111111111111111111111111112", 'q"\\/\b\f\n\r\t', "\u0000\u001f\u007f", "é✓𝄞", "\ud800x", "\u2028"][int(8)];
    const u64 = () => [0n, 1n, 2n ** 53n + 1n, 2n ** 64n - 1n, BigInt(int(1e9))][int(5)];
    const bytes = () => Uint8Array.from({ length: int(40) }, () => int(256));
    const instruction = () => ({
      programId: text(),
      accounts: Array.from({ length: int(4) }, () => ({ pubkey: text(), isSigner: random() < 0.5, isWritable: random() < 0.5 })),
      data: bytes(),
    });
    const instructions = () => Array.from({ length: int(4) }, instruction);
    const nanos = () => [0, 1, 999_999_999, 120_000_000, 123_000, 123_456_000, 100, int(1e9)][int(8)];
    const seconds = () => [0n, -1n, 1_700_000_000n, -62_135_596_800n, 253_402_300_799n, BigInt(int(2e9))][int(6)];
    const prioritizationType = () =>
      [
        { kind: { case: undefined } },
        { kind: { case: "computeBudget", value: { microLamports: u64(), ...(random() < 0.5 ? { estimatedMicroLamports: u64() } : {}) } } },
        { kind: { case: "relayTip", value: { lamports: u64() } } },
      ][int(3)];
    for (let i = 0; i < 3000; i++) {
      const m = create(SwapInstructionsResponseSchema, {
        tokenLedgerInstruction: maybe(instruction),
        computeBudgetInstructions: instructions(),
        setupInstructions: instructions(),
        swapInstruction: maybe(instruction),
        cleanupInstruction: maybe(instruction),
        otherInstructions: instructions(),
        addressLookupTableAddresses: Array.from({ length: int(3) }, text),
        prioritizationFeeLamports: u64(),
        computeUnitLimit: int(2 ** 32),
        prioritizationType: maybe(prioritizationType) as never,
        simulationSlot: maybe(u64),
        simulationError: maybe(() => ({ errorCode: text(), error: text() })),
        blockhashWithMetadata: maybe(() => ({
          blockhash: text(),
          lastValidBlockHeight: u64(),
          fetchedAt: maybe(() => ({ seconds: seconds(), nanos: nanos() })),
        })),
        dynamicSlippageReport: maybe(() => ({
          slippageBps: int(2 ** 32),
          otherAmount: maybe(u64),
          simulatedIncurredSlippageBps: int(2 ** 32) - 2 ** 31,
          amplificationRatio: text(),
          categoryName: text(),
          heuristicMaxSlippageBps: maybe(() => int(2 ** 32)),
        })),
        contextSlot: maybe(u64),
      });
      expectSameText(m);
    }
  });

  it("refuses a timestamp protobuf-es cannot write, as protobuf-es does", () => {
    for (const fetchedAt of [
      { seconds: 253_402_300_800n, nanos: 0 },
      { seconds: -62_135_596_801n, nanos: 0 },
      { seconds: 0n, nanos: -1 },
      { seconds: 0n, nanos: 1_000_000_000 },
    ]) {
      const m = create(SwapInstructionsResponseSchema, { blockhashWithMetadata: { blockhash: "B", lastValidBlockHeight: 1n, fetchedAt } });
      let reference: unknown;
      try {
        toJsonString(SwapInstructionsResponseSchema, m, WRITE_OPTIONS);
      } catch (e) {
        reference = e;
      }
      expect(
        reference,
        JSON.stringify(fetchedAt, (_, v) => (typeof v === "bigint" ? String(v) : v)),
      ).toBeInstanceOf(Error);
      expect(() => swapInstructionsResponseToJson(m)).toThrow((reference as Error).message);
    }
  });
});

describe("repeatedJsonKey", () => {
  it("finds a repeated member name at any depth, and only within one object, with its path", () => {
    expect(repeatedJsonKey('{"a":1,"a":2}')).toBe("a");
    expect(repeatedJsonKey('{"x":{"b":[{"c":1},{"c":1,"c":1}]}}')).toBe("x.b[1].c");
    expect(repeatedJsonKey('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
    expect(repeatedJsonKey('{"a":"\\"a\\",\\"a\\":","b":1}')).toBeUndefined();
    expect(repeatedJsonKey('["a","a",{"a":1}]')).toBeUndefined();
    expect(repeatedJsonKey('[1,[2,3],{"a":1,"a":2}]')).toBe("[2].a");
    expect(repeatedJsonKey(' { "a" : 1 , "b" : { } , "a" : 3 } ')).toBe("a");
  });

  it("compares escaped member names by what they decode to (\\u0061 is a)", () => {
    expect(repeatedJsonKey('{"a":1,"\\u0061":2}')).toBe("a");
    expect(repeatedJsonKey('{"\\n":1}')).toBeUndefined();
    expect(repeatedJsonKey('{"\\n":1,"o":{"\\u000a":1,"\\n":2}}')).toBe("o.\n");
  });

  it("agrees with protobuf-es on duplicate names in real requests", () => {
    const text = JSON.stringify(toProtoJson(demoSolToUsdc()));
    const doubled = text.replace('"userPublicKey":', '"userPublicKey":"x","userPublicKey":');
    expect(repeatedJsonKey(text)).toBeUndefined();
    expect(repeatedJsonKey(doubled)).toBe("userPublicKey");
    expect(() => fromJsonString(SwapInstructionsRequestSchema, text, READ_OPTIONS)).not.toThrow();
    expect(() => fromJsonString(SwapInstructionsRequestSchema, doubled, READ_OPTIONS)).toThrow(/duplicate/);
  });
});
