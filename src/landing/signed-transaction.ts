import { createPublicKey, verify } from "node:crypto";
import { getShortU16Decoder } from "@solana/kit";
import bs58 from "bs58";
import { VersionedTransaction } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { MAX_TRANSACTION_BYTES } from "../core/solana/transaction-message.js";
import { ValidationError } from "../core/validation-error.js";

/** A signed wire transaction as Execute receives it. */
export interface SignedTransaction {
  readonly wire: Uint8Array;
  /** The serialized message, exactly the bytes after the signatures (what the signers signed). */
  readonly message: Uint8Array;
  readonly signatures: readonly Uint8Array[];
  /** Required signers in signature-slot order (fee payer first). */
  readonly signers: readonly PublicKey[];
  /** Program id of each top-level instruction, by index (for readable failures). */
  readonly instructionProgramIds: readonly PublicKey[];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Execute's `signedTransaction` as bytes: bytes (gRPC/Connect) or base64 text (REST), at most one packet. */
export function parseSignedWire(value: unknown, field = "signedTransaction"): Uint8Array {
  if (value === undefined || value === null || value === "" || (value instanceof Uint8Array && value.length === 0)) {
    throw new ValidationError(field, "required", "is required");
  }
  let wire: Uint8Array;
  if (value instanceof Uint8Array) wire = value;
  else if (typeof value === "string" && BASE64.test(value)) wire = Buffer.from(value, "base64");
  else throw new ValidationError(field, "base64", "must be a base64-encoded signed transaction");
  if (wire.length > MAX_TRANSACTION_BYTES) {
    throw new ValidationError(field, "transaction", `must be at most ${MAX_TRANSACTION_BYTES} bytes`);
  }
  return wire;
}

/** The wire format's signature count (compact-u16) in front of the signatures. */
const SIGNATURE_COUNT = getShortU16Decoder();

/**
 * Decodes a signed wire transaction; the message must be canonical (it re-serializes to the
 * same bytes), so that comparing it with an issued message compares what was signed.
 */
export function parseSignedTransaction(field: string, wire: Uint8Array): SignedTransaction {
  const invalid = (detail: string) => new ValidationError(field, "transaction", detail);
  let tx: VersionedTransaction;
  let messageOffset: number;
  try {
    tx = VersionedTransaction.deserialize(wire);
    const [signatureCount, signaturesOffset] = SIGNATURE_COUNT.read(wire, 0);
    messageOffset = signaturesOffset + 64 * signatureCount;
  } catch (error) {
    throw invalid(`must be a wire-format Solana transaction (${(error as Error).message})`);
  }
  const message = wire.subarray(messageOffset);
  if (!Buffer.from(tx.message.serialize()).equals(Buffer.from(message))) {
    throw invalid("must be a wire-format Solana transaction without trailing or non-canonical bytes");
  }
  const required = tx.message.header.numRequiredSignatures;
  if (required === 0) throw invalid("must require at least one signature (the fee payer's)");
  if (tx.signatures.length !== required) {
    throw invalid(`must carry ${required} signature slot(s), has ${tx.signatures.length}`);
  }
  const keys = tx.message.staticAccountKeys;
  return {
    wire,
    message,
    signatures: tx.signatures,
    signers: keys.slice(0, required),
    instructionProgramIds: tx.message.compiledInstructions.map((ix) => keys[ix.programIdIndex]),
  };
}

/** DER SubjectPublicKeyInfo prefix of an Ed25519 key (RFC 8410); the raw 32-byte key follows. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function isValidEd25519Signature(message: Uint8Array, signature: Uint8Array, signer: PublicKey): boolean {
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, signer.toBuffer()]), format: "der", type: "spki" });
  return verify(null, message, key, signature);
}

/** Every required signer must have signed the message (a zero-filled slot is a missing signature). */
export function checkSignatures(
  field: string,
  tx: SignedTransaction,
  signerName: (signer: PublicKey) => string = (s) => `required signer ${s.toBase58()}`,
): void {
  tx.signers.forEach((signer, i) => {
    const signature = tx.signatures[i];
    if (signature.every((b) => b === 0)) {
      throw new ValidationError(field, "signature", `is missing the signature of ${signerName(signer)}`, "TRANSACTION_NOT_SIGNED");
    }
    if (!isValidEd25519Signature(tx.message, signature, signer)) {
      throw new ValidationError(field, "signature", `has an invalid signature for ${signerName(signer)}`, "TRANSACTION_NOT_SIGNED");
    }
  });
}

/** The transaction's id: its first signature (the fee payer's), base58. */
export function transactionSignature(tx: SignedTransaction): string {
  return bs58.encode(tx.signatures[0]);
}
