import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Keypair, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import { compileTransaction } from "../../../src/core/solana/transaction-message.js";
import { transactionMessageHash } from "../../../src/core/trigger/message-hash.js";

describe("transactionMessageHash", () => {
  for (const legacy of [false, true]) {
    it(`a ${legacy ? "legacy" : "v0"} transaction hashes the same unsigned and signed`, () => {
      const payer = Keypair.generate();
      const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 });
      const issued = compileTransaction([ix], payer.publicKey, "AtbRHhwu6FxBKbT2PD7CbJwZX7f8yzf1YUayur7MEqGJ", { legacy });
      const signed = VersionedTransaction.deserialize(issued.transaction);
      signed.sign([payer]);
      expect(signed.signatures[0].some((b) => b !== 0)).toBe(true);
      const received = VersionedTransaction.deserialize(signed.serialize());
      expect(transactionMessageHash(received.message.serialize())).toBe(transactionMessageHash(issued.message));
      expect(transactionMessageHash(issued.message)).toBe(createHash("sha256").update(issued.message).digest("hex"));
      expect(signed.version).toBe(legacy ? "legacy" : 0);
    });
  }
});
