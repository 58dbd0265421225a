/**
 * Execute on the localnet, over REST, gRPC and Connect, with the store on PGlite and PostgreSQL.
 *
 * Which transactions can succeed here: the Limit Order v2 program is NOT deployed on the localnet,
 * so every create/cancel transaction the service builds is refused by the chain (asserted below,
 * with the readable reason). For the Success path, the test records a harmless transaction it
 * builds itself (a System transfer, or an SPL Token transfer) through the service's own issuance
 * function (`issueTransactions`, the one CreateOrder/CancelOrder(s) use), exactly as if an
 * operation had issued it, and then executes it through the API.
 */
import { createPrivateKey, randomBytes, randomUUID, sign as ed25519Sign } from "node:crypto";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Keypair, PublicKey, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { createTransferInstruction } from "@solana/spl-token";
import { issueTransactions } from "../../src/api/trigger/issue-transactions.js";
import { compileTransaction } from "../../src/core/solana/transaction-message.js";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT } from "../../src/core/solana/programs.js";
import { DEMO, DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import { openStore } from "../../src/store/index.js";
import { postgresAvailable, TEST_DATABASE_URL as DATABASE_URL } from "../fixtures/postgres.js";
import { startTriggerHarness } from "./trigger-harness.js";
import type { TriggerHarness } from "./trigger-harness.js";

const postgres = await postgresAvailable();

interface Issued {
  readonly requestId: string;
  readonly unsigned: Uint8Array;
}

/** Records a transaction built here as issued, through the service's issuance path. */
async function issue(h: TriggerHarness, instructions: TransactionInstruction[], feePayer: PublicKey): Promise<Issued> {
  const { blockhash, lastValidBlockHeight } = await h.chain.getLatestBlockhash();
  const compiled = compileTransaction(instructions, feePayer, blockhash);
  const requestId = await issueTransactions(h.store, {
    kind: "create_order",
    maker: feePayer,
    transactions: [{ compiled, orderKeys: [] }],
    lastValidBlockHeight,
  });
  return { requestId, unsigned: compiled.transaction };
}

function sign(unsigned: Uint8Array, ...signers: Keypair[]): string {
  const tx = VersionedTransaction.deserialize(unsigned);
  tx.sign(signers);
  return Buffer.from(tx.serialize()).toString("base64");
}

function transfer(to: PublicKey, lamports: number): TransactionInstruction {
  return SystemProgram.transfer({ fromPubkey: DEMO.wallet, toPubkey: to, lamports });
}

for (const backend of ["PGlite", "PostgreSQL"] as const) {
  describe.skipIf(backend === "PostgreSQL" && !postgres)(`Execute (${backend})`, () => {
    const schema = `swapd_trigger_execute_${randomBytes(6).toString("hex")}`;
    let h: TriggerHarness;

    beforeAll(async () => {
      h = await startTriggerHarness(backend === "PostgreSQL" ? { openStore: () => openStore({ databaseUrl: DATABASE_URL, schema }) } : {});
    });
    afterAll(async () => {
      await h?.close();
      if (backend === "PostgreSQL") {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    });

    const sends = () => h.localnet.stats().calls["sendTransaction"] ?? 0;
    const landed = () => h.localnet.chain.recentRecords().length;

    /** Runs `refuse`, then checks nothing was sent, nothing landed, no execution was recorded. */
    async function expectRefusedWithNothingSent(refuse: () => Promise<void>): Promise<void> {
      const [sendsBefore, landedBefore, rowsBefore] = [sends(), landed(), await h.rowCounts()];
      await refuse();
      expect(sends()).toBe(sendsBefore);
      expect(landed()).toBe(landedBefore);
      expect((await h.rowCounts()).executions).toBe(rowsBefore.executions);
    }

    async function expectInvalidTransaction(requestId: string, signedTransaction: string, cause: RegExp): Promise<void> {
      await expectRefusedWithNothingSent(async () => {
        const rest = await h.rest("/trigger/v1/execute", { requestId, signedTransaction });
        expect(rest.status).toBe(400);
        expect(rest.body).toMatchObject({ error: "invalid transaction", code: 400, status: "Failed" });
        expect(String(rest.body["cause"])).toMatch(cause);
        const error = await h.grpc("Execute", { requestId, signedTransaction: Buffer.from(signedTransaction, "base64") }).then(
          () => null,
          (e: { code: number; details: string }) => e,
        );
        expect(error).toMatchObject({ code: 3 });
        expect(error!.details).toMatch(cause);
      });
    }

    it("a good transaction: Success with its signature, landed on chain, recorded; a repeat returns the same and sends nothing", async () => {
      const to = Keypair.generate().publicKey;
      const { requestId, unsigned } = await issue(h, [transfer(to, 7_000_000)], DEMO.wallet);
      const signedTransaction = sign(unsigned, DEMO_WALLET);
      const expectedSignature = VersionedTransaction.deserialize(Buffer.from(signedTransaction, "base64")).signatures[0];
      const sendsBefore = sends();

      const first = await h.rest("/trigger/v1/execute", { requestId, signedTransaction });
      const signature = bs58.encode(expectedSignature);
      expect(first).toEqual({ status: 200, body: { signature, status: "Success", code: 0 } });
      expect(h.localnet.chain.getRecord(signature)?.err).toBeNull();
      expect(h.localnet.getAccount(to)?.lamports).toBe(7_000_000n);
      expect(sends()).toBe(sendsBefore + 1);
      expect(await h.store.executions.findBySignature(signature)).toMatchObject({ status: "Success", code: 0, requestId });

      // Repeats, over each protocol: the recorded answer, nothing sent, nothing new on chain.
      const landedBefore = landed();
      expect(await h.rest("/trigger/v1/execute", { requestId, signedTransaction })).toEqual(first);
      const viaGrpc = await h.grpc("Execute", { requestId, signedTransaction: Buffer.from(signedTransaction, "base64") });
      expect(viaGrpc).toEqual({ signature, status: "EXECUTION_STATUS_SUCCESS", code: 0, error: "" });
      const viaConnect = await h.connect.execute({ requestId, signedTransaction: Buffer.from(signedTransaction, "base64") });
      expect({ signature: viaConnect.signature, status: viaConnect.status, code: viaConnect.code }).toEqual({ signature, status: 1, code: 0 });
      expect(sends()).toBe(sendsBefore + 1);
      expect(landed()).toBe(landedBefore);
    });

    it("two concurrent Executes of one transaction: one send, the same answer", async () => {
      const { requestId, unsigned } = await issue(h, [transfer(Keypair.generate().publicKey, 3_000_000)], DEMO.wallet);
      const signedTransaction = sign(unsigned, DEMO_WALLET);
      const sendsBefore = sends();
      const [a, b] = await Promise.all([
        h.rest("/trigger/v1/execute", { requestId, signedTransaction }),
        h.grpc<{ signature: string; status: string }>("Execute", { requestId, signedTransaction: Buffer.from(signedTransaction, "base64") }),
      ]);
      expect(a.body).toMatchObject({ status: "Success" });
      expect(b).toMatchObject({ signature: a.body["signature"], status: "EXECUTION_STATUS_SUCCESS" });
      expect(sends()).toBe(sendsBefore + 1);
    });

    it("a transaction not issued here is refused, nothing sent", async () => {
      const { blockhash } = await h.chain.getLatestBlockhash();
      const own = compileTransaction([transfer(Keypair.generate().publicKey, 1_000_000)], DEMO.wallet, blockhash);
      const signed = sign(own.transaction, DEMO_WALLET);
      await expectInvalidTransaction(randomUUID(), signed, /^signedTransaction: does not match any transaction issued/);
      // Nor under the requestId of another issued transaction.
      const other = await issue(h, [transfer(Keypair.generate().publicKey, 1_000_000)], DEMO.wallet);
      await expectInvalidTransaction(other.requestId, signed, /^signedTransaction: does not match any transaction issued/);
    });

    it("a tampered transaction (amount changed, then re-signed by the maker) is refused, nothing sent", async () => {
      const to = Keypair.generate().publicKey;
      const { requestId, unsigned } = await issue(h, [transfer(to, 1_000_000)], DEMO.wallet);
      const tx = VersionedTransaction.deserialize(unsigned);
      // The transfer's lamports (u64 LE after the u32 instruction index) in the message: 1_000_000 → 9_000_000.
      const ix = tx.message.compiledInstructions[0];
      expect(Buffer.from(ix.data).readBigUInt64LE(4)).toBe(1_000_000n);
      Buffer.from(ix.data.buffer, ix.data.byteOffset, ix.data.length).writeBigUInt64LE(9_000_000n, 4);
      const tampered = new VersionedTransaction(tx.message);
      tampered.sign([DEMO_WALLET]);
      await expectInvalidTransaction(requestId, Buffer.from(tampered.serialize()).toString("base64"), /^signedTransaction: does not match/);
      // A signed transaction whose bytes were changed after signing: refused too.
      const signed = Buffer.from(sign(unsigned, DEMO_WALLET), "base64");
      signed[signed.length - 1] ^= 0xff;
      await expectInvalidTransaction(requestId, signed.toString("base64"), /^signedTransaction: /);
      expect(h.localnet.getAccount(to)).toBeNull();
    });

    it("a transaction missing a required signature, or with a wrong one, is refused, nothing sent", async () => {
      const feePayer = Keypair.generate();
      h.localnet.airdrop(feePayer.publicKey, 1_000_000_000n);
      // Two signers: the fee payer and the demo wallet (the transfer's source).
      const { requestId, unsigned } = await issue(h, [transfer(Keypair.generate().publicKey, 1_000_000)], feePayer.publicKey);
      await expectInvalidTransaction(
        requestId,
        sign(unsigned, feePayer),
        new RegExp(`^signedTransaction: is missing the signature of required signer ${DEMO.wallet.toBase58()}`),
      );
      // The demo wallet's slot filled with a signature by another key.
      const tx = VersionedTransaction.deserialize(unsigned);
      tx.sign([feePayer]);
      const forged = Keypair.generate();
      const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.from(forged.secretKey.subarray(0, 32))]);
      tx.signatures[1] = ed25519Sign(null, tx.message.serialize(), createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }));
      await expectInvalidTransaction(
        requestId,
        Buffer.from(tx.serialize()).toString("base64"),
        new RegExp(`^signedTransaction: has an invalid signature for required signer ${DEMO.wallet.toBase58()}`),
      );
    });

    it("a transaction that fails on chain: Failed, code 500, with the instruction, program and error name", async () => {
      // An SPL Token transfer of more than the demo wallet holds: Token error 1 (InsufficientFunds).
      const ix = createTransferInstruction(DEMO.walletUsdcAccount, DEMO.walletUsdcAccount, DEMO.wallet, DEMO.walletUsdcAmount + 1n);
      const { requestId, unsigned } = await issue(h, [ix], DEMO.wallet);
      const signedTransaction = sign(unsigned, DEMO_WALLET);
      const rest = await h.rest("/trigger/v1/execute", { requestId, signedTransaction });
      expect(rest.status).toBe(500);
      expect(rest.body).toMatchObject({ code: 500, status: "Failed", signature: expect.any(String) });
      expect(rest.body["error"]).toBe("instruction 0 (Token program) failed: custom program error 1 (0x1): InsufficientFunds");
      const record = await h.store.executions.findBySignature(rest.body["signature"] as string);
      expect(record).toMatchObject({ status: "Failed", code: 500, error: rest.body["error"] });
      const again = await h.grpc("Execute", { requestId, signedTransaction: Buffer.from(signedTransaction, "base64") });
      expect(again).toEqual({ signature: rest.body["signature"], status: "EXECUTION_STATUS_FAILED", code: 500, error: rest.body["error"] });
    });

    it("a signed create-order transaction: Failed, naming the Limit Order instruction (the program is not on the localnet)", async () => {
      const created = await h.rest("/trigger/v1/createOrder", {
        inputMint: NATIVE_MINT.toBase58(),
        outputMint: DEMO.usdcMint.toBase58(),
        maker: DEMO.wallet.toBase58(),
        payer: DEMO.wallet.toBase58(),
        params: { makingAmount: "100000000", takingAmount: "15000000" },
      });
      expect(created.status).toBe(200);
      const unsigned = Buffer.from(created.body["transaction"] as string, "base64");
      const message = VersionedTransaction.deserialize(unsigned).message;
      const loIndex = message.compiledInstructions.findIndex((ix) => message.staticAccountKeys[ix.programIdIndex].equals(LIMIT_ORDER_V2_PROGRAM_ID));
      expect(loIndex).toBeGreaterThan(0);
      const answer = await h.connect.execute({
        requestId: created.body["requestId"] as string,
        signedTransaction: Buffer.from(sign(unsigned, DEMO_WALLET), "base64"),
      });
      expect(answer.status).toBe(2); // EXECUTION_STATUS_FAILED
      expect(answer.code).toBe(500);
      expect(answer.error).toBe(
        `instruction ${loIndex} (Limit Order v2 program) failed: InvalidProgramForExecution: ` +
          `program ${LIMIT_ORDER_V2_PROGRAM_ID.toBase58()} is not deployed on this chain`,
      );
      expect(h.localnet.chain.getRecord(answer.signature)).toBeUndefined();
    });

    // Last: it moves the localnet 150 blocks ahead, past the blockhash the chain layer caches for up to 1 s.
    it("an expired transaction (its blockhash's last valid block height passed) is refused, nothing sent", async () => {
      const to = Keypair.generate().publicKey;
      const { requestId, unsigned } = await issue(h, [transfer(to, 1_000_000)], DEMO.wallet);
      const signedTransaction = sign(unsigned, DEMO_WALLET);
      const lastValid = (await h.store.issuedTransactions.findByRequestId(requestId))[0].lastValidBlockHeight!;
      // The localnet makes a block per landed transaction: land enough of them to pass the expiry.
      const faucetTarget = Keypair.generate().publicKey;
      while (BigInt(h.localnet.chain.blockHeight) <= lastValid) h.localnet.airdrop(faucetTarget, 1_000_000_000n);
      await expectInvalidTransaction(requestId, signedTransaction, /^signedTransaction: has an expired blockhash/);
      expect(h.localnet.getAccount(to)).toBeNull();
    });
  });
}
