/**
 * The tracker against a real HTTP JSON-RPC server answering from fixtures: transactions in
 * getTransaction form whose event instructions are encoded with Anchor's BorshCoder over the IDL
 * (event discriminators from the IDL, Anchor's EVENT_IX_TAG). The scenario replays the real
 * Jupiter history example (trigger-getTriggerOrders-history.json): the same fills, signatures and
 * times must come back as the same records. The store is PGlite in a temp dir, closed and
 * reopened in the middle (a restart).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTriggerOrders } from "../../src/api/trigger/trigger-orders-listing.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { validateGetTriggerOrdersRequest } from "../../src/core/trigger/get-trigger-orders-request.js";
import { toJupiterOrderRecord } from "../../src/core/trigger/order-record.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/open-store.js";
import type { StoredOrder } from "../../src/store/order-store.js";
import { OrderChangeFeed } from "../../src/runtime/order-change-feed.js";
import type { OrderChange } from "../../src/runtime/order-change-feed.js";
import { OrderTracker } from "../../src/tracker/order-tracker.js";
import { runOrderTracker } from "../../src/tracker/run-order-tracker.js";
import { createLogger } from "../../src/server/logger.js";
import { createShutdown } from "../../src/runtime/shutdown.js";
import { startFixtureRpcServer } from "./fixtures/fixture-rpc-server.js";
import type { FixtureRpcServer } from "./fixtures/fixture-rpc-server.js";
import {
  EVENT_AUTHORITY,
  LO_V2,
  TOKEN,
  encodeOrderAccount,
  eventInstructionData,
  fakeSignature,
  idl,
  mintData,
  transactionJson,
  u64,
} from "./fixtures/limit-order-fixtures.js";

const realHistory = JSON.parse(readFileSync(new URL("../fixtures/reference/examples/trigger-getTriggerOrders-history.json", import.meta.url), "utf8")) as {
  user: string;
  orders: Record<string, unknown>[];
};

const WSOL = new PublicKey("So11111111111111111111111111111111111111112");
const PUMP = new PublicKey("6SUryVEuDz5hqAxab6QrGfbzWvjN8dC7m29ezSvDpump");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const MAKER = new PublicKey(realHistory.user);
const KEEPER_A = new PublicKey("j1oAbxxiDUWvoHxEDhWE7THLjEkDQW2cSHYn2vttxTF");
const KEEPER_B = new PublicKey("j1oeQoPeuEDmjvyMwBmCWexzCQup77kbKKxV59CnYbd");
const FEE_ACCOUNT = new PublicKey("HBp8qNLNgkqxBZzP6yPh3UMGXGATK9Bu6vGbUadmaPVK");
const ORDER_X = new PublicKey("5MimaBqTHHb6Pb5b1YHaq6V7Toa8F6qy6ZNyVuJcdann"); // 5 fills
const ORDER_D = new PublicKey("DFbtjb7ZZcgZfgADjRDeLTzChPmt3xM1doMRsyPviTqd"); // 1 fill
const OTHER_MAKER = Keypair.generate().publicKey;
const ORDER_Y = Keypair.generate().publicKey; // cancelled
const FILL_ORDER_DISCRIMINATOR = Buffer.from(idl.instructions.find((ix) => ix.name === "fill_order")!.discriminator);
const CANCEL_ORDER_DISCRIMINATOR = Buffer.from(idl.instructions.find((ix) => ix.name === "cancel_order")!.discriminator);

const at = (iso: string) => Date.parse(iso) / 1000;

interface Fill {
  readonly sig: string;
  readonly keeper: PublicKey;
  readonly making: bigint;
  readonly taking: bigint;
  readonly time: string;
}

// Order X's fills, oldest first (from the real example's trades, which are listed newest first).
const X_MAKING = 15_000_000_000n;
const X_TAKING = 468_750_000_000n;
const xFills: Fill[] = [
  {
    sig: "4s7NfjFCbabQAdr5iWJAB2VEa8Vs44Y8wQ3tFaedmoEPAzARSkYfQ2HViLvHS2zFZRotF9Yi3MzG9smFsUvbNFD9",
    keeper: KEEPER_A,
    making: 600_000_000n,
    taking: 18_750_000_000n,
    time: "2024-07-17T14:52:46Z",
  },
  {
    sig: "23qaoyoBnVeodSKrmHPT2M2J2aoUBVE33sYxQgBNd2uU26nFroE16yZxzQ7JaZcXXU52F1t6vJMEJHsvGuVnGGWu",
    keeper: KEEPER_B,
    making: 576_000_000n,
    taking: 18_000_000_000n,
    time: "2024-07-17T15:11:06Z",
  },
  {
    sig: "5Ru1zAnqMX56roxm6zpsiQGY5ojRfYri9XqtwqV8AeyGQt8xrt9rd9Wa46kFcgPVnDAvtdSfKJaLch4C4Pzh1Nkx",
    keeper: KEEPER_B,
    making: 576_000_000n,
    taking: 18_000_000_000n,
    time: "2024-07-17T15:11:06Z",
  },
  {
    sig: "3TNk59Br3nRWWisRy7N8owmCBkHhrqyzBZmzbmLNeuAJcbwBoR1Md4twjxXxMnViHVsytLGeRqUPq5fxzoTnfzv4",
    keeper: KEEPER_A,
    making: 2_649_600_000n,
    taking: 82_800_000_000n,
    time: "2024-07-17T15:13:31Z",
  },
  {
    sig: "2v2rG6jNNP4QhBzuE1VbWcnhTFbAtZfVdEWwTjKgdRdmudjizZsHNMC6kvPPXkkWf7GRbw2MFuH5bud8brDHKSz5",
    keeper: KEEPER_B,
    making: 10_598_400_000n,
    taking: 331_200_000_000n,
    time: "2024-07-17T15:37:24Z",
  },
];

let rpc: FixtureRpcServer;
let dataDir: string;
let store: Store;
let slot = 100;

function storedOrder(
  fields: Partial<StoredOrder> & Pick<StoredOrder, "orderKey" | "maker" | "inputMint" | "outputMint" | "rawMakingAmount" | "rawTakingAmount" | "createdAt">,
): StoredOrder {
  return {
    inputTokenProgram: TOKEN.toBase58(),
    outputTokenProgram: TOKEN.toBase58(),
    inputDecimals: null,
    outputDecimals: null,
    uniqueId: null,
    rawRemainingMakingAmount: fields.rawMakingAmount,
    rawRemainingTakingAmount: fields.rawTakingAmount,
    slippageBps: 0,
    feeBps: 10,
    feeAccount: FEE_ACCOUNT.toBase58(),
    expiredAt: null,
    status: "Open",
    openTx: "",
    closeTx: "",
    programId: LO_V2.toBase58(),
    updatedAt: fields.createdAt,
    ...fields,
  };
}

/** A transaction of the order: a top-level LO v2 instruction, and the event CPIs as its inner instructions. */
function addOrderTransaction(
  order: PublicKey,
  signer: PublicKey,
  sig: string,
  time: number,
  topLevelData: Buffer,
  events: { data: Buffer; viaEventAuthority?: boolean }[],
  options: { err?: unknown; programViaLookupTable?: boolean } = {},
) {
  // Keys: 0 signer, 1 maker/other, 2 order, 3 event authority, 4 token program, 5 LO v2 (static or looked up).
  const staticKeys = [signer, MAKER, order, EVENT_AUTHORITY, TOKEN, ...(options.programViaLookupTable ? [] : [LO_V2])];
  const extra = options.programViaLookupTable ? { loadedWritable: [Keypair.generate().publicKey], loadedReadonly: [LO_V2] } : {};
  const programIndex = options.programViaLookupTable ? 6 : 5;
  const json = transactionJson({
    signature: sig,
    slot: ++slot,
    blockTime: time,
    staticKeys,
    ...extra,
    instructions: [{ programIdIndex: programIndex, accounts: [0, 1, 2, 3], data: topLevelData }],
    inner: [
      {
        index: 0,
        instructions: [
          { programIdIndex: 4, accounts: [2, 1, 0], data: Buffer.from([3, 1, 0, 0, 0, 0, 0, 0, 0]) },
          ...events.map((e) => ({ programIdIndex: programIndex, accounts: [e.viaEventAuthority === false ? 1 : 3], data: e.data })),
        ],
      },
    ],
    ...(options.err === undefined ? {} : { err: options.err }),
  });
  rpc.addTransaction([order, signer], { signature: sig, slot, blockTime: time, err: options.err ?? null }, json);
}

