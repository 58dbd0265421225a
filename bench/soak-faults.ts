/**
 * The soak's fault schedule (`npm run soak -- --faults`): the chain runs here (the embedded
 * localnet with the demo content) and the service reaches it, and PostgreSQL, through real proxies
 * that misbehave on a schedule, as fractions of the run (10 min: the blackhole lasts 90 s):
 * - 15–30 %: PostgreSQL blackholed (TCP proxy: connections stay open, nothing passes);
 * - 35–45 %: the RPC answers HTTP 500 to everything (HTTP proxy);
 * - 50–60 %: the websocket frozen (TCP proxy blackholed: open, nothing passes; reconnects get no answer);
 * - 65–75 %: HTTP/2 rapid reset from 4 clients (bench/floods.ts);
 * - 75–100 %: recovery (nothing injected; from 80 % every call must succeed again).
 */
import { startLocalnet, type Localnet } from "../src/localnet/start-localnet.js";
import { seedDemo } from "../src/localnet/demo-seed.js";
import { startTcpProxy, type TcpProxy } from "../scripts/tcp-proxy.js";
import { rapidResetFlood, type FloodReport } from "./floods.js";
import { startRpcFaultProxy, type RpcFaultProxy } from "./rpc-fault-proxy.js";

export const FAULTS = [
  { name: "database blackhole", from: 0.15, to: 0.3 },
  { name: "RPC 500s", from: 0.35, to: 0.45 },
  { name: "websocket freeze", from: 0.5, to: 0.6 },
  { name: "HTTP/2 flood", from: 0.65, to: 0.75 },
] as const;
/** From here on every call must succeed (the last fault ended at 75 %). */
export const RECOVERED_FROM = 0.8;

export interface SoakFaults {
  /** Environment of the service: DATABASE_URL through the proxy, the chain's RPC and websocket through theirs. */
  readonly env: Record<string, string>;
  /** The fault active at `fraction` of the run, or "recovery" / "before faults". */
  phaseAt(fraction: number): string;
  /** Runs the schedule over `minutes` against the service's port; resolves at its end. */
  run(minutes: number, port: number, log: (line: string) => void): Promise<void>;
  readonly flood: FloodReport | undefined;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startSoakFaults(databaseUrl: string): Promise<SoakFaults> {
  const localnet: Localnet = await startLocalnet({});
  await seedDemo(localnet);
  const db = new URL(databaseUrl);
  const dbProxy: TcpProxy = await startTcpProxy(db.hostname, Number(db.port || 5432));
  const ws = new URL(localnet.websocketUrl);
  const wsProxy: TcpProxy = await startTcpProxy(ws.hostname, Number(ws.port));
  const rpcProxy: RpcFaultProxy = await startRpcFaultProxy(localnet.url);
  const proxiedDb = new URL(databaseUrl);
  proxiedDb.hostname = "127.0.0.1";
  proxiedDb.port = String(dbProxy.port);
  let flood: FloodReport | undefined;
  return {
    env: {
      DATABASE_URL: proxiedDb.toString(),
      SOLANA_RPC_URL: rpcProxy.url,
      SOLANA_WS_URL: `ws://127.0.0.1:${wsProxy.port}`,
      LIVE_SOURCE: "websocket",
    },
    phaseAt(fraction) {
      const fault = FAULTS.find((f) => fraction >= f.from && fraction < f.to);
      if (fault) return fault.name;
      return fraction < FAULTS[0].from ? "before faults" : fraction >= RECOVERED_FROM ? "recovery" : "between faults";
    },
    async run(minutes, port, log) {
      flood = await runSchedule(minutes, port, log, { dbProxy, rpcProxy, wsProxy });
    },
    get flood() {
      return flood;
    },
    async close() {
      await rpcProxy.close();
      await wsProxy.close();
      await dbProxy.close();
      await localnet.close();
    },
  };
}

/** Injects the faults at their times; resolves with what the flood clients saw. */
async function runSchedule(
  minutes: number,
  port: number,
  log: (line: string) => void,
  { dbProxy, rpcProxy, wsProxy }: { dbProxy: TcpProxy; rpcProxy: RpcFaultProxy; wsProxy: TcpProxy },
): Promise<FloodReport> {
  const total = minutes * 60_000;
  const started = Date.now();
  const until = async (fraction: number) => {
    const wait = started + fraction * total - Date.now();
    if (wait > 0) await sleep(wait);
  };
  const at = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const [db, rpc, ws, h2] = FAULTS;
  await until(db.from);
  log(`${at()}: fault: PostgreSQL blackholed`);
  dbProxy.blackhole();
  await until(db.to);
  dbProxy.restore();
  log(`${at()}: PostgreSQL path restored`);
  await until(rpc.from);
  log(`${at()}: fault: the RPC answers 500`);
  rpcProxy.failing = true;
  await until(rpc.to);
  rpcProxy.failing = false;
  log(`${at()}: RPC restored (${rpcProxy.failed} requests answered 500, ${rpcProxy.forwarded} forwarded so far)`);
  await until(ws.from);
  log(`${at()}: fault: websocket frozen`);
  wsProxy.blackhole();
  await until(ws.to);
  wsProxy.restore();
  log(`${at()}: websocket path restored`);
  await until(h2.from);
  log(`${at()}: fault: HTTP/2 rapid reset from 4 clients`);
  let stop = false;
  const flooding = rapidResetFlood(port, 4, () => stop);
  await until(h2.to);
  stop = true;
  const flood = await flooding;
  log(`${at()}: flood over: ${flood.sessions} sessions, GOAWAY codes ${JSON.stringify(flood.goaways)}, other session errors ${JSON.stringify(flood.errors)}`);
  return flood;
}
