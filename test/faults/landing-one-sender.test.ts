/**
 * One sender per issued transaction, whoever asks (issue "Landing you can trust"): 20 concurrent
 * Executes of one signed transaction, over REST, Connect and gRPC, split between two service
 * instances (replicas) on one PostgreSQL schema and one chain, for 20 rounds. Every round the
 * transaction is sent exactly once (sendTransaction counted at a real proxy in front of the chain,
 * which both replicas use), lands once (the recipient's balance), and every caller hears the same
 * answer. The database is reached through a real TCP proxy that delays its replies by a random
 * 0-15 ms per chunk, so that which caller's query returns first varies as on a busy network (the
 * race of a waiter registering before the creator). The transaction is a plain SOL transfer issued
 * through the service's issuance path (the landing mechanics need no swap program).
 */
import { randomBytes } from "node:crypto";
import bs58 from "bs58";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Keypair, SystemProgram, VersionedTransaction } from "@solana/web3.js";
import { issueTransactions } from "../../src/api/trigger/issue-transactions.js";
import { compileTransaction } from "../../src/core/solana/transaction-message.js";
import { transactionMessageHash } from "../../src/core/trigger/index.js";
import { ExecutionStatus } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import { DEMO, DEMO_WALLET, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { openStore } from "../../src/store/index.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { startTcpProxy } from "../fixtures/tcp-proxy.js";
import type { TcpProxy } from "../fixtures/tcp-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startTriggerHarness } from "../api/trigger-harness.js";
import type { TriggerHarness } from "../api/trigger-harness.js";

const postgres = await postgresAvailable();
const ROUNDS = 20;
const CALLERS = 20;

interface Answer {
  readonly signature: string;
  readonly status: string;
  readonly code: number;
}

describe.skipIf(!postgres)("one sender per transaction: 20 concurrent Executes × 20 rounds, two replicas on PostgreSQL", () => {
  const schema = `swapd_one_sender_${randomBytes(6).toString("hex")}`;
  let localnet: Localnet;
  let proxy: JsonRpcProxy;
  let database: TcpProxy;
  const replicas: TriggerHarness[] = [];

  beforeAll(async () => {
    localnet = await startLocalnet();
    await seedDemo(localnet);
    proxy = await startJsonRpcProxy(localnet.url);
    const target = new URL(TEST_DATABASE_URL);
    database = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const databaseUrl = Object.assign(new URL(TEST_DATABASE_URL), { hostname: "127.0.0.1", port: String(database.port) }).toString();
    for (let i = 0; i < 2; i += 1) {
      replicas.push(
        await startTriggerHarness({
          localnet,
          chainUrl: () => proxy.url,
          openStore: () => openStore({ databaseUrl, schema }),
          confirmation: { pollIntervalMs: 20 },
        }),
      );
    }
    database.jitter(15);
  }, 120_000);

  afterAll(async () => {
    for (const r of replicas) await r.close();
    await proxy?.close();
    await database?.close();
    await localnet?.close();
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  /** One Execute through replica `r` over REST (0), Connect (1) or gRPC (2), as one shape. */
  async function execute(r: TriggerHarness, protocol: number, requestId: string, wire: Buffer): Promise<Answer> {
    if (protocol === 0) {
      const { body } = await r.rest("/trigger/v1/execute", { requestId, signedTransaction: wire.toString("base64") });
      return { signature: String(body["signature"]), status: String(body["status"]), code: Number(body["code"]) };
    }
    if (protocol === 1) {
      const answer = await r.connect.execute({ requestId, signedTransaction: wire });
      return { signature: answer.signature, status: answer.status === ExecutionStatus.SUCCESS ? "Success" : `status ${answer.status}`, code: answer.code };
    }
    const answer = await r.grpc<{ signature: string; status: string; code: number }>("Execute", { requestId, signedTransaction: wire });
    return { signature: answer.signature, status: answer.status === "EXECUTION_STATUS_SUCCESS" ? "Success" : answer.status, code: answer.code };
  }

  it("every round: sent once, landed once, every caller the same answer", async () => {
    const [a] = replicas as [TriggerHarness, TriggerHarness];
    const sendsPerRound: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const to = Keypair.generate().publicKey;
      const lamports = 1_000_000 + round;
      const { blockhash, lastValidBlockHeight } = localnet.chain.latestBlockhash();
      const compiled = compileTransaction([SystemProgram.transfer({ fromPubkey: DEMO.wallet, toPubkey: to, lamports })], DEMO.wallet, blockhash);
      const requestId = await issueTransactions(a.store, {
        kind: "create_order",
        maker: DEMO.wallet,
        transactions: [{ compiled, orderKeys: [] }],
        lastValidBlockHeight,
      });
      const tx = VersionedTransaction.deserialize(compiled.transaction);
      tx.sign([DEMO_WALLET]);
      const wire = Buffer.from(tx.serialize());
      const signature = bs58.encode(tx.signatures[0]);

      const before = proxy.calls("sendTransaction");
      const answers = await Promise.all(Array.from({ length: CALLERS }, (_, i) => execute(replicas[i % 2], Math.floor(i / 2) % 3, requestId, wire)));
      sendsPerRound.push(proxy.calls("sendTransaction") - before);
      expect(answers).toEqual(Array.from({ length: CALLERS }, () => ({ signature, status: "Success", code: 0 })));
      expect(localnet.getAccount(to)?.lamports).toBe(BigInt(lamports));
    }
    console.log(`sendTransaction per round (${CALLERS} callers, 2 replicas): ${sendsPerRound.join(" ")}`);
    expect(sendsPerRound).toEqual(Array.from({ length: ROUNDS }, () => 1));
  }, 600_000);

  it("a sender that died holding the lease (recorded, never sent): another replica takes the lease over once it lapses and sends once", async () => {
    const [a, b] = replicas as [TriggerHarness, TriggerHarness];
    const to = Keypair.generate().publicKey;
    const { blockhash, lastValidBlockHeight } = localnet.chain.latestBlockhash();
    const compiled = compileTransaction([SystemProgram.transfer({ fromPubkey: DEMO.wallet, toPubkey: to, lamports: 3_000_000 })], DEMO.wallet, blockhash);
    const requestId = await issueTransactions(a.store, {
      kind: "create_order",
      maker: DEMO.wallet,
      transactions: [{ compiled, orderKeys: [] }],
      lastValidBlockHeight,
    });
    const tx = VersionedTransaction.deserialize(compiled.transaction);
    tx.sign([DEMO_WALLET]);
    const signature = bs58.encode(tx.signatures[0]);
    // What a process killed right after recording leaves: Pending, its lease running for 1.5 s more.
    await a.store.executions.begin(
      {
        signature,
        requestId,
        messageHash: transactionMessageHash(compiled.message),
        lastValidBlockHeight: BigInt(lastValidBlockHeight),
        signedTransaction: tx.serialize(),
      },
      { sender: "a-process-that-died", leaseMs: 1_500 },
    );
    const before = proxy.calls("sendTransaction");
    const resumed = await b.orderEntry.resumePendingExecutions();
    expect(await resumed.settled).toEqual([expect.objectContaining({ signature, status: "Success", decidedBy: "chain" })]);
    expect(proxy.calls("sendTransaction") - before).toBe(1);
    expect(localnet.getAccount(to)?.lamports).toBe(3_000_000n);
  }, 120_000);
});
