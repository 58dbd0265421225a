// Issue #46's must-show on the real Jupiter v6 and Raydium CP programs (SWAPD_CHAIN_DIR), through
// the real service (buildApp, live state on): an OTOCO (the entry lands, then the stop-loss; the
// take-profit is refused by the chain), a DCA of 3 time-based rounds landing on schedule, a
// price-band round that waits outside its band, an expired order whose legs the answer's cancel
// voids on chain, and a stop priced in USDC on a pair without USDC (TKN → SOL) that fires when only
// SOL's dollar price moves. Every amount is read from the chain.
import { getAssociatedTokenAddressSync, NATIVE_MINT } from "@solana/spl-token";
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { tokenBalance } from "./onchain-stack.js";
import { b64, ONE_SOL, sign, SOL, startNonceChain, startNonceService, USDC } from "./nonce-service.js";
import type { NonceChain, NonceService } from "./nonce-service.js";

/** A raw amount as decimal text of `decimals` places. */
function ui(raw: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  return `${raw / scale}.${(raw % scale).toString().padStart(decimals, "0")}`;
}

let tkn: LocalMint;

describe.skipIf(!hasChainDir())("OTOCO, DCA, expiry and USD prices without custody", () => {
  let chain: NonceChain;
  let svc: NonceService;
  let whale: Keypair;

  beforeAll(async () => {
    chain = await startNonceChain([
      (localnet) => {
        tkn = writeMint(localnet, "swapd groups test TKN", 6);
        // 1,000,000 TKN against 100 SOL: 1 TKN = 0.0001 SOL (≈ 0.015 USDC through the demo SOL/USDC pool).
        writeCpPool(localnet, {
          x: tkn,
          y: { address: NATIVE_MINT, decimals: 9 },
          reserveX: 1_000_000n * 1_000_000n,
          reserveY: 100n * ONE_SOL,
          configIndex: 0,
        });
      },
    ]);
    svc = await startNonceService(chain, {
      NONCE_DCA_MIN_INTERVAL_S: "2",
      NONCE_KEEPER_REFRESH_MS: "300",
      INTERMEDIATE_TOKENS: `${SOL},${USDC}`,
    });
    whale = chain.funded(2_000n);
  }, 180_000);
  afterAll(async () => {
    await svc?.close();
    await chain?.close();
  });

  const ok = (what: string, answer: { status: number; body: any }) => {
    if (answer.status !== 200) {
      const errors = svc.logs.lines
        .filter((l: any) => l.level === "error")
        .slice(-2)
        .map((l: any) => l.err?.message ?? l.msg);
      throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)} ${JSON.stringify(errors)}`);
    }
    return answer.body;
  };

  /** Creates the request's nonce accounts (through CreateOrder without them), then the orders; signs every leg. */
  async function createSigned(taker: Keypair, request: Record<string, unknown>) {
    const body = { taker: taker.publicKey.toBase58(), ...request };
    const nonces = ok("createOrder (nonces)", await svc.post("/trigger/v2/createOrder", body));
    for (const tx of nonces.nonceAccountTransactions) chain.send(sign(tx, taker));
    const created = ok("createOrder", await svc.post("/trigger/v2/createOrder", { ...body, nonceAccounts: nonces.nonceAccounts }));
    const signed = created.legs.map((l: any) => sign(l.transaction, taker)) as Uint8Array[];
    return { created, signed };
  }

  /** createSigned, then Arm. */
  async function createAndArm(taker: Keypair, request: Record<string, unknown>) {
    const { created, signed } = await createSigned(taker, request);
    const armed = ok("arm", await svc.post("/trigger/v2/arm", { orderId: created.orderId, signedTransactions: signed.map(b64) }));
    return { created, signed, armed };
  }

  async function groupOf(taker: Keypair, groupId: string): Promise<any[]> {
    const listed = ok("orders", await svc.get(`/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`));
    // In the group's order: each order names the one it comes after.
    const members = listed.orders.filter((o: any) => o.groupId === groupId);
    const chained: any[] = [];
    for (let next = members.find((o: any) => o.afterOrderId === null); next !== undefined;) {
      chained.push(next);
      next = members.find((o: any) => o.afterOrderId === next.orderId);
    }
    return chained;
  }

  async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test("OTOCO: the entry buys when SOL falls; then the stop-loss sells what it bought and the take-profit is refused by the chain", async () => {
    const taker = chain.funded(5n);
    await svc.swapAs(taker, SOL, USDC, 2n * ONE_SOL);
    const p0 = await svc.solPrice(); // raw USDC per 1 SOL
    const spend = 100_000_000n; // 100 USDC
    // Entry: 100 USDC buys at least what they fetch at 95 % of today's SOL price.
    const entryLamports = (spend * ONE_SOL * 100n) / (p0 * 95n);
    const entryFloor = (entryLamports * 98n) / 100n;
    const tpPrice = (p0 * 95n * 110n) / 10_000n;
    const slPrice = (p0 * 90n) / 100n;
    const { created, signed } = await createAndArm(taker, {
      inputMint: USDC,
      outputMint: SOL,
      amount: spend.toString(),
      kind: "otoco",
      entry: { price: ui((entryLamports * 1_000_000n) / spend, 9), minOutAmount: entryFloor.toString() },
      takeProfit: { price: ui(tpPrice, 6), minOutAmount: ((tpPrice * entryFloor * 99n) / (100n * ONE_SOL)).toString() },
      stopLoss: { price: ui(slPrice, 6), minOutAmount: ((slPrice * entryFloor * 80n) / (100n * ONE_SOL)).toString() },
    });
    const [entryLeg, tpLeg, slLeg] = created.legs;
    expect([entryLeg.kind, tpLeg.kind, slLeg.kind]).toEqual(["entry", "take_profit", "stop_loss"]);
    expect(tpLeg.amount).toBe(entryFloor.toString()); // the OCO sells the entry's floor
    expect(new Set(created.legs.map((l: any) => l.nonceAccount)).size).toBe(2);

    // SOL drops ~7.5 %: the entry fires and lands; the OCO is only armed (the price is between its triggers).
    await svc.swapAs(whale, SOL, USDC, 40n * ONE_SOL);
    const afterEntry = await waitFor("the entry landed", async () => {
      const group = await groupOf(taker, created.orderId);
      return group[0]?.status === "landed" ? group : undefined;
    });
    expect(BigInt(afterEntry[0].legs[0].outAmount)).toBeGreaterThanOrEqual(entryFloor);
    expect(afterEntry[1].status).toBe("armed");

    // SOL drops below the stop: the stop-loss lands; the take-profit's signed leg can no longer land.
    const usdcBefore = chain.usdcOf(taker.publicKey);
    await svc.swapAs(whale, SOL, USDC, 40n * ONE_SOL);
    const oco = await waitFor("the OCO landed", async () => {
      const o = (await groupOf(taker, created.orderId))[1];
      return o?.status === "landed" || o?.status === "failed" ? o : undefined;
    });
    expect(oco.status).toBe("landed");
    const landedLeg = oco.legs.find((l: any) => l.status === "landed");
    expect(landedLeg.kind).toBe("stop_loss");
    expect(chain.usdcOf(taker.publicKey) - usdcBefore).toBe(BigInt(landedLeg.outAmount));
    expect(BigInt(landedLeg.outAmount)).toBeGreaterThanOrEqual(BigInt(slLeg.minOutAmount));
    expect(() => chain.send(signed[1])).toThrow(); // the take-profit: its nonce moved
  }, 180_000);

  test("DCA: 3 time-based rounds land on schedule, each paying at least its floor", async () => {
    const taker = chain.funded(3n);
    const p = await svc.solPrice();
    const start = Math.ceil(Date.now() / 1000) + 3;
    const every = 5;
    const { created } = await createAndArm(taker, {
      inputMint: SOL,
      outputMint: USDC,
      amount: ((3n * ONE_SOL) / 10n).toString(),
      kind: "dca",
      dca: { rounds: 3, intervalSeconds: every, startAt: start, minOutAmount: ((p * 50n) / 1000n).toString() },
    });
    expect(created.legs.map((l: any) => l.notBefore)).toEqual([start, start + every, start + 2 * every]);
    const usdcBefore = chain.usdcOf(taker.publicKey);
    const rounds = await waitFor("3 rounds landed", async () => {
      const group = await groupOf(taker, created.orderId);
      return group.length === 3 && group.every((o) => o.status !== "armed" && o.status !== "triggered") ? group : undefined;
    });
    expect(rounds.map((o) => o.status)).toEqual(["landed", "landed", "landed"]);
    const outs = rounds.map((o) => BigInt(o.legs[0].outAmount));
    expect(chain.usdcOf(taker.publicKey) - usdcBefore).toBe(outs.reduce((a, b) => a + b, 0n));
    const late = rounds.map((o, i) => Date.parse(o.triggeredAt) / 1000 - (start + every * i));
    console.log(`seconds from each round's due time to its trigger: ${late.map((s) => s.toFixed(2)).join(", ")}`);
    rounds.forEach((o, i) => {
      expect(late[i]).toBeGreaterThanOrEqual(0); // never before its time
      expect(late[i]).toBeLessThan(every); // and within the interval after it
      expect(BigInt(o.legs[0].inAmount)).toBe(ONE_SOL / 10n);
    });
  }, 150_000);

  test("DCA with a price band: a due round waits while the price is outside the band, and lands once it is inside", async () => {
    const taker = chain.funded(2n);
    const p = await svc.solPrice();
    const { created } = await createAndArm(taker, {
      inputMint: SOL,
      outputMint: USDC,
      amount: (ONE_SOL / 10n).toString(),
      kind: "dca",
      // Sell only while 1 SOL fetches at most 97 % of today's price.
      dca: { rounds: 2, intervalSeconds: 2, maxPrice: ui((p * 97n) / 100n, 6), minOutAmount: ((p * 20n) / 1000n).toString() },
    });
    await new Promise((r) => setTimeout(r, 4_000)); // both rounds due by now
    const waiting = await groupOf(taker, created.orderId);
    expect(waiting.map((o) => o.status)).toEqual(["armed", "armed"]);
    expect(waiting[0].legs[0].status).toBe("armed");
    await svc.swapAs(whale, SOL, USDC, 60n * ONE_SOL); // SOL falls into the band
    const landed = await waitFor("both band rounds landed", async () => {
      const group = await groupOf(taker, created.orderId);
      return group.every((o) => o.status === "landed") ? group : undefined;
    });
    for (const o of landed) expect(BigInt(o.legs[0].outAmount)).toBeGreaterThanOrEqual(BigInt(o.legs[0].minOutAmount));
  }, 120_000);

  test("an edit: the new stop armed and the old one cancelled in one step; the old leg is refused by the chain, the new one lands", async () => {
    const taker = chain.funded(2n);
    const p = await svc.solPrice();
    const stopOf = (pct: bigint) => ({
      inputMint: SOL,
      outputMint: USDC,
      amount: (ONE_SOL / 10n).toString(),
      kind: "single",
      stopLoss: { price: ui((p * pct) / 100n, 6), minOutAmount: ((p * (pct - 10n)) / 1000n).toString() },
    });
    const old = await createAndArm(taker, stopOf(50n));
    const edit = await createSigned(taker, stopOf(97n));
    expect(edit.created.nonceAccount).not.toBe(old.created.nonceAccount);
    const cancel = ok("cancelOrder", await svc.post("/trigger/v2/cancelOrder", { orderId: old.created.orderId })).transaction;
    const armBody = { orderId: edit.created.orderId, signedTransactions: edit.signed.map(b64), replacesOrderId: old.created.orderId };
    const missing = await svc.post("/trigger/v2/arm", armBody);
    expect([missing.status, missing.body.error]).toEqual([400, expect.stringMatching(/^replacedCancel: is required/)]);
    const armed = ok("arm (edit)", await svc.post("/trigger/v2/arm", { ...armBody, replacedCancel: b64(sign(cancel, taker)) }));
    expect([armed.order.status, armed.replaced.orderId, armed.replaced.cancelRequested]).toEqual(["armed", old.created.orderId, true]);
    const listed = async () => (await svc.get(`/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).body.orders;
    await waitFor("the old order cancelled on chain", async () =>
      (await listed()).find((o: any) => o.orderId === old.created.orderId)?.status === "cancelled" ? true : undefined,
    );
    expect(() => chain.send(old.signed[0])).toThrow(); // the old stop's nonce moved
    await svc.swapAs(whale, SOL, USDC, 40n * ONE_SOL); // below the edited stop (97 %)
    const landed = await waitFor("the edited stop landed", async () => {
      const o = (await listed()).find((x: any) => x.orderId === edit.created.orderId);
      return o?.status === "landed" || o?.status === "failed" ? o : undefined;
    });
    expect(landed.status).toBe("landed");
    expect(BigInt(landed.legs[0].outAmount)).toBeGreaterThanOrEqual(BigInt(edit.created.legs[0].minOutAmount));
  }, 120_000);

  test("an expired order is not sent; the answer's cancel transaction voids its legs on chain", async () => {
    const taker = chain.funded(2n);
    const p = await svc.solPrice();
    const { created, signed } = await createAndArm(taker, {
      inputMint: SOL,
      outputMint: USDC,
      amount: (ONE_SOL / 10n).toString(),
      kind: "single",
      takeProfit: { price: ui((p * 300n) / 100n, 6), minOutAmount: "1" },
      expiresAt: Math.ceil(Date.now() / 1000) + 3,
    });
    expect(created.cancelTransaction).toEqual(expect.any(String));
    const expired = await waitFor("the order expired", async () => {
      const [o] = (await svc.get(`/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).body.orders;
      return o?.status === "expired" ? o : undefined;
    });
    expect(expired.note).toMatch(/cancel transaction/);
    expect(expired.legs.map((l: any) => l.status)).toEqual(["expired"]);
    chain.send(sign(created.cancelTransaction, taker)); // the taker voids the legs
    expect(() => chain.send(signed[0])).toThrow();
  }, 60_000);

  test("a stop priced in USDC on TKN → SOL fires when SOL's dollar price falls, TKN/SOL unchanged", async () => {
    const taker = chain.funded(3n);
    await svc.swapAs(taker, SOL, tkn.address.toBase58(), ONE_SOL);
    const held = tokenBalance(chain.localnet, getAssociatedTokenAddressSync(tkn.address, taker.publicKey));
    const usdNow = BigInt(ok("quote", await svc.get(`/swap/v1/quote?inputMint=${tkn.address.toBase58()}&outputMint=${USDC}&amount=${held}`)).outAmount);
    const solNow = BigInt(ok("quote", await svc.get(`/swap/v1/quote?inputMint=${tkn.address.toBase58()}&outputMint=${SOL}&amount=${held}`)).outAmount);
    const stopUsd = (usdNow * 93n) / 100n; // USDC for the whole amount
    const { created } = await createAndArm(taker, {
      inputMint: tkn.address.toBase58(),
      outputMint: SOL,
      amount: held.toString(),
      kind: "single",
      priceMint: USDC,
      stopLoss: { price: ui((stopUsd * 1_000_000n) / held, 6), minOutAmount: ((solNow * 90n) / 100n).toString() },
    });
    expect(created.pricedBy).toMatchObject({ inputMint: tkn.address.toBase58(), outputMint: USDC });
    expect(BigInt(created.pricedBy.outAmount)).toBe(usdNow);
    const solBefore = chain.localnet.chain.getAccount(taker.publicKey)!.lamports;
    await svc.swapAs(whale, SOL, USDC, 120n * ONE_SOL); // SOL (and so TKN in dollars) falls; the TKN/SOL pool is untouched
    const landed = await waitFor("the USD stop landed", async () => {
      const [o] = (await svc.get(`/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).body.orders;
      return o?.status === "landed" || o?.status === "failed" ? o : undefined;
    });
    expect(landed.status).toBe("landed");
    const out = BigInt(landed.legs[0].outAmount);
    expect(out).toBeGreaterThanOrEqual((solNow * 90n) / 100n);
    // The taker received the SOL (less the leg's fee, paid by the taker as fee payer).
    expect(chain.localnet.chain.getAccount(taker.publicKey)!.lamports - solBefore).toBeGreaterThan(out - 100_000n);
    expect(tokenBalance(chain.localnet, getAssociatedTokenAddressSync(tkn.address, taker.publicKey))).toBe(0n);
  }, 120_000);
});
