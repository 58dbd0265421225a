/**
 * `npm run bench:subscriptions -- [notifications]` (default 50,000): what a pool write announced by
 * the market subscriptions costs the service. On mainnet every swap of every pool of a subscribed
 * program is announced, almost all of pools already known. A PubSub server in a child process
 * (its sending is not counted) confirms the `programSubscribe` requests and then sends N
 * `programNotification`s of one Raydium CP pool (637 bytes, base64) as fast as the socket takes
 * them, twice: to a no-op client that only counts messages, and to the service's
 * `ProgramSubscriptions` + `SubscriptionSource` (the pool known after the first: parsed, recognised
 * by address, not decoded). Prints this process's CPU µs per notification for both and the ratio.
 */
import { fork } from "node:child_process";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Keypair } from "@solana/web3.js";
import WebSocket, { WebSocketServer } from "ws";
import { SubscriptionSource } from "../src/chain/market-subscription-source.js";
import { messageText } from "../src/chain/websocket-message-text.js";
import { searchLayoutOf } from "../src/chain/market-pool-layouts.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { demoRaydiumCpmmPool } from "../src/localnet/raydium-cpmm-demo-pool.js";

const count = Number(process.argv[2] ?? 50_000);

/** The child: a PubSub server sending `count` notifications once every subscription is confirmed. */
async function serve(): Promise<void> {
  const pool = demoRaydiumCpmmPool({
    mintA: Keypair.generate().publicKey,
    mintB: Keypair.generate().publicKey,
    decimalsA: 6,
    decimalsB: 9,
    reserveA: 10n ** 12n,
    reserveB: 10n ** 12n,
    configIndex: 0,
  });
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  server.on("connection", (socket) => {
    let next = 1;
    socket.on("message", (raw) => {
      const request = JSON.parse(messageText(raw)) as { id: number; method: string };
      if (request.method !== "programSubscribe") return;
      const subscription = next++;
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: subscription }));
      if (subscription !== 1) return;
      const account = {
        data: [Buffer.from(pool.pool.data).toString("base64"), "base64"],
        executable: false,
        lamports: Number(pool.pool.lamports),
        owner: pool.pool.owner.toBase58(),
        rentEpoch: 0,
        space: pool.pool.data.length,
      };
      const text = JSON.stringify({
        jsonrpc: "2.0",
        method: "programNotification",
        params: { result: { context: { slot: 1 }, value: { pubkey: pool.pool.address.toBase58(), account } }, subscription },
      });
      for (let i = 0; i < count; i++) socket.send(text);
    });
  });
  process.send!((server.address() as AddressInfo).port);
}

async function startServer(): Promise<{ url: string; stop(): void }> {
  const child = fork(fileURLToPath(import.meta.url), [String(count), "--serve"], { execArgv: ["--import", "tsx"] });
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  return { url: `ws://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** CPU µs of this process per notification while `run` receives `count` of them. */
async function cpuPerNotification(run: (done: () => void) => () => void): Promise<number> {
  const before = process.cpuUsage();
  await new Promise<void>((resolve) => {
    const close = run(() => {
      close();
      resolve();
    });
  });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

async function main(): Promise<void> {
  const server = await startServer();
  const noop = await cpuPerNotification((done) => {
    const socket = new WebSocket(server.url);
    let seen = 0;
    socket.on("open", () => socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "programSubscribe", params: [] })));
    socket.on("message", () => {
      if (++seen === count + 1) done();
    });
    return () => socket.terminate();
  });
  const cp = ammAdapters.find((a) => a.label === "Raydium CP")!;
  const adapters = new Map(ammAdapters.map((a) => [a.programId.toBase58(), a]));
  let poolsHeld = 0;
  const service = await cpuPerNotification((done) => {
    let seen = 0;
    const source = new SubscriptionSource({
      adapters,
      onError: () => {}, // nothing fails here; a failure would show as a missing count
      changed: () => {},
      knownElsewhere: () => false,
      closed: () => {},
    });
    const account = source.account.bind(source);
    source.account = (address, data) => {
      account(address, data);
      if (++seen === count) done();
    };
    source.start(server.url, [{ adapter: cp, layout: searchLayoutOf(cp)! }]);
    return () => {
      poolsHeld = source.status().pools;
      source.close();
    };
  });
  server.stop();
  process.stdout.write(
    `${JSON.stringify({ notifications: count, noopCpuUsPerNotification: +noop.toFixed(2), serviceCpuUsPerNotification: +service.toFixed(2), ratio: +(service / noop).toFixed(2), poolsHeld })}\n`,
  );
}

if (process.argv.includes("--serve")) await serve();
else await main();
