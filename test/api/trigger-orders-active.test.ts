/**
 * Active listing against the localnet: Order accounts written by Anchor's BorshCoder over the IDL
 * (not by our decoder's layout), mints written with spl-token's layout, several makers, Token and
 * Token-2022 mints, with and without expiry. Expected records are derived here with decimal.js
 * and Date, and checked against the real Jupiter example.
 */
import { readFileSync } from "node:fs";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Keypair, PublicKey } from "@solana/web3.js";
import { Decimal } from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { triggerListingRestRoutes, triggerListingService } from "../../src/api/trigger/trigger-listing-service.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { OrderStatus, TriggerService } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/open-store.js";
import { OrderChangeFeed } from "../../src/runtime/order-change-feed.js";
import { startTestServer } from "../server/helpers.js";
import { encodeOrderAccount, LO_V2, mintData, orderAddress, TOKEN, TOKEN_2022 } from "../tracker/fixtures/limit-order-fixtures.js";
import type { OrderFields } from "../tracker/fixtures/limit-order-fixtures.js";

const realActive = JSON.parse(readFileSync(new URL("../fixtures/reference/examples/trigger-getTriggerOrders-active.json", import.meta.url), "utf8")) as {
  orders: Record<string, unknown>[];
};

const WSOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
/** A Token-2022 mint with 9 decimals, like HeLp6N… in the real history example. */
const T22 = Keypair.generate().publicKey;
const PUMP = Keypair.generate().publicKey;
const DECIMALS: Record<string, number> = { [WSOL.toBase58()]: 9, [USDC.toBase58()]: 6, [T22.toBase58()]: 9, [PUMP.toBase58()]: 6 };

const user = Keypair.generate().publicKey;
const other = Keypair.generate().publicKey;
const nobody = Keypair.generate().publicKey;

interface Fixture extends OrderFields {
  readonly key: PublicKey;
}

function fixture(fields: OrderFields): Fixture {
  return { ...fields, key: orderAddress(fields.maker, fields.uniqueId) };
}

const BASE_TIME = 1_741_617_608; // 2025-03-10T14:40:08Z, the real example's createdAt
const userOrders: Fixture[] = [
  // The real active example: SOL → USDC, 0.05 SOL for 100 USDC, no expiry.
  fixture({ maker: user, uniqueId: 7280981023822104910n, inputMint: WSOL, outputMint: USDC, making: 50_000_000n, taking: 100_000_000n, createdAt: BASE_TIME }),
  // The real history example's amounts, into a Token-2022 output, partly filled, with expiry.
  fixture({
    maker: user,
    uniqueId: 2n,
    inputMint: WSOL,
    outputMint: T22,
    outputTokenProgram: TOKEN_2022,
    making: 3_599_980_699n,
    taking: 119_999_356_633n,
    remainingMaking: 1_000_000_001n,
    remainingTaking: 33_333_000_000n,
    expiredAt: 1_900_000_000n,
    createdAt: BASE_TIME + 50,
    updatedAt: BASE_TIME + 500,
    slippageBps: 69,
  }),
  ...Array.from({ length: 10 }, (_, i) =>
    fixture({
      maker: user,
      uniqueId: 100n + BigInt(i),
      inputMint: i % 3 === 0 ? T22 : i % 3 === 1 ? USDC : PUMP,
      inputTokenProgram: i % 3 === 0 ? TOKEN_2022 : TOKEN,
      outputMint: i % 2 === 0 ? WSOL : i % 3 === 1 ? T22 : USDC,
      outputTokenProgram: i % 2 !== 0 && i % 3 === 1 ? TOKEN_2022 : TOKEN,
      making: 1_000_000n * BigInt(i + 1) + 7n,
      taking: 123_456_789n * BigInt(i + 1),
      expiredAt: i % 4 === 0 ? BigInt(1_800_000_000 + i) : null,
      createdAt: BASE_TIME + (i - 5) * 3600 + 1, // all createdAt distinct
    }),
  ),
];
const otherOrders: Fixture[] = [
  fixture({ maker: other, uniqueId: 1n, inputMint: WSOL, outputMint: USDC, making: 5n, taking: 6n, createdAt: BASE_TIME + 10 }),
  fixture({ maker: other, uniqueId: 2n, inputMint: T22, inputTokenProgram: TOKEN_2022, outputMint: USDC, making: 7n, taking: 8n, createdAt: BASE_TIME + 20 }),
];

