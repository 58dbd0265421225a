// The SwapInstructions response is built as message literals (api/swap/proto-mapping.ts). A literal
// is only a message if it has every field protobuf-es gives one; the oracle is protobuf-es itself:
// a message survives a binary round trip unchanged (fromBinary fills in every field), and the
// values are those of the outcome it maps.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { swapResponseToProto } from "../../src/api/swap/proto-mapping.js";
import type { SwapInstructionsOutcome } from "../../src/api/swap/swap-instructions.js";
import { SwapInstructionsResponseSchema } from "../../src/gen/swapd/swap/v1/swap_pb.js";

const key = () => Keypair.generate().publicKey;
const ix = (accounts: number, data: number[]) =>
  new TransactionInstruction({
    programId: key(),
    keys: Array.from({ length: accounts }, (_, i) => ({ pubkey: key(), isSigner: i % 2 === 0, isWritable: i % 3 === 0 })),
    data: Buffer.from(data),
  });

function outcome(overrides: Partial<SwapInstructionsOutcome>): SwapInstructionsOutcome {
  return {
    computeBudgetInstructions: [ix(0, [2, 1, 2, 3]), ix(0, [3])],
    setupInstructions: [ix(6, [1])],
    swapInstruction: ix(20, [229, 23, 0, 255]),
    cleanupInstruction: undefined,
    otherInstructions: [],
    addressLookupTableAddresses: [key()],
    computeUnitLimit: 1_400_000,
    prioritizationFeeLamports: 0n,
    prioritizationType: null,
    computeUnitPricing: undefined as never,
    payer: key(),
    asLegacyTransaction: false,
    programAuthorityId: 0,
    blockhashWithMetadata: { blockhash: bs58.encode(Keypair.generate().publicKey.toBytes()), lastValidBlockHeight: 150n, fetchedAtMs: 1_764_000_000_123 },
    simulationSlot: undefined,
    simulationError: undefined,
    lookupTableAccounts: [],
    ...overrides,
  };
}

const OUTCOMES: [string, SwapInstructionsOutcome][] = [
  ["the least", outcome({ setupInstructions: [], computeBudgetInstructions: [], addressLookupTableAddresses: [] })],
  ["a compute-unit price with an estimate", outcome({ prioritizationType: { kind: "computeBudget", microLamports: 5n, estimatedMicroLamports: 7n } })],
  ["a compute-unit price without an estimate", outcome({ prioritizationType: { kind: "computeBudget", microLamports: 0n, estimatedMicroLamports: null } })],
  ["a relay tip", outcome({ prioritizationType: { kind: "relayTip", lamports: 10_000n }, otherInstructions: [ix(2, [2, 0, 0, 0])] })],
  [
    "everything, zero values where zero is possible",
    outcome({
      cleanupInstruction: ix(3, []),
      simulationSlot: 0n,
      contextSlot: 0n,
      simulationError: { errorCode: "", error: "" },
      prioritizationFeeLamports: 2n ** 64n - 1n,
      prioritizationType: { kind: "computeBudget", microLamports: 0n, estimatedMicroLamports: 0n },
    }),
  ],
];

describe("swapResponseToProto builds whole messages", () => {
  it.each(OUTCOMES)("%s: unchanged by a binary round trip, and carrying the outcome's values", (_, o) => {
    const m = swapResponseToProto(o);
    expect(m).toStrictEqual(fromBinary(SwapInstructionsResponseSchema, toBinary(SwapInstructionsResponseSchema, m)));

    expect(m.swapInstruction?.programId).toBe(o.swapInstruction.programId.toBase58());
    expect(m.swapInstruction?.accounts.map((a) => [a.pubkey, a.isSigner, a.isWritable])).toEqual(
      o.swapInstruction.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
    );
    expect(Buffer.from(m.swapInstruction!.data)).toEqual(o.swapInstruction.data);
    expect(m.setupInstructions.length).toBe(o.setupInstructions.length);
    expect(m.cleanupInstruction === undefined).toBe(o.cleanupInstruction === undefined);
    expect(m.addressLookupTableAddresses).toEqual(o.addressLookupTableAddresses.map((k: PublicKey) => k.toBase58()));
    expect(m.prioritizationFeeLamports).toBe(o.prioritizationFeeLamports);
    expect(m.simulationSlot).toBe(o.simulationSlot);
    expect(m.contextSlot).toBe(o.contextSlot);
    expect(m.blockhashWithMetadata?.lastValidBlockHeight).toBe(o.blockhashWithMetadata.lastValidBlockHeight);
    expect(timestampMs(m.blockhashWithMetadata!.fetchedAt!)).toBe(o.blockhashWithMetadata.fetchedAtMs);
    expect(m.prioritizationType?.kind.case).toBe(o.prioritizationType?.kind);
  });
});
