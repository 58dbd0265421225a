// Issue #44's must-show, across replicas: two swapd processes (src/main.ts) on one real PostgreSQL
// schema, the real Jupiter v6 and Raydium CP programs (SWAPD_CHAIN_DIR) behind a real proxy that can
// hold chosen sends; one leads (advisory lock) and runs the keeper.
//
// - A cancel answered by the follower holds on the leader at once: the price falls through the stop
//   right after the follower's answer, while the leader's copy of the order does not know of the
//   cancel yet (its refresh is 2 s); the claim that would fire the leg refuses the cancel-requested
//   order in the same statement, so no leg is sent.
// - The leader killed (SIGKILL) between the trigger and the confirmation: its leg's send was
//   forwarded to the chain and its answer held, so it landed unseen. The follower takes the lead,
//   reads the chain and reports the order landed with the amounts the chain moved: across both
//   replicas the leg was sent once and landed once.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, NonceAccount, PublicKey } from "@solana/web3.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { until } from "../fixtures/until.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSendHoldingRpcProxy, type SendHoldingRpcProxy } from "../fixtures/send-holding-rpc-proxy.js";
import { b64, call, ONE_SOL, sign, signatureOf, SOL } from "./nonce-service.js";
import { tokenBalance } from "./onchain-stack.js";

