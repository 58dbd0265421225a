// A keeper that stops between its trigger and the chain's verdict (the store says "triggered",
// the process is gone): the next keeper over the same database (PGlite on disk) and chain reports
// the truth and never sends another leg. Two windows: died right after the claim, before any
// send (the next keeper sends the same signed leg — the same signature — and it lands); died
// after the send (the next keeper only reads the verdict). The other leg never reaches the chain.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { seedDemo } from "../../src/localnet/demo-seed.js";
import { openStore } from "../../src/store/index.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { tokenBalance } from "./onchain-stack.js";
import { SOL, USDC, sign, startNonceTriggerStack } from "./nonce-trigger-stack.js";

const ONE_SOL = 1_000_000_000n;
let localnet: Localnet;
let dataDir: string;

describe.skipIf(!hasChainDir())("nonce orders across a keeper restart", () => {
  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, programsDir: join(CHAIN_DIR!, "programs"), accountsDir: join(CHAIN_DIR!, "accounts") });
    await seedDemo(localnet);
    dataDir = mkdtempSync(join(tmpdir(), "swapd-nonce-restart-"));
  }, 120_000);
  afterAll(async () => {
    await localnet?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const window of ["after the claim, before the send", "after the send, before the verdict"] as const) {
    test(`stopped ${window}: the next keeper reports the landed leg; the other leg never reaches the chain`, { timeout: 180_000 }, async () => {
      const first = await startNonceTriggerStack({ localnet, store: { dataDir } });
      const taker = Keypair.generate();
      localnet.airdrop(taker.publicKey, 5n * ONE_SOL);
      const price = BigInt((await first.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}`)).body.outAmount);
      const nonceAccount = await first.createNonceAccount(taker);
      const answer = await first.post("/trigger/v2/createOrder", {
        taker: taker.publicKey.toBase58(),
        inputMint: SOL,
        outputMint: USDC,
        amount: ONE_SOL.toString(),
        nonceAccount,
        kind: "oco",
        takeProfit: { price: ((Number(price) * 2) / 1e6).toFixed(6), minOutAmount: "2" },
        stopLoss: { price: (Number(price) / 2 / 1e6).toFixed(6), minOutAmount: "1" },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const created = answer.body;
      const signed = created.legs.map((l: any) => Buffer.from(sign(l.transaction, taker)).toString("base64"));
      expect((await first.post("/trigger/v2/arm", { orderId: created.orderId, signedTransactions: signed })).body.order.status).toBe("armed");
      // The keeper's claim, as its trigger records it before sending; then the process is gone.
      await first.nonce.close();
      expect(await first.store.transaction((s) => s.nonceOrders.trigger(created.orderId, 0, 0))).toBe(true);
      const [tpSignature, slSignature] = (await first.store.nonceOrders.find(created.orderId))!.legs.map((l) => l.signature!);
      if (window === "after the send, before the verdict") localnet.chain.sendTransaction(Buffer.from(signed[0], "base64"), { skipPreflight: true });
      await first.close();

      const second = await startNonceTriggerStack({ localnet, store: { dataDir } });
      try {
        const done = await second.waitForOrder(taker.publicKey.toBase58(), created.orderId, (o) => o.status !== "triggered", 60_000);
        expect(done.status, JSON.stringify(done)).toBe("landed");
        const received = tokenBalance(localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
        expect(received).toBeGreaterThan(0n);
        expect(BigInt(done.legs[0].outAmount)).toBe(received);
        expect(done.legs[0].signature).toBe(tpSignature);
        expect(localnet.chain.getRecord(tpSignature)?.err).toBeNull();
        expect(localnet.chain.getRecord(slSignature)).toBeUndefined();
        expect(done.legs[1].status).toBe("voided");
      } finally {
        await second.close();
      }
      // The store on disk says the same after the restart.
      const reopened = await openStore({ dataDir });
      expect((await reopened.nonceOrders.find(created.orderId))!.status).toBe("landed");
      await reopened.close();
    });
  }
});
