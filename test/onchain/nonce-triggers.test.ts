// Non-custodial trigger orders on a durable nonce, executed on the real Jupiter v6 and Raydium CP
// programs (SWAPD_CHAIN_DIR) against the demo SOL/USDC pool: another wallet's swaps move the pool
// past a trigger; the keeper's leg lands and pays at least its floor (balances read from the
// chain); the other leg of an OCO is refused by the chain when sent afterwards.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { tokenBalance } from "./onchain-stack.js";
import { SOL, USDC, sign, startNonceTriggerStack } from "./nonce-trigger-stack.js";
import type { NonceTriggerStack } from "./nonce-trigger-stack.js";

let stack: NonceTriggerStack;

const ONE_SOL = 1_000_000_000n;

function funded(sol: bigint): Keypair {
  const wallet = Keypair.generate();
  stack.localnet.airdrop(wallet.publicKey, sol * ONE_SOL);
  return wallet;
}

/** What 1 SOL fetches now, in raw USDC (the service's own quote). */
async function solPrice(): Promise<bigint> {
  const q = await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}`);
  return BigInt(q.body.outAmount);
}

const usdc = (raw: bigint) => (Number(raw) / 1e6).toFixed(6);

async function armed(taker: Keypair, body: Record<string, unknown>) {
  const nonceAccount = await stack.createNonceAccount(taker);
  const created = await stack.post("/trigger/v2/createOrder", {
    taker: taker.publicKey.toBase58(),
    inputMint: SOL,
    outputMint: USDC,
    amount: ONE_SOL.toString(),
    nonceAccount,
    ...body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const signed = created.body.legs.map((l: any) => Buffer.from(sign(l.transaction, taker)).toString("base64"));
  const arm = await stack.post("/trigger/v2/arm", { orderId: created.body.orderId, signedTransactions: signed });
  expect(arm.status, JSON.stringify(arm.body)).toBe(200);
  expect(arm.body.order.status).toBe("armed");
  return { created: created.body, signed: signed as string[], nonceAccount };
}

describe.skipIf(!hasChainDir())("nonce orders on the real programs", () => {
  beforeAll(async () => {
    stack = await startNonceTriggerStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  test(
    "OCO: the pool rises past the take-profit; the take-profit leg lands and pays at least its floor; the stop-loss leg is refused by the chain",
    { timeout: 120_000 },
    async () => {
      const whale = funded(400n);
      // The whale first sells SOL (to hold USDC to buy back with later).
      await stack.swapAs(whale, SOL, USDC, 100n * ONE_SOL);
      const taker = funded(5n);
      const p0 = await solPrice();
      const tp = (p0 * 102n) / 100n;
      const sl = (p0 * 90n) / 100n;
      const tpFloor = (tp * 99n) / 100n;
      const slFloor = (sl * 95n) / 100n;
      const { created, signed } = await armed(taker, {
        kind: "oco",
        takeProfit: { price: usdc(tp), minOutAmount: tpFloor.toString() },
        stopLoss: { price: usdc(sl), minOutAmount: slFloor.toString() },
      });
      expect(created.legs.map((l: any) => l.kind)).toEqual(["take_profit", "stop_loss"]);
      const solBefore = stack.localnet.chain.getAccount(taker.publicKey)!.lamports;

      // Another wallet buys SOL back with its USDC: the price rises past the take-profit.
      const whaleUsdc = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), whale.publicKey));
      await stack.swapAs(whale, USDC, SOL, whaleUsdc);
      expect(await solPrice()).toBeGreaterThanOrEqual(tp);

      const done = await stack.waitForOrder(taker.publicKey.toBase58(), created.orderId, (o) => o.status !== "armed" && o.status !== "triggered");
      expect(done.status, JSON.stringify(done)).toBe("landed");
      const landed = done.legs.find((l: any) => l.status === "landed");
      expect(landed.kind).toBe("take_profit");
      const received = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
      expect(received).toBeGreaterThanOrEqual(tpFloor);
      expect(BigInt(landed.outAmount)).toBe(received);
      expect(BigInt(landed.inAmount)).toBe(ONE_SOL);
      const record = stack.localnet.chain.getRecord(landed.signature)!;
      expect(record.err).toBeNull();
      expect(BigInt(landed.slot)).toBe(BigInt(record.slot));
      expect(done.legs.find((l: any) => l.kind === "stop_loss").status).toBe("voided");

      // The stop-loss leg, sent now, is refused by the chain (its nonce moved): nothing more leaves the taker.
      const solAfter = stack.localnet.chain.getAccount(taker.publicKey)!.lamports;
      expect(solBefore - solAfter).toBeGreaterThanOrEqual(ONE_SOL);
      await expect(stack.chain.sendTransaction(Buffer.from(signed[1], "base64"))).rejects.toThrow(/Blockhash not found/i);
      await expect(stack.chain.sendTransaction(Buffer.from(signed[1], "base64"), { skipPreflight: true })).rejects.toThrow(/Blockhash not found/i);
      expect(stack.localnet.chain.getAccount(taker.publicKey)!.lamports).toBe(solAfter);
      expect(tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey))).toBe(received);
    },
  );

  test("stop-loss: the pool falls past the stop; the leg lands and pays at least its floor", { timeout: 120_000 }, async () => {
    const whale = funded(400n);
    const taker = funded(5n);
    const p0 = await solPrice();
    const stop = (p0 * 95n) / 100n;
    const floor = (stop * 90n) / 100n;
    const { created } = await armed(taker, { kind: "single", stopLoss: { price: usdc(stop), minOutAmount: floor.toString() } });
    // Not yet: the price holds above the stop.
    expect((await stack.get(`/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).body.orders[0].status).toBe("armed");
    await stack.swapAs(whale, SOL, USDC, 80n * ONE_SOL);
    expect(await solPrice()).toBeLessThanOrEqual(stop);
    const done = await stack.waitForOrder(taker.publicKey.toBase58(), created.orderId, (o) => o.status !== "armed" && o.status !== "triggered");
    expect(done.status, JSON.stringify(done)).toBe("landed");
    const received = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
    expect(received).toBeGreaterThanOrEqual(floor);
    expect(BigInt(done.legs[0].outAmount)).toBe(received);
    expect(stack.localnet.chain.getRecord(done.legs[0].signature)?.err).toBeNull();
  });

  test("trailing stop: a rise raises the peak (no fire), a fall of more than the trail from the peak fires it", { timeout: 120_000 }, async () => {
    const whale = funded(400n);
    await stack.swapAs(whale, SOL, USDC, 100n * ONE_SOL);
    const taker = funded(5n);
    const p0 = await solPrice();
    const floor = (p0 * 80n) / 100n;
    const { created } = await armed(taker, { kind: "trailing", trailing: { trailBps: 500, minOutAmount: floor.toString() } });
    const owner = taker.publicKey.toBase58();
    const start = BigInt((await stack.waitForOrder(owner, created.orderId, (o) => o.peakOutAmount !== null)).peakOutAmount);

    // A rise of ~10 %: the peak follows, the order stays armed.
    const whaleUsdc = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), whale.publicKey));
    await stack.swapAs(whale, USDC, SOL, whaleUsdc / 2n);
    const risen = await solPrice();
    expect(risen).toBeGreaterThan((start * 105n) / 100n);
    const peaked = await stack.waitForOrder(owner, created.orderId, (o) => BigInt(o.peakOutAmount) >= (risen * 99n) / 100n);
    expect(peaked.status).toBe("armed");
    // A fall to under 95 % of the peak (but still above the price at arming): it fires.
    await stack.swapAs(whale, SOL, USDC, 40n * ONE_SOL);
    const fallen = await solPrice();
    expect(fallen * 100n).toBeLessThan(BigInt(peaked.peakOutAmount) * 95n);
    const done = await stack.waitForOrder(owner, created.orderId, (o) => o.status !== "armed" && o.status !== "triggered");
    expect(done.status, JSON.stringify(done)).toBe("landed");
    const received = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
    expect(received).toBeGreaterThanOrEqual(floor);
    expect(BigInt(done.legs[0].outAmount)).toBe(received);
  });

  test("cancel: the taker signs the nonce advance; the armed order is reported cancelled and its legs can no longer land", { timeout: 120_000 }, async () => {
    const taker = funded(5n);
    const p0 = await solPrice();
    const { created, signed, nonceAccount } = await armed(taker, {
      kind: "oco",
      takeProfit: { price: usdc(p0 * 2n), minOutAmount: p0.toString() },
      stopLoss: { price: usdc(p0 / 2n), minOutAmount: (p0 / 4n).toString() },
    });
    const owner = taker.publicKey.toBase58();
    // A nonce cannot advance within the blockhash it was made in: a slot passes (one transaction on the embedded chain).
    stack.localnet.airdrop(Keypair.generate().publicKey, ONE_SOL);
    const wrongTaker = await stack.post("/trigger/v2/cancelOrder", { orderId: created.orderId, taker: Keypair.generate().publicKey.toBase58() });
    expect(wrongTaker.status).toBe(400);
    expect(wrongTaker.body.error).toBe("taker: is not this order's taker");
    // Without the taker's signature: the transaction to sign, and nothing changes.
    const asked = await stack.post("/trigger/v2/cancelOrder", { orderId: created.orderId });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect([asked.body.order.cancelRequested, asked.body.signature]).toEqual([false, null]);
    expect((await stack.store.nonceOrders.find(created.orderId))!.cancelRequested).toBe(false);
    // The cancel is a durable-nonce transaction on the order's nonce: its value as blockhash, AdvanceNonceAccount alone.
    const unsigned = VersionedTransaction.deserialize(Buffer.from(asked.body.transaction, "base64"));
    expect(unsigned.message.recentBlockhash).toBe(stack.nonceValue(nonceAccount));
    expect(unsigned.message.compiledInstructions).toHaveLength(1);
    const nonceBefore = stack.nonceValue(nonceAccount);
    const cancel = await stack.post("/trigger/v2/cancelOrder", {
      orderId: created.orderId,
      signedTransaction: Buffer.from(sign(asked.body.transaction, taker)).toString("base64"),
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.order.cancelRequested).toBe(true);
    expect(cancel.body.order.cancelSignature).toBe(cancel.body.signature);
    // swapd sends the taker's advance itself: the nonce moves without the taker sending anything.
    const done = await stack.waitForOrder(owner, created.orderId, (o) => o.status !== "armed");
    expect(stack.nonceValue(nonceAccount)).not.toBe(nonceBefore);
    expect(stack.localnet.chain.getRecord(cancel.body.signature)?.err).toBeNull();
    expect(done.status).toBe("cancelled");
    expect(done.legs.map((l: any) => l.status)).toEqual(["cancelled", "cancelled"]);
    for (const leg of signed) {
      await expect(stack.chain.sendTransaction(Buffer.from(leg, "base64"), { skipPreflight: true })).rejects.toThrow(/Blockhash not found/i);
    }
    expect(tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey))).toBe(0n);
  });

  test("bad input: each refused with the field and the rule, and nothing stored", { timeout: 120_000 }, async () => {
    const taker = funded(5n);
    const other = funded(5n);
    const owner = taker.publicKey.toBase58();
    const p0 = await solPrice();
    const theirNonce = await stack.createNonceAccount(other);
    const myNonce = await stack.createNonceAccount(taker);
    const base = { taker: owner, inputMint: SOL, outputMint: USDC, amount: ONE_SOL.toString(), kind: "single" };
    const tpAbove = { price: usdc((p0 * 11n) / 10n), minOutAmount: p0.toString() };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, nonceAccount: theirNonce, takeProfit: tpAbove }, /^nonceAccount: must have the taker .* as its nonce authority/],
      [{ ...base, nonceAccount: owner, takeProfit: tpAbove }, /^nonceAccount: .* is not an initialized nonce account/],
      [
        { ...base, nonceAccount: myNonce, takeProfit: { price: usdc((p0 * 9n) / 10n), minOutAmount: "1" } },
        /^takeProfit\.price: must be above the current price/,
      ],
      [{ ...base, nonceAccount: myNonce, stopLoss: { price: usdc((p0 * 11n) / 10n), minOutAmount: "1" } }, /^stopLoss\.price: must be below the current price/],
      [
        { ...base, nonceAccount: myNonce, takeProfit: { price: usdc((p0 * 11n) / 10n), minOutAmount: ((p0 * 12n) / 10n).toString() } },
        /^takeProfit\.minOutAmount: must not exceed the trigger's output amount/,
      ],
      [{ ...base, nonceAccount: myNonce, kind: "oco", takeProfit: tpAbove }, /^stopLoss: is required/],
      [{ ...base, nonceAccount: myNonce, kind: "trailing", trailing: { minOutAmount: "1" } }, /^trailing\.trailBps: is required/],
    ];
    for (const [body, message] of cases) {
      const answer = await stack.post("/trigger/v2/createOrder", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatch(message);
    }
    expect((await stack.get(`/trigger/v2/orders?taker=${owner}`)).body.orders).toEqual([]);
    // The same over Connect (proto JSON names): INVALID_ARGUMENT naming the field.
    const connect = await stack.post("/swapd.trigger.v2.NonceTriggerService/CreateOrder", { ...base, nonceAccount: theirNonce, takeProfit: tpAbove });
    expect(connect.status).toBe(400);
    expect(connect.body.code).toBe("invalid_argument");
    expect(connect.body.message).toMatch(/^nonceAccount: must have the taker/);
    expect((await stack.post("/swapd.trigger.v2.NonceTriggerService/GetOrders", { taker: owner })).body.orders ?? []).toEqual([]);

    // Arming: a leg signed by someone else; an amount the taker does not hold.
    const created = (
      await stack.post("/trigger/v2/createOrder", {
        ...base,
        nonceAccount: myNonce,
        amount: (10n * ONE_SOL).toString(),
        takeProfit: { price: usdc((p0 * 11n) / 10n), minOutAmount: "1" },
      })
    ).body;
    // The same leg with another fee payer, signed by it.
    const forged = VersionedTransaction.deserialize(Buffer.from(created.legs[0].transaction, "base64"));
    forged.message.staticAccountKeys[0] = other.publicKey;
    const byOtherTx = new VersionedTransaction(forged.message);
    byOtherTx.sign([other]);
    const byOther = await stack.post("/trigger/v2/arm", {
      orderId: created.orderId,
      signedTransactions: [Buffer.from(byOtherTx.serialize()).toString("base64")],
    });
    expect(byOther.status).toBe(400);
    expect(byOther.body.error).toBe("signedTransactions[0]: must be signed by the order's taker alone (the fee payer and only signer)");
    expect(byOther.body.error).not.toContain(owner); // an error never names an order's taker
    const poor = await stack.post("/trigger/v2/arm", {
      orderId: created.orderId,
      signedTransactions: [Buffer.from(sign(created.legs[0].transaction, taker)).toString("base64")],
    });
    expect(poor.status).toBe(400);
    expect(poor.body.error).toMatch(/^amount: the taker holds \d+ of So111+2, less than the order's 10000000000/);
    // Still issued (nothing stored by the refusals), and listed nowhere: nobody signed anything for it.
    const stored = await stack.store.nonceOrders.find(created.orderId);
    expect([stored!.status, stored!.legs[0].signedTransaction]).toEqual(["issued", null]);
    expect((await stack.get(`/trigger/v2/orders?taker=${owner}`)).body.orders).toEqual([]);
    expect((await stack.post("/swapd.trigger.v2.NonceTriggerService/GetOrders", { taker: owner })).body.orders ?? []).toEqual([]);
  });
});