function tradeEvent(order: PublicKey, fill: Fill, remainingMaking: bigint, remainingTaking: bigint): Buffer {
  return eventInstructionData("TradeEvent", {
    order_key: order,
    taker: fill.keeper,
    remaining_making_amount: u64(remainingMaking),
    remaining_taking_amount: u64(remainingTaking),
    making_amount: u64(fill.making),
    taking_amount: u64(fill.taking),
  });
}

function createEvent(order: PublicKey, maker: PublicKey, input: PublicKey, output: PublicKey, making: bigint, taking: bigint): Buffer {
  return eventInstructionData("CreateOrderEvent", {
    order_key: order,
    maker,
    input_mint: input,
    output_mint: output,
    input_token_program: TOKEN,
    output_token_program: TOKEN,
    making_amount: u64(making),
    taking_amount: u64(taking),
    expired_at: null,
    fee_bps: 10,
    fee_account: FEE_ACCOUNT,
    slippage_bps: 0,
  });
}

function fillData(amount: bigint): Buffer {
  const args = Buffer.alloc(12);
  args.writeBigUInt64LE(amount);
  return Buffer.concat([FILL_ORDER_DISCRIMINATOR, args]);
}

async function orderAccountWith(remainingMaking: bigint, remainingTaking: bigint, updatedAt: number) {
  return {
    owner: LO_V2,
    lamports: 3_048_480,
    data: await encodeOrderAccount({
      maker: MAKER,
      inputMint: WSOL,
      outputMint: PUMP,
      uniqueId: 5n,
      making: X_MAKING,
      taking: X_TAKING,
      remainingMaking,
      remainingTaking,
      feeBps: 10,
      feeAccount: FEE_ACCOUNT,
      createdAt: at("2024-07-17T13:35:53Z"),
      updatedAt,
    }),
  };
}

