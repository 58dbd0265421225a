import { VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { createdOrderOfMessage } from "../../../src/core/trigger/index.js";
import { limitOrderCoder, readReferenceJson } from "./reference.js";

interface ReferenceTransaction {
  readonly label: string;
  readonly base64: string;
  readonly decoded: { instructions: { programId: string; accounts: string[]; dataHex: string; instruction?: string }[] };
}

const references = readReferenceJson<ReferenceTransaction[]>("examples/trigger-transactions-decoded.json");

describe("createdOrderOfMessage", () => {
  const creates = references.filter((t) => t.decoded.instructions.some((i) => i.instruction === "initialize_order"));

  it.each(creates.map((t) => [t.label, t] as const))("reads the order a real create transaction opens: %s", (_label, reference) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(reference.base64, "base64"));
    const created = createdOrderOfMessage(tx.message.serialize());
    const ix = reference.decoded.instructions.find((i) => i.instruction === "initialize_order")!;
    // Independent: Anchor's coder over the IDL decodes the same bytes (the 34-byte real form lacks
    // the trailing Option, so pad it with None as the program reads it).
    const data = Buffer.concat([Buffer.from(ix.dataHex, "hex"), Buffer.from([0])]);
    const params = (limitOrderCoder.instruction.decode(data) as unknown as { data: { params: Record<string, { toString(): string } | null> } }).data.params;
    expect(created).not.toBeNull();
    expect(created!.uniqueId.toString()).toBe(params.unique_id!.toString());
    expect(created!.makingAmount.toString()).toBe(params.making_amount!.toString());
    expect(created!.takingAmount.toString()).toBe(params.taking_amount!.toString());
    expect(created!.expiredAt).toBe(params.expired_at);
    expect(created!.feeBps).toBe(params.fee_bps);
    expect(created!.maker.toBase58()).toBe(ix.accounts[1]);
    expect(created!.order.toBase58()).toBe(ix.accounts[2]);
    expect(created!.inputMint.toBase58()).toBe(ix.accounts[7]);
    expect(created!.outputMint.toBase58()).toBe(ix.accounts[8]);
    expect(created!.inputTokenProgram.toBase58()).toBe(ix.accounts[9]);
    expect(created!.outputTokenProgram.toBase58()).toBe(ix.accounts[10]);
  });

  it("is null for a message without initialize_order (a real cancel transaction)", () => {
    const cancel = references.find((t) => t.decoded.instructions.some((i) => i.instruction === "cancel_order"))!;
    const tx = VersionedTransaction.deserialize(Buffer.from(cancel.base64, "base64"));
    expect(createdOrderOfMessage(tx.message.serialize())).toBeNull();
  });
});