const USDC = DEMO.usdcMint.toBase58();
const available = hasChainDir() && (await postgresAvailable());
const schema = `swapd_nonce_replicas_${randomBytes(6).toString("hex")}`;
const usdc = (raw: bigint) => (Number(raw) / 1e6).toFixed(6);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!available)("nonce orders on two replicas", () => {
  let localnet: Localnet;
  let proxy: SendHoldingRpcProxy;
  let direct: pg.Client;
  let replicas: SwapdProcess[] = [];
  const leads = (p: SwapdProcess) => p.lines.filter((l) => l["msg"] === "became leader" || l["msg"] === "no longer leader").at(-1)?.["msg"] === "became leader";
  const leader = () => replicas.find((r) => r.alive() && leads(r));
  const follower = () => replicas.find((r) => r.alive() && !leads(r));

  const ok = async (p: SwapdProcess, method: "GET" | "POST", path: string, body?: unknown) => {
    const answer = await call(p.url, method, path, body);
    if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const send = (wire: Uint8Array) => localnet.chain.sendTransaction(wire, { skipPreflight: false }).signature;
  const nonceValue = (account: string) => NonceAccount.fromAccountData(Buffer.from(localnet.chain.getAccount(new PublicKey(account))!.data)).nonce;
  const usdcOf = (owner: PublicKey) => tokenBalance(localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), owner));
  const price = async (p: SwapdProcess) => BigInt((await ok(p, "GET", `/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}`)).outAmount);
  /** Another wallet sells SOL straight to the chain (built by `p`): the price falls. */
  const sellSol = async (p: SwapdProcess, whale: Keypair, amount: bigint) => {
    const order = await ok(
      p,
      "GET",
      `/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=${amount}&slippageBps=5000&taker=${whale.publicKey.toBase58()}`,
    );
    expect(localnet.chain.getRecord(send(sign(order.transaction, whale)))?.err).toBeNull();
  };
  /** A stop-loss of 1 SOL at 98 % of the price, armed through `p`. */
  const armStop = async (p: SwapdProcess) => {
    const taker = Keypair.generate();
    localnet.airdrop(taker.publicKey, 5n * ONE_SOL);
    const stop = ((await price(p)) * 98n) / 100n;
    const base = { taker: taker.publicKey.toBase58(), inputMint: SOL, outputMint: USDC, amount: ONE_SOL.toString(), kind: "single" };
    const legs = { stopLoss: { price: usdc(stop), minOutAmount: ((stop * 80n) / 100n).toString() } };
    const withNonce = await ok(p, "POST", "/trigger/v2/createOrder", { ...base, ...legs });
    send(sign(withNonce.nonceAccountTransaction, taker));
    const created = await ok(p, "POST", "/trigger/v2/createOrder", { ...base, ...legs, nonceAccount: withNonce.nonceAccount });
    const wire = sign(created.legs[0].transaction, taker);
    await ok(p, "POST", "/trigger/v2/arm", { orderId: created.orderId, signedTransactions: [b64(wire)] });
    return { taker, orderId: created.orderId as string, nonceAccount: withNonce.nonceAccount as string, wire, signature: signatureOf(wire), stop };
  };
  const orderOf = async (p: SwapdProcess, taker: Keypair, orderId: string) =>
    (await ok(p, "GET", `/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).orders.find((o: any) => o.orderId === orderId);

  beforeAll(async () => {
    direct = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await direct.connect();
    localnet = await startLocalnet({ port: 0, programsDir: join(CHAIN_DIR!, "programs"), accountsDir: join(CHAIN_DIR!, "accounts") });
    await seedDemo(localnet);
    proxy = await startSendHoldingRpcProxy(localnet.url);
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set("options", `-c search_path=${schema}`);
    const env = {
      DATABASE_URL: url.toString(),
      SOLANA_RPC_URL: proxy.url,
      SOLANA_WS_URL: localnet.websocketUrl,
      INTERMEDIATE_TOKENS: `${SOL},${USDC}`,
      LEADER_CHECK_MS: "300",
      CONFIRM_POLL_MS: "100",
      REBROADCAST_MS: "500",
      // A held send is never answered: the wait for it must outlast the test, not give up first.
      RPC_TIMEOUT_MS: "300000",
    };
    await direct.query(`CREATE SCHEMA "${schema}"`);
    // Side by side: the migrations are guarded by an advisory lock.
    replicas = await Promise.all([startSwapdProcess(env, 120_000), startSwapdProcess(env, 120_000)]);
    await until("a leader", () => leader());
  }, 300_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill("SIGKILL")));
    await proxy?.close();
    await localnet?.close();
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.end();
  });

  test("a cancel answered by the follower holds on the leader at once: the price falls right after, no leg is sent", { timeout: 120_000 }, async () => {
    expect(replicas.filter(leads)).toHaveLength(1);
    const whale = Keypair.generate();
    localnet.airdrop(whale.publicKey, 400n * ONE_SOL);
    const order = await armStop(leader()!);
    localnet.airdrop(Keypair.generate().publicKey, ONE_SOL); // a slot passes: the nonce may advance
    const cancelTx = (await ok(follower()!, "POST", "/trigger/v2/cancelOrder", { orderId: order.orderId })).transaction as string;
    const signedCancel = sign(cancelTx, order.taker);
    proxy.setRule(signatureOf(signedCancel), "hold"); // the nonce must not move: only the promise protects the taker
    const answer = await ok(follower()!, "POST", "/trigger/v2/cancelOrder", { orderId: order.orderId, signedTransaction: b64(signedCancel) });
    expect(answer.order.cancelRequested).toBe(true);
    await sellSol(follower()!, whale, 60n * ONE_SOL);
    expect(await price(leader()!)).toBeLessThan(order.stop);
    await sleep(2_500);
    expect(proxy.sendsOf(order.signature)).toEqual([]);
    expect(localnet.chain.getRecord(order.signature)).toBeUndefined();
    const now = await orderOf(leader()!, order.taker, order.orderId);
    expect([now.status, now.cancelRequested]).toEqual(["armed", true]);
    // The leader's keeper did fire on the move, from a copy that did not know of the cancel yet: the store refused its claim.
    const refused = leader()!.lines.find((l) => l["orderId"] === order.orderId && String(l["msg"]).startsWith("nonce order fired but not claimed"));
    expect(refused?.["cancelRequested"]).toBe(true);
    proxy.setRule(answer.signature, "pass");
    expect(
      (await until("cancelled", async () => ((await orderOf(leader()!, order.taker, order.orderId)).status === "cancelled" ? true : undefined))) === true,
    ).toBe(true);
  });

  test(
    "the leader killed between the trigger and the confirmation: the follower reports the landing; the leg was sent once and landed once",
    { timeout: 180_000 },
    async () => {
      const first = leader()!;
      const second = follower()!;
      const whale = Keypair.generate();
      localnet.airdrop(whale.publicKey, 400n * ONE_SOL);
      const order = await armStop(first);
      const usdcBefore = usdcOf(order.taker.publicKey);
      const nonceBefore = nonceValue(order.nonceAccount);
      proxy.setRule(order.signature, "forward-and-hold");
      await sellSol(second, whale, 60n * ONE_SOL);
      await until("the leg's send", () => (proxy.sendsOf(order.signature).length > 0 ? true : undefined));
      await until("the leg on the chain", () => localnet.chain.getRecord(order.signature));
      expect(localnet.chain.getRecord(order.signature)!.err).toBeNull();
      expect((await orderOf(second, order.taker, order.orderId)).status).toBe("triggered");

      await first.kill("SIGKILL");
      await until("the follower leads", () => (leads(second) ? true : undefined), 60_000);
      const done = await until(
        "the order's verdict",
        async () => {
          const o = await orderOf(second, order.taker, order.orderId);
          return o.status === "triggered" ? undefined : o;
        },
        60_000,
      );
      expect(done.status, JSON.stringify(done)).toBe("landed");
      const received = usdcOf(order.taker.publicKey) - usdcBefore;
      expect(BigInt(done.legs[0].outAmount)).toBe(received);
      expect(BigInt(done.legs[0].slot)).toBe(BigInt(localnet.chain.getRecord(order.signature)!.slot));
      // Sent once (by the first leader; forwarded), landed once; the new leader only read the chain.
      expect(proxy.sendsOf(order.signature).map((c) => c.forwarded)).toEqual([true]);
      expect(nonceValue(order.nonceAccount)).not.toBe(nonceBefore);
      await sleep(1_500);
      expect(proxy.sendsOf(order.signature)).toHaveLength(1);
    },
  );
});