function newTracker(feed = new OrderChangeFeed()) {
  return new OrderTracker({ chain: new RpcSolanaChain({ url: rpc.url }), store, feed });
}

async function history(user: PublicKey, page = 1, includeFailedTx = false) {
  const request = validateGetTriggerOrdersRequest({
    user: user.toBase58(),
    orderStatus: "history",
    page: String(page),
    includeFailedTx: String(includeFailedTx),
  });
  const result = await listTriggerOrders({ chain: new RpcSolanaChain({ url: rpc.url }), store }, request);
  return { ...result, orders: result.orders.map(toJupiterOrderRecord) };
}

function withoutSlippage(record: object): Record<string, unknown> {
  const { slippageBps: _ignored, ...rest } = record as Record<string, unknown>;
  return rest;
}

beforeAll(async () => {
  rpc = await startFixtureRpcServer();
  rpc.setAccount(WSOL, { owner: TOKEN, lamports: 1, data: mintData(9) });
  rpc.setAccount(PUMP, { owner: TOKEN, lamports: 1, data: mintData(6) });
  rpc.setAccount(USDC, { owner: TOKEN, lamports: 1, data: mintData(6) });
  dataDir = mkdtempSync(join(tmpdir(), "swapd-tracker-"));
  store = await openStore({ dataDir });
});