function iso(seconds: number | bigint): string {
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function ui(raw: bigint, mint: PublicKey): string {
  return new Decimal(raw.toString()).div(new Decimal(10).pow(DECIMALS[mint.toBase58()])).toFixed();
}

function expectedRecord(o: Fixture) {
  const remainingMaking = o.remainingMaking ?? o.making;
  const remainingTaking = o.remainingTaking ?? o.taking;
  return {
    userPubkey: o.maker.toBase58(),
    orderKey: o.key.toBase58(),
    inputMint: o.inputMint.toBase58(),
    outputMint: o.outputMint.toBase58(),
    makingAmount: ui(o.making, o.inputMint),
    takingAmount: ui(o.taking, o.outputMint),
    remainingMakingAmount: ui(remainingMaking, o.inputMint),
    remainingTakingAmount: ui(remainingTaking, o.outputMint),
    rawMakingAmount: o.making.toString(),
    rawTakingAmount: o.taking.toString(),
    rawRemainingMakingAmount: remainingMaking.toString(),
    rawRemainingTakingAmount: remainingTaking.toString(),
    slippageBps: String(o.slippageBps ?? 0),
    expiredAt: o.expiredAt == null ? null : iso(o.expiredAt),
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt ?? o.createdAt),
    status: "Open",
    openTx: "",
    closeTx: "",
    programVersion: LO_V2.toBase58(),
    trades: [],
  };
}

/** Newest first by createdAt (all distinct here). */
function newestFirst(list: readonly Fixture[]): Fixture[] {
  return [...list].sort((a, b) => b.createdAt - a.createdAt);
}

let localnet: Localnet;
let store: Store;
let server: RunningServer;

