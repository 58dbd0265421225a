/**
 * WatchTriggerOrders over the real server (grpc-js over HTTP/2, and Connect): the current orders,
 * the snapshot end, then the changes the tracker sees on the localnet, until the client cancels
 * (the feed listener is removed). Also: bad input → INVALID_ARGUMENT / 400 naming the field.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOrderTracker } from "../../src/tracker/run-order-tracker.js";
import { createTriggerListing } from "../../src/api/trigger/trigger-listing-service.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { TriggerService } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/open-store.js";
import { createLogger } from "../../src/server/logger.js";
import { createShutdown } from "../../src/runtime/shutdown.js";
import type { OrderChangeFeed } from "../../src/runtime/order-change-feed.js";
import type { OrderTracker } from "../../src/tracker/order-tracker.js";
import { startTestServer, type LogCapture } from "../server/helpers.js";
import { encodeOrderAccount, LO_V2, mintData, orderAddress, TOKEN } from "../tracker/fixtures/limit-order-fixtures.js";
import type { OrderFields } from "../tracker/fixtures/limit-order-fixtures.js";

const WSOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const user = Keypair.generate().publicKey;
const other = Keypair.generate().publicKey;

const older: OrderFields = {
  maker: user,
  uniqueId: 1n,
  inputMint: WSOL,
  outputMint: USDC,
  making: 50_000_000n,
  taking: 100_000_000n,
  createdAt: 1_741_617_608,
};
const newer: OrderFields = {
  maker: user,
  uniqueId: 2n,
  inputMint: USDC,
  outputMint: WSOL,
  making: 25_000_000n,
  taking: 250_000_000n,
  expiredAt: 1_900_000_000n,
  createdAt: 1_741_617_700,
};
const theirs: OrderFields = { maker: other, uniqueId: 3n, inputMint: WSOL, outputMint: USDC, making: 1n, taking: 2n, createdAt: 1_741_617_800 };
const key = (o: OrderFields) => orderAddress(o.maker, o.uniqueId);

let localnet: Localnet;
let store: Store;
let server: RunningServer;
let logs: LogCapture;
let feed: OrderChangeFeed;
let tracker: OrderTracker;
let trigger: grpc.Client & Record<string, any>;

async function writeOrder(o: OrderFields) {
  localnet.setAccount(key(o), { lamports: 3_048_480n, data: await encodeOrderAccount(o), owner: LO_V2 });
}

beforeAll(async () => {
  localnet = await startLocalnet();
  localnet.setAccount(WSOL, { lamports: 1_461_600n, data: mintData(9), owner: TOKEN });
  localnet.setAccount(USDC, { lamports: 1_461_600n, data: mintData(6), owner: TOKEN });
  for (const o of [older, newer, theirs]) await writeOrder(o);
  store = await openStore({ inMemory: true });
  // Wired as main wires it: feed + background tracker (stopped by the server's shutdown) + handlers.
  // The interval is long so the test drives passes with runOnce().
  const shutdown = createShutdown(createLogger("silent"));
  const chain = new RpcSolanaChain({ url: localnet.url });
  const listing = createTriggerListing({ chain, store });
  feed = listing.feed;
  tracker = runOrderTracker({ chain, store, feed, shutdown, intervalMs: 3_600_000 });
  ({ server, logs } = await startTestServer({ shutdown, services: { trigger: listing.handlers }, restRoutes: listing.restRoutes }));
  const defs = protoLoader.loadSync(["swapd/trigger/v1/trigger.proto"], { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(defs) as any;
  trigger = new pkg.swapd.trigger.v1.TriggerService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
});

afterAll(async () => {
  trigger?.close();
  await server?.close();
  await store?.close();
  await localnet?.close();
});

/** Resolves when `predicate` holds (polled), or fails after `ms`. */
async function eventually(predicate: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function grpcUnary(method: string, req: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    trigger[method](req, { deadline: Date.now() + 5000 }, (err: grpc.ServiceError | null, res: unknown) => (err ? reject(err) : resolve(res)));
  });
}