afterAll(async () => {
  await store?.close();
  await rpc?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("order tracker (events from a real JSON-RPC server)", () => {
  it("reads an order's creation and first fills: partially filled, with the right trades", async () => {
    // X as CreateOrder through this service left it (creation tx not yet known); decimals unknown too.
    await store.orders.upsert(
      storedOrder({
        orderKey: ORDER_X.toBase58(),
        maker: MAKER.toBase58(),
        inputMint: WSOL.toBase58(),
        outputMint: PUMP.toBase58(),
        rawMakingAmount: X_MAKING,
        rawTakingAmount: X_TAKING,
        createdAt: new Date("2024-07-17T13:35:53Z"),
      }),
    );
    addOrderTransaction(
      ORDER_X,
      MAKER,
      "3KxqznfpCyzTUEuNWFvYu6hzgH1YieBp4ZqN2fkiievpoC5935gM16y8f92y3bUVNEF2uTrXJrrVasQWnTDfxPoF",
      at("2024-07-17T13:35:53Z"),
      Buffer.from(idl.instructions.find((ix) => ix.name === "initialize_order")!.discriminator),
      [{ data: createEvent(ORDER_X, MAKER, WSOL, PUMP, X_MAKING, X_TAKING) }],
    );
    let remMaking = X_MAKING;
    let remTaking = X_TAKING;
    for (const fill of xFills.slice(0, 3)) {
      remMaking -= fill.making;
      remTaking -= fill.taking;
      addOrderTransaction(ORDER_X, fill.keeper, fill.sig, at(fill.time), fillData(fill.making), [
        // Not from the event authority: someone calling the program with event-shaped data. Ignored.
        { data: tradeEvent(ORDER_X, { ...fill, making: 1n, taking: 999_999_999n }, 0n, 0n), viaEventAuthority: false },
        { data: tradeEvent(ORDER_X, fill, remMaking, remTaking) },
        // An event of another order in the same transaction: not X's.
        { data: tradeEvent(ORDER_Y, fill, 1n, 1n) },
      ]);
    }
    // A failed fill attempt: no events; kept as an unsuccessful trade for includeFailedTx.
    const failedSig = fakeSignature(9001);
    addOrderTransaction(ORDER_X, KEEPER_A, failedSig, at("2024-07-17T15:12:00Z"), fillData(1n), [], { err: { InstructionError: [0, { Custom: 1 }] } });
    rpc.setAccount(ORDER_X, await orderAccountWith(remMaking, remTaking, at("2024-07-17T15:11:06Z")));

    const feed = new OrderChangeFeed();
    const seen: OrderChange[] = [];
    feed.subscribe(MAKER.toBase58(), (c) => seen.push(c));
    const summary = await newTracker(feed).runOnce();
    expect(summary).toMatchObject({ checked: 1, caughtUp: 1, changed: 1, newTrades: 3 });
    expect(seen).toEqual([{ maker: MAKER.toBase58(), orderKey: ORDER_X.toBase58() }]);
    const failed = (await store.trades.listByOrders([ORDER_X.toBase58()], { includeFailed: true })).filter((t) => !t.succeeded);
    expect(failed).toEqual([
      expect.objectContaining({ txSignature: failedSig, keeper: KEEPER_A.toBase58(), rawInputAmount: 1n, rawOutputAmount: 0n, rawFeeAmount: 0n }),
    ]);

    const order = (await store.orders.get(ORDER_X.toBase58()))!;
    expect(order).toMatchObject({
      status: "Open",
      openTx: "3KxqznfpCyzTUEuNWFvYu6hzgH1YieBp4ZqN2fkiievpoC5935gM16y8f92y3bUVNEF2uTrXJrrVasQWnTDfxPoF",
      closeTx: "",
      rawRemainingMakingAmount: 13_248_000_000n,
      rawRemainingTakingAmount: 414_000_000_000n,
    });
    const trades = await store.trades.listByOrders([ORDER_X.toBase58()]);
    expect(
      trades.map((t) => [t.txSignature, t.keeper, t.rawInputAmount, t.rawOutputAmount, t.rawFeeAmount, t.feeAccount, t.confirmedAt.toISOString()]),
    ).toEqual(
      xFills
        .slice(0, 3)
        .map((f) => [f.sig, f.keeper.toBase58(), f.making, f.taking, (f.taking * 10n) / 10_000n, FEE_ACCOUNT.toBase58(), new Date(f.time).toISOString()]),
    );
    // Partially filled = still Open: not in history yet.
    expect((await history(MAKER)).orders).toEqual([]);

    // Nothing new on chain: the next pass reads no transactions.
    const before = rpc.calls.length;
    expect(await newTracker().runOnce()).toMatchObject({ checked: 1, caughtUp: 0, changed: 0 });
    expect(rpc.calls.slice(before).map((c) => c.method)).toEqual(["getMultipleAccounts"]);
  });

  it("after a restart, reads only the new transactions: Completed, with all trades once, as in the real history example", async () => {
    await store.close();
    store = await openStore({ dataDir });

    let remMaking = 13_248_000_000n;
    let remTaking = 414_000_000_000n;
    for (const fill of xFills.slice(3)) {
      remMaking -= fill.making;
      remTaking -= fill.taking;
      addOrderTransaction(ORDER_X, fill.keeper, fill.sig, at(fill.time), fillData(fill.making), [{ data: tradeEvent(ORDER_X, fill, remMaking, remTaking) }]);
    }
    expect(remMaking).toBe(0n);
    rpc.setAccount(ORDER_X, null); // the program closes a completed order

    // D: known to the store (created here), already filled and closed on chain in one go.
    await store.orders.upsert(
      storedOrder({
        orderKey: ORDER_D.toBase58(),
        maker: MAKER.toBase58(),
        inputMint: WSOL.toBase58(),
        outputMint: PUMP.toBase58(),
        inputDecimals: 9,
        outputDecimals: 6,
        rawMakingAmount: 3_599_980_699n,
        rawTakingAmount: 119_999_356_633n,
        createdAt: new Date("2024-07-18T12:01:02Z"),
      }),
    );
    addOrderTransaction(
      ORDER_D,
      MAKER,
      "3oYHmtNqjhGsFirUjKcxZSeSQFb3Ctb484sWivBRSQYTZwHL7Ex9Uwv9fMgGGLghtpfRovSrw1skf6yfxR87e761",
      at("2024-07-18T12:01:02Z"),
      Buffer.alloc(8),
      [{ data: createEvent(ORDER_D, MAKER, WSOL, PUMP, 3_599_980_699n, 119_999_356_633n) }],
    );
    const dFill: Fill = {
      sig: "NPehrVSwkUQzqBjDY9VeaVDyP8drg2pcRBPsntZgDQiLRSQ8ngGvMt4fcQPPiBGxFAcb3CeJacKnyEABdn5pPvt",
      keeper: KEEPER_A,
      making: 3_599_980_699n,
      taking: 119_999_356_633n,
      time: "2024-07-21T03:07:19Z",
    };
    addOrderTransaction(ORDER_D, KEEPER_A, dFill.sig, at(dFill.time), fillData(dFill.making), [{ data: tradeEvent(ORDER_D, dFill, 0n, 0n) }]);

    const callsBefore = rpc.calls.length;
    const summary = await newTracker().runOnce();
    expect(summary).toMatchObject({ checked: 2, caughtUp: 2, changed: 2, newTrades: 3 });
    const calls = rpc.calls.slice(callsBefore);
    // X resumed from its cursor (the newest signature processed before the restart, the failed one).
    const xSignatureCalls = calls.filter((c) => c.method === "getSignaturesForAddress" && c.params[0] === ORDER_X.toBase58());
    expect(xSignatureCalls.map((c) => (c.params[1] as { until?: string }).until)).toEqual([fakeSignature(9001)]);
    const fetched = calls.filter((c) => c.method === "getTransaction").map((c) => c.params[0]);
    expect(fetched.sort()).toEqual(
      [xFills[3].sig, xFills[4].sig, "3oYHmtNqjhGsFirUjKcxZSeSQFb3Ctb484sWivBRSQYTZwHL7Ex9Uwv9fMgGGLghtpfRovSrw1skf6yfxR87e761", dFill.sig].sort(),
    );

    expect((await store.trades.listByOrders([ORDER_X.toBase58()])).map((t) => t.txSignature).sort()).toEqual(xFills.map((f) => f.sig).sort());
    const page = await history(MAKER);
    expect(page.totalPages).toBe(1);
    // The real example's two orders, field for field (it predates slippageBps in the record).
    expect(page.orders.map(withoutSlippage)).toEqual(realHistory.orders);
    expect(page.orders.every((o) => o.slippageBps === "0")).toBe(true);
    // With includeFailedTx the failed attempt shows among X's trades (newest first: between 3TNk… and 5Ru1…).
    const withFailed = (await history(MAKER, 1, true)).orders.find((o) => o.orderKey === ORDER_X.toBase58())!;
    expect(withFailed.trades.map((t) => [t.txId, t.rawOutputAmount])).toEqual([
      [xFills[4].sig, "331200000000"],
      [xFills[3].sig, "82800000000"],
      [fakeSignature(9001), "0"],
      [xFills[2].sig, "18000000000"],
      [xFills[1].sig, "18000000000"],
      [xFills[0].sig, "18750000000"],
    ]);

    // Another pass and another restart add nothing.
    expect(await newTracker().runOnce()).toMatchObject({ checked: 0, newTrades: 0 });
    await store.close();
    store = await openStore({ dataDir });
    expect((await store.trades.listByOrders([ORDER_X.toBase58(), ORDER_D.toBase58()])).length).toBe(6);
    expect((await store.trades.listByOrders([ORDER_X.toBase58(), ORDER_D.toBase58()], { includeFailed: true })).length).toBe(7);
  });

  it("turns a cancel (v0 transaction, program id from a lookup table) into Cancelled", async () => {
    await store.orders.upsert(
      storedOrder({
        orderKey: ORDER_Y.toBase58(),
        maker: OTHER_MAKER.toBase58(),
        inputMint: USDC.toBase58(),
        outputMint: WSOL.toBase58(),
        rawMakingAmount: 5_000_000n,
        rawTakingAmount: 25_000_000n,
        createdAt: new Date("2025-03-10T14:40:08Z"),
        openTx: "known-open-tx",
      }),
    );
    const cancelSig = fakeSignature(7);
    addOrderTransaction(
      ORDER_Y,
      OTHER_MAKER,
      cancelSig,
      at("2025-03-11T10:00:00Z"),
      CANCEL_ORDER_DISCRIMINATOR,
      [{ data: eventInstructionData("CancelOrderEvent", { order_key: ORDER_Y }) }],
      { programViaLookupTable: true },
    );
    // The account is already gone.
    expect(await newTracker().runOnce()).toMatchObject({ checked: 1, changed: 1, newTrades: 0 });
    const page = await history(OTHER_MAKER);
    expect(page.orders).toEqual([
      expect.objectContaining({
        orderKey: ORDER_Y.toBase58(),
        status: "Cancelled",
        closeTx: cancelSig,
        openTx: "known-open-tx",
        makingAmount: "5",
        takingAmount: "0.025",
        remainingMakingAmount: "5",
        rawRemainingMakingAmount: "5000000",
        updatedAt: "2025-03-11T10:00:00Z",
        trades: [],
      }),
    ]);
  });

  it("history pages come back newest first, 10 per page, with mint filters", async () => {
    const base = Date.parse("2023-01-01T00:00:00Z");
    const extra = Array.from({ length: 11 }, (_, i) =>
      storedOrder({
        orderKey: Keypair.generate().publicKey.toBase58(),
        maker: MAKER.toBase58(),
        inputMint: i % 2 === 0 ? USDC.toBase58() : WSOL.toBase58(),
        outputMint: i % 2 === 0 ? WSOL.toBase58() : USDC.toBase58(),
        rawMakingAmount: 1_000_000n + BigInt(i),
        rawTakingAmount: 2_000_000n,
        status: i % 3 === 0 ? "Completed" : "Cancelled",
        inputDecimals: 6,
        outputDecimals: 9,
        createdAt: new Date(base + i * 86_400_000),
      }),
    );
    // Shuffled insertion; one still open (never in history).
    for (const o of [...extra].reverse()) await store.orders.upsert(o);
    await store.orders.upsert(
      storedOrder({
        orderKey: Keypair.generate().publicKey.toBase58(),
        maker: MAKER.toBase58(),
        inputMint: USDC.toBase58(),
        outputMint: WSOL.toBase58(),
        rawMakingAmount: 1n,
        rawTakingAmount: 1n,
        createdAt: new Date(),
      }),
    );

    const all = [ORDER_D.toBase58(), ORDER_X.toBase58(), ...[...extra].reverse().map((o) => o.orderKey)];
    const p1 = await history(MAKER, 1);
    const p2 = await history(MAKER, 2);
    expect([p1.totalPages, p2.totalPages, p1.orders.length, p2.orders.length]).toEqual([2, 2, 10, 3]);
    expect([...p1.orders, ...p2.orders].map((o) => o.orderKey)).toEqual(all);
    expect((await history(MAKER, 3)).orders).toEqual([]);

    const request = validateGetTriggerOrdersRequest({ user: MAKER.toBase58(), orderStatus: "history", inputMint: USDC.toBase58() });
    const filtered = await listTriggerOrders({ chain: new RpcSolanaChain({ url: rpc.url }), store }, request);
    expect(filtered.orders.map((o) => o.orderKey)).toEqual(
      extra
        .filter((o) => o.inputMint === USDC.toBase58())
        .reverse()
        .map((o) => o.orderKey),
    );
  });

  it("one order's unreadable transaction does not hold up the others; it is retried next pass", async () => {
    const orderP = Keypair.generate().publicKey;
    const orderQ = Keypair.generate().publicKey;
    for (const key of [orderP, orderQ]) {
      await store.orders.upsert(
        storedOrder({
          orderKey: key.toBase58(),
          maker: OTHER_MAKER.toBase58(),
          inputMint: USDC.toBase58(),
          outputMint: WSOL.toBase58(),
          rawMakingAmount: 10n,
          rawTakingAmount: 20n,
          createdAt: new Date("2025-03-01T00:00:00Z"),
        }),
      );
    }
    const badSig = fakeSignature(501);
    rpc.addTransaction([orderP], { signature: badSig, slot: ++slot, blockTime: at("2025-03-02T00:00:00Z"), err: null }, { bogus: true });
    addOrderTransaction(orderQ, OTHER_MAKER, fakeSignature(502), at("2025-03-02T00:00:00Z"), CANCEL_ORDER_DISCRIMINATOR, [
      { data: eventInstructionData("CancelOrderEvent", { order_key: orderQ }) },
    ]);

    await newTracker().runOnce();
    expect((await store.orders.get(orderQ.toBase58()))?.status).toBe("Cancelled");
    expect((await store.orders.get(orderP.toBase58()))?.status).toBe("Open");
    expect(await store.trackerCursors.get(orderP.toBase58())).toBeNull();

    const before = rpc.calls.length;
    await newTracker().runOnce();
    expect(
      rpc.calls
        .slice(before)
        .filter((c) => c.method === "getTransaction")
        .map((c) => c.params[0]),
    ).toContain(badSig);
  });

  it("an Order account that does not decode (truncated) is not taken for closed; the others go on", async () => {
    const orderT = Keypair.generate().publicKey;
    const orderU = Keypair.generate().publicKey;
    for (const key of [orderT, orderU]) {
      await store.orders.upsert(
        storedOrder({
          orderKey: key.toBase58(),
          maker: OTHER_MAKER.toBase58(),
          inputMint: USDC.toBase58(),
          outputMint: WSOL.toBase58(),
          rawMakingAmount: 10n,
          rawTakingAmount: 20n,
          createdAt: new Date("2025-03-05T00:00:00Z"),
        }),
      );
    }
    const whole = await orderAccountWith(X_MAKING, X_TAKING, at("2025-03-05T00:00:00Z"));
    rpc.setAccount(orderT, { ...whole, data: whole.data.subarray(0, 40) });
    addOrderTransaction(orderU, OTHER_MAKER, fakeSignature(503), at("2025-03-06T00:00:00Z"), CANCEL_ORDER_DISCRIMINATOR, [
      { data: eventInstructionData("CancelOrderEvent", { order_key: orderU }) },
    ]);

    await newTracker().runOnce();
    expect((await store.orders.get(orderU.toBase58()))?.status).toBe("Cancelled");
    expect((await store.orders.get(orderT.toBase58()))?.status).toBe("Open");
    expect(await store.trackerCursors.get(orderT.toBase58())).toBeNull();
  });

  it("stops at the first transaction not served yet, also past the first 8 read together; the cursor stays before it", async () => {
    const orderV = Keypair.generate().publicKey;
    await store.orders.upsert(
      storedOrder({
        orderKey: orderV.toBase58(),
        maker: OTHER_MAKER.toBase58(),
        inputMint: USDC.toBase58(),
        outputMint: WSOL.toBase58(),
        rawMakingAmount: 10n,
        rawTakingAmount: 20n,
        createdAt: new Date("2025-03-07T00:00:00Z"),
      }),
    );
    const sigs = Array.from({ length: 11 }, (_, i) => fakeSignature(600 + i));
    // Nine transactions without events, the tenth listed but not served yet, the eleventh a cancel.
    for (const sig of sigs.slice(0, 9)) addOrderTransaction(orderV, OTHER_MAKER, sig, at("2025-03-08T00:00:00Z"), CANCEL_ORDER_DISCRIMINATOR, []);
    rpc.addTransaction([orderV], { signature: sigs[9], slot: ++slot, blockTime: at("2025-03-08T00:00:00Z"), err: null }, null);
    addOrderTransaction(orderV, OTHER_MAKER, sigs[10], at("2025-03-08T00:00:00Z"), CANCEL_ORDER_DISCRIMINATOR, [
      { data: eventInstructionData("CancelOrderEvent", { order_key: orderV }) },
    ]);

    await newTracker().runOnce();
    expect((await store.orders.get(orderV.toBase58()))?.status).toBe("Open");
    expect((await store.trackerCursors.get(orderV.toBase58()))?.lastSignature).toBe(sigs[8]);
  });

  it("runs in the background every interval and stops with the shutdown", async () => {
    const orderZ = Keypair.generate().publicKey;
    await store.orders.upsert(
      storedOrder({
        orderKey: orderZ.toBase58(),
        maker: OTHER_MAKER.toBase58(),
        inputMint: WSOL.toBase58(),
        outputMint: USDC.toBase58(),
        rawMakingAmount: 2_000_000_000n,
        rawTakingAmount: 300_000_000n,
        createdAt: new Date("2025-04-01T00:00:00Z"),
      }),
    );
    const fill: Fill = { sig: fakeSignature(77), keeper: KEEPER_A, making: 2_000_000_000n, taking: 300_000_000n, time: "2025-04-02T00:00:00Z" };
    addOrderTransaction(orderZ, KEEPER_A, fill.sig, at(fill.time), fillData(fill.making), [{ data: tradeEvent(orderZ, fill, 0n, 0n) }]);

    // W stays open with no transactions: every pass reads it again (so passes are visible as RPC calls).
    const orderW = Keypair.generate().publicKey;
    await store.orders.upsert(
      storedOrder({
        orderKey: orderW.toBase58(),
        maker: OTHER_MAKER.toBase58(),
        inputMint: WSOL.toBase58(),
        outputMint: PUMP.toBase58(),
        rawMakingAmount: X_MAKING,
        rawTakingAmount: X_TAKING,
        createdAt: new Date("2025-04-01T00:00:00Z"),
      }),
    );
    rpc.setAccount(orderW, await orderAccountWith(X_MAKING, X_TAKING, at("2025-04-01T00:00:00Z")));

    const shutdown = createShutdown(createLogger("silent"));
    runOrderTracker({ chain: new RpcSolanaChain({ url: rpc.url }), store, feed: new OrderChangeFeed(), shutdown, intervalMs: 30 });
    const deadline = Date.now() + 5000;
    while ((await store.orders.get(orderZ.toBase58()))?.status !== "Completed") {
      if (Date.now() > deadline) throw new Error("tracker did not complete the order");
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await store.orders.get(orderZ.toBase58())).toMatchObject({ closeTx: fill.sig, rawRemainingMakingAmount: 0n });
    const passesBefore = rpc.calls.filter((c) => c.method === "getMultipleAccounts").length;
    await new Promise((r) => setTimeout(r, 150));
    expect(rpc.calls.filter((c) => c.method === "getMultipleAccounts").length).toBeGreaterThan(passesBefore);
    await shutdown.run("test");
    const calls = rpc.calls.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(rpc.calls.length).toBe(calls);
  });
});