async function rest(query: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/trigger/v1/getTriggerOrders?${new URLSearchParams(query)}`);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  localnet = await startLocalnet();
  for (const mint of [WSOL, USDC, T22, PUMP]) {
    localnet.setAccount(mint, { lamports: 1_461_600n, data: mintData(DECIMALS[mint.toBase58()]), owner: mint.equals(T22) ? TOKEN_2022 : TOKEN });
  }
  for (const o of [...userOrders, ...otherOrders]) {
    localnet.setAccount(o.key, { lamports: 3_048_480n, data: await encodeOrderAccount(o), owner: LO_V2 });
  }
  // Not an Order account of the program (a Fee-like account): never listed.
  localnet.setAccount(Keypair.generate().publicKey, { lamports: 1_000_000n, data: Buffer.concat([Buffer.alloc(8, 1), user.toBuffer()]), owner: LO_V2 });
  store = await openStore({ inMemory: true });
  const deps = { chain: new RpcSolanaChain({ url: localnet.url }), store, feed: new OrderChangeFeed() };
  ({ server } = await startTestServer({ services: { trigger: triggerListingService(deps) }, restRoutes: triggerListingRestRoutes(deps) }));
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  await localnet?.close();
});

describe("GetTriggerOrders active (localnet, BorshCoder-written orders)", () => {
  it("lists exactly the user's orders, newest first, 10 per page, as Jupiter's records", async () => {
    const expected = newestFirst(userOrders).map(expectedRecord);
    const page1 = await rest({ user: user.toBase58(), orderStatus: "active" });
    expect(page1.status).toBe(200);
    expect(page1.body).toEqual({ user: user.toBase58(), orderStatus: "active", orders: expected.slice(0, 10), totalPages: 2, page: 1 });
    const page2 = await rest({ user: user.toBase58(), orderStatus: "active", page: "2" });
    expect(page2.body).toEqual({ user: user.toBase58(), orderStatus: "active", orders: expected.slice(10), totalPages: 2, page: 2 });
    const page3 = await rest({ user: user.toBase58(), orderStatus: "active", page: "3" });
    expect(page3.body.orders).toEqual([]);
  });

  it("formats amounts like the real example (same order, same fields)", async () => {
    const { body } = await rest({ user: user.toBase58(), orderStatus: "active", inputMint: WSOL.toBase58(), outputMint: USDC.toBase58() });
    expect(body.orders).toHaveLength(1);
    const real = realActive.orders[0];
    const ours = (body.orders as Record<string, unknown>[]).find((o) => o.orderKey === userOrders[0].key.toBase58())!;
    for (const field of [
      "inputMint",
      "outputMint",
      "makingAmount",
      "takingAmount",
      "remainingMakingAmount",
      "remainingTakingAmount",
      "rawMakingAmount",
      "rawTakingAmount",
      "rawRemainingMakingAmount",
      "rawRemainingTakingAmount",
      "expiredAt",
      "createdAt",
      "updatedAt",
      "status",
      "closeTx",
      "programVersion",
      "trades",
    ]) {
      expect(ours[field], field).toEqual(real[field]);
    }
    expect(Object.keys(ours).sort()).toEqual([...Object.keys(real), "slippageBps"].sort());
  });

  it("filters by input mint, output mint and both (memcmp at 40 / 72)", async () => {
    const byInput = await rest({ user: user.toBase58(), orderStatus: "active", inputMint: T22.toBase58() });
    const wantInput = newestFirst(userOrders.filter((o) => o.inputMint.equals(T22)));
    expect(byInput.body.orders.map((o: { orderKey: string }) => o.orderKey)).toEqual(wantInput.map((o) => o.key.toBase58()));
    expect(byInput.body.totalPages).toBe(1);

    const byOutput = await rest({ user: user.toBase58(), orderStatus: "active", outputMint: WSOL.toBase58() });
    const wantOutput = newestFirst(userOrders.filter((o) => o.outputMint.equals(WSOL)));
    expect(wantOutput.length).toBeGreaterThan(1);
    expect(byOutput.body.orders.map((o: { orderKey: string }) => o.orderKey)).toEqual(wantOutput.map((o) => o.key.toBase58()));

    const both = await rest({ user: user.toBase58(), orderStatus: "active", inputMint: WSOL.toBase58(), outputMint: T22.toBase58() });
    expect(both.body.orders).toEqual([expectedRecord(userOrders[1])]);
  });

  it("another maker sees only theirs; a wallet without orders gets an empty page", async () => {
    const theirs = await rest({ user: other.toBase58(), orderStatus: "active" });
    expect(theirs.body.orders).toEqual(newestFirst(otherOrders).map(expectedRecord));
    const none = await rest({ user: nobody.toBase58(), orderStatus: "active" });
    expect(none.body).toEqual({ user: nobody.toBase58(), orderStatus: "active", orders: [], totalPages: 1, page: 1 });
  });

  it("records seen orders for the tracker, and shows the creation tx and fills the store knows", async () => {
    const known = await store.orders.getMany(userOrders.map((o) => o.key.toBase58()));
    expect(known.size).toBe(userOrders.length);
    const partly = userOrders[1];
    const stored = known.get(partly.key.toBase58())!;
    expect(stored).toMatchObject({ status: "Open", maker: user.toBase58(), rawMakingAmount: partly.making, feeBps: 10, openTx: "" });

    const openTx = "466G3XxE4NzxCj136SXe4BSjXzCVBQdvn6RsHMNGN2DGCS9PSceJSACqEWCxx22hsCXcEskvEFdm44wsHCF1auvL";
    await store.orders.upsert({ ...stored, openTx });
    const keeper = "j1oAbxxiDUWvoHxEDhWE7THLjEkDQW2cSHYn2vttxTF";
    await store.trades.record({
      txSignature: "3PDo3pMJLqvAfNXwYjY7BSP57ZNQ5DgYDeK6xYszUVMneHzAZBQzsBSskym8uveMoLC4G8N8DjPaLBY726ZsBZvT",
      orderKey: partly.key.toBase58(),
      tradeIndex: 0,
      keeper,
      inputMint: WSOL.toBase58(),
      outputMint: T22.toBase58(),
      rawInputAmount: 2_599_980_698n,
      rawOutputAmount: 86_666_356_633n,
      feeAccount: PublicKey.default.toBase58(),
      rawFeeAmount: 86_666_356n,
      action: "Fill",
      succeeded: true,
      confirmedAt: new Date("2025-03-17T08:09:37Z"),
    });
    const { body } = await rest({ user: user.toBase58(), orderStatus: "active", inputMint: WSOL.toBase58(), outputMint: T22.toBase58() });
    expect(body.orders[0]).toMatchObject({
      openTx,
      trades: [
        {
          orderKey: partly.key.toBase58(),
          keeper,
          inputAmount: "2.599980698",
          outputAmount: "86.666356633",
          rawInputAmount: "2599980698",
          rawOutputAmount: "86666356633",
          feeMint: PublicKey.default.toBase58(),
          feeAmount: "0.086666356",
          rawFeeAmount: "86666356",
          confirmedAt: "2025-03-17T08:09:37Z",
          action: "Fill",
          productMeta: null,
          txId: "3PDo3pMJLqvAfNXwYjY7BSP57ZNQ5DgYDeK6xYszUVMneHzAZBQzsBSskym8uveMoLC4G8N8DjPaLBY726ZsBZvT",
        },
      ],
    });
  });

  it("answers the same over Connect (proto: raw amounts as uint64, timestamps, status enum, hasMoreData)", async () => {
    const client = createClient(TriggerService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const res = await client.getTriggerOrders({ user: user.toBase58(), orderStatus: "active" });
    const expected = newestFirst(userOrders).slice(0, 10);
    expect(res.orders.map((o) => o.orderKey)).toEqual(expected.map((o) => o.key.toBase58()));
    expect(res).toMatchObject({ totalPages: 2, page: 1, hasMoreData: true, orderStatus: "active" });
    const withExpiry = res.orders.find((o) => o.orderKey === userOrders[1].key.toBase58())!;
    expect(withExpiry).toMatchObject({
      rawMakingAmount: 3_599_980_699n,
      rawRemainingMakingAmount: 1_000_000_001n,
      makingAmount: "3.599980699",
      // 119999356633 raw of a 9-decimal Token-2022 mint.
      takingAmount: "119.999356633",
      slippageBps: 69,
      status: OrderStatus.OPEN,
    });
    expect(withExpiry.expiredAt?.seconds).toBe(1_900_000_000n);
    const noExpiry = res.orders.find((o) => o.orderKey === userOrders[0].key.toBase58());
    expect(noExpiry === undefined || noExpiry.expiredAt === undefined).toBe(true);
    const page2 = await client.getTriggerOrders({ user: user.toBase58(), orderStatus: "ORDER_STATUS_FILTER_ACTIVE", page: 2 }); // the former enum name

    expect(page2).toMatchObject({ page: 2, hasMoreData: false, orderStatus: "active" });
    expect(page2.orders.find((o) => o.orderKey === userOrders[0].key.toBase58())?.expiredAt).toBeUndefined();
  });
});