describe("WatchTriggerOrders", () => {
  it("grpc-js: the current orders, the snapshot end, then the tracker's changes; cancel ends it and removes the listener", async () => {
    const call = trigger.WatchTriggerOrders({ user: user.toBase58() }) as grpc.ClientReadableStream<any>;
    const messages: any[] = [];
    let error: grpc.ServiceError | undefined;
    call.on("data", (m: unknown) => messages.push(m));
    call.on("error", (e: grpc.ServiceError) => (error = e));

    await eventually(() => messages.length >= 3);
    expect(messages.slice(0, 2).map((m) => [m.event, m.order.orderKey, m.order.status])).toEqual([
      ["order", key(newer).toBase58(), "ORDER_STATUS_OPEN"],
      ["order", key(older).toBase58(), "ORDER_STATUS_OPEN"],
    ]);
    expect(messages[0].order).toMatchObject({ makingAmount: "25", takingAmount: "0.25", rawMakingAmount: "25000000", expiredAt: { seconds: "1900000000" } });
    expect(messages[2]).toMatchObject({ event: "snapshotEnd", snapshotEnd: { count: 2 } });
    expect(feed.listenerCount(user.toBase58())).toBe(1);

    // A keeper fills part of the older order; another maker's order changes too (not this stream's).
    await writeOrder({ ...older, remainingMaking: 20_000_000n, remainingTaking: 40_000_000n, updatedAt: older.createdAt + 60 });
    await writeOrder({ ...theirs, remainingMaking: 0n });
    await tracker.runOnce();
    await eventually(() => messages.length >= 4);
    expect(messages[3]).toMatchObject({
      event: "order",
      order: {
        orderKey: key(older).toBase58(),
        status: "ORDER_STATUS_OPEN",
        rawRemainingMakingAmount: "20000000",
        remainingMakingAmount: "0.02",
        remainingTakingAmount: "40",
      },
    });

    // The maker takes the rest back: the account closes.
    localnet.setAccount(key(older), { lamports: 0n, data: new Uint8Array(0), owner: new PublicKey("11111111111111111111111111111111") });
    await tracker.runOnce();
    await eventually(() => messages.length >= 5);
    expect(messages[4].order).toMatchObject({ orderKey: key(older).toBase58(), status: "ORDER_STATUS_CANCELLED", rawRemainingMakingAmount: "20000000" });
    await new Promise((r) => setTimeout(r, 100));
    expect(messages).toHaveLength(5);

    call.cancel();
    await eventually(() => error !== undefined);
    expect(error!.code).toBe(grpc.status.CANCELLED);
    await eventually(() => feed.listenerCount(user.toBase58()) === 0);
    // Ended cleanly (the handler returns when the call's signal aborts), not as a handler failure.
    await eventually(() => logs.lines.some((l) => l.procedure === "/swapd.trigger.v1.TriggerService/WatchTriggerOrders"));
    const line = logs.lines.find((l) => l.procedure === "/swapd.trigger.v1.TriggerService/WatchTriggerOrders")!;
    expect(["ok", "canceled"]).toContain(line.code);
    expect(logs.lines.filter((l) => l.msg === "handler failed")).toEqual([]);
  });

  it("Connect: the same stream; aborting the call ends it and removes the listener", async () => {
    const client = createClient(TriggerService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const abort = new AbortController();
    const got: string[] = [];
    const done = (async () => {
      for await (const m of client.watchTriggerOrders({ user: user.toBase58() }, { signal: abort.signal })) {
        got.push(m.event.case === "order" ? m.event.value.orderKey : `end:${m.event.value?.count}`);
      }
    })();
    await eventually(() => got.length >= 2);
    // The older order was closed above: only the newer one is current.
    expect(got).toEqual([key(newer).toBase58(), "end:1"]);
    expect(feed.listenerCount(user.toBase58())).toBe(1);
    abort.abort();
    await expect(done).rejects.toMatchObject({ code: Code.Canceled });
    await eventually(() => feed.listenerCount(user.toBase58()) === 0);
  });
});

describe("bad input names the field", () => {
  const good = { user: user.toBase58(), orderStatus: "ORDER_STATUS_FILTER_ACTIVE" };

  it.each([
    ["user", { ...good, user: "not-a-key" }],
    ["user", { ...good, user: "" }],
    ["orderStatus", { ...good, orderStatus: "ORDER_STATUS_FILTER_UNSPECIFIED" }],
    ["orderStatus", { ...good, orderStatus: 7 }],
    ["page", { ...good, page: 5_000_000 }],
    ["inputMint", { ...good, inputMint: "0OIl" }],
    ["outputMint", { ...good, outputMint: "abc" }],
  ])("gRPC GetTriggerOrders: %s", async (field, req) => {
    const error = (await grpcUnary("GetTriggerOrders", req).then(
      () => undefined,
      (e: unknown) => e,
    )) as grpc.ServiceError;
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error.details).toMatch(new RegExp(`^${field}: `));
  });

  it("gRPC WatchTriggerOrders: user", async () => {
    const call = trigger.WatchTriggerOrders({ user: "nope" }) as grpc.ClientReadableStream<unknown>;
    const error = await new Promise<grpc.ServiceError>((resolve) => call.on("error", resolve));
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error.details).toMatch(/^user: /);
  });

  it("Connect WatchTriggerOrders: inputMint", async () => {
    const client = createClient(TriggerService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const run = async () => {
      for await (const _ of client.watchTriggerOrders({ user: user.toBase58(), inputMint: "bad" })) void _;
    };
    const error = await run().then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(error).toMatchObject({ code: Code.InvalidArgument, rawMessage: expect.stringMatching(/^inputMint: /) });
  });

  it.each([
    ["user", { orderStatus: "active" }],
    ["user", { user: "xyz", orderStatus: "active" }],
    ["orderStatus", { user: user.toBase58() }],
    ["orderStatus", { user: user.toBase58(), orderStatus: "open" }],
    ["page", { user: user.toBase58(), orderStatus: "history", page: "0" }],
    ["page", { user: user.toBase58(), orderStatus: "history", page: "-1" }],
    ["page", { user: user.toBase58(), orderStatus: "history", page: "1.5" }],
    ["includeFailedTx", { user: user.toBase58(), orderStatus: "history", includeFailedTx: "yes" }],
    ["inputMint", { user: user.toBase58(), orderStatus: "active", inputMint: "So1111" }],
    ["outputMint", { user: user.toBase58(), orderStatus: "active", outputMint: "!" }],
  ])("REST getTriggerOrders: %s → 400", async (field, query) => {
    const res = await fetch(`${server.url}/trigger/v1/getTriggerOrders?${new URLSearchParams(query)}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; code: number };
    expect(body.code).toBe(400);
    expect(body.error).toMatch(new RegExp(`^${field}: `));
  });

  it("REST getTriggerOrders: page=0 answers the README's message", async () => {
    const res = await fetch(`${server.url}/trigger/v1/getTriggerOrders?user=${user.toBase58()}&orderStatus=history&page=0`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'page: must be a positive integer, got "0"', code: 400 });
  });

  it.each(["user", "orderStatus", "page"])("REST getTriggerOrders: a repeated %s parameter → 400 naming it", async (name) => {
    const query = new URLSearchParams({ user: user.toBase58(), orderStatus: "history", page: "1" });
    query.append(name, query.get(name)!); // the same value twice is still two values
    const res = await fetch(`${server.url}/trigger/v1/getTriggerOrders?${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(`${name}: must be given once, got 2 values`);
  });
});

describe("graceful shutdown", () => {
  it("ends open WatchTriggerOrders streams with UNAVAILABLE at once, not at the drain timeout (runs last: closes the server)", async () => {
    const client = createClient(TriggerService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const got: string[] = [];
    // Its end is caught at once: it comes while server.close() is still awaited.
    const ended = (async () => {
      for await (const m of client.watchTriggerOrders({ user: user.toBase58() })) got.push(m.event.case ?? "");
    })().then(
      () => "ended without a status",
      (e: unknown) => e,
    );
    await eventually(() => got.includes("snapshotEnd"));
    const started = Date.now();
    await server.close();
    expect(await ended).toMatchObject({ code: Code.Unavailable, rawMessage: expect.stringMatching(/shutting down/) });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(feed.listenerCount(user.toBase58())).toBe(0);
  });
});
