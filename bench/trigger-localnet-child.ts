/**
 * Child-process entry of the trigger bench's chain: the real programs of SWAPD_CHAIN_DIR (Jupiter
 * v6, Raydium CP), the demo content, the 10 pairs of trigger-pairs.ts, and `TRIGGER_BENCH_TAKERS`
 * funded takers, each with a durable nonce account created by a real transaction (the one swapd's
 * CreateOrder issues, signed by the taker). The chain ticks a slot every `TRIGGER_BENCH_SLOT_MS`
 * (400 ms, a validator's slot time: a 1-lamport transfer lands), so slots measure time as on mainnet.
 * The service reaches it through a recording proxy (no delay) that timestamps every
 * `sendTransaction` as it arrives, with the chain's slot then.
 *
 * IPC (the protocol of localnet-child.ts, plus): `{ type: "move", pair, bps }` raises the pair's
 * TRIG-i vault by `bps` (one account write: the pool's price of SOL rises) → `{ type: "moved", slot, atMs }`;
 * `{ type: "tilt", pair, bps }` sets that vault `bps` above its amount at the pair's first tilt → `{ type: "tilted", slot, atMs }`;
 * `{ type: "sends" }` → `{ type: "sends", sends: [{ signature, slot, atMs }] }`. Times are this
 * process's `performance.now()`, so a write and an arrival compare on one clock.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import bs58 from "bs58";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { nonceAccountCreation } from "../src/core/nonce-trigger/transactions.js";
import { nonceAccountSeed } from "../src/core/solana/durable-nonce.js";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { writeCpPool, writeMint } from "../src/localnet/cp-markets.js";
import { seedDemo } from "../src/localnet/demo-seed.js";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import type { Localnet } from "../src/localnet/start-localnet.js";
import { startRpcDelayProxy } from "./rpc-delay-proxy.js";
import { PAIR_TOKEN_DECIMALS, POOL_SOL_RESERVE, POOL_TOKEN_RESERVE, TAKER_LAMPORTS, TRIGGER_PAIRS, pairTokenSeed, taker } from "./trigger-pairs.js";

if (!process.send) throw new Error("bench/trigger-localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);
const chainDir = process.env["SWAPD_CHAIN_DIR"];
if (!chainDir) throw new Error("SWAPD_CHAIN_DIR is not set");
const takers = Number(process.env["TRIGGER_BENCH_TAKERS"] ?? "1000");
const slotMs = Number(process.env["TRIGGER_BENCH_SLOT_MS"] ?? "400");

/** The TRIG-i vault of each pair (the account a move writes). */
const tokenVaults: PublicKey[] = [];

function seedPairs(localnet: Localnet): void {
  for (let pair = 0; pair < TRIGGER_PAIRS; pair++) {
    const token = writeMint(localnet, pairTokenSeed(pair), PAIR_TOKEN_DECIMALS);
    const pool = writeCpPool(localnet, {
      x: { address: NATIVE_MINT, decimals: 9 },
      y: token,
      reserveX: POOL_SOL_RESERVE,
      reserveY: POOL_TOKEN_RESERVE,
      configIndex: 0,
    });
    // Raydium orders a pool's mints by their bytes: vault A holds the lesser mint.
    const tokenFirst = Buffer.compare(token.address.toBuffer(), NATIVE_MINT.toBuffer()) < 0;
    tokenVaults.push((tokenFirst ? pool.vaultA : pool.vaultB).address);
  }
}

function seedTakers(localnet: Localnet): void {
  for (let i = 0; i < takers; i++) {
    const owner = taker(i);
    localnet.airdrop(owner.publicKey, TAKER_LAMPORTS);
    const tx = VersionedTransaction.deserialize(
      nonceAccountCreation(owner.publicKey, [nonceAccountSeed(0)], localnet.chain.latestBlockhash().blockhash).transaction,
    );
    tx.sign([owner]);
    localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: false });
  }
}

/** The TRIG-i vault amount of each pair when it was first tilted (what `tilt` sets relative to). */
const tiltBase = new Map<number, bigint>();

/** Sets the pair's token vault to `amount(now)` (one account write): the pool pays accordingly per SOL. */
function writeVault(localnet: Localnet, pair: number, amount: (now: bigint) => bigint): { slot: number; atMs: number } {
  const vault = tokenVaults[pair];
  const account = localnet.getAccount(vault)!;
  const data = Buffer.from(account.data);
  data.writeBigUInt64LE(amount(data.readBigUInt64LE(64)), 64);
  const atMs = performance.now();
  localnet.setAccount(vault, { lamports: account.lamports, data, owner: account.owner });
  return { slot: localnet.chain.slot, atMs };
}

/** Raises the pair's token vault by `bps` of what it holds: the pool pays more TRIG-i per SOL. */
function movePool(localnet: Localnet, pair: number, bps: number): { slot: number; atMs: number } {
  return writeVault(localnet, pair, (now) => (now * BigInt(10_000 + bps)) / 10_000n);
}

/** Sets the pair's token vault `bps` above what it held at its first tilt (0: back to it): a price event that fires nothing. */
function tiltPool(localnet: Localnet, pair: number, bps: number): { slot: number; atMs: number } {
  return writeVault(localnet, pair, (now) => {
    const base = tiltBase.get(pair) ?? now;
    tiltBase.set(pair, base);
    return (base * BigInt(10_000 + bps)) / 10_000n;
  });
}

/** The signature of a `sendTransaction` request's transaction (base64 or base58 wire). */
function sentSignature(body: Buffer): string | undefined {
  try {
    const call = JSON.parse(body.toString("utf8")) as { method?: string; params?: [string, { encoding?: string }?] };
    if (call.method !== "sendTransaction" || typeof call.params?.[0] !== "string") return undefined;
    const wire = call.params[1]?.encoding === "base64" ? Buffer.from(call.params[0], "base64") : Buffer.from(bs58.decode(call.params[0]));
    return bs58.encode(VersionedTransaction.deserialize(wire).signatures[0]);
  } catch {
    return undefined; // not a single JSON-RPC call (a batch): no send of the keeper's
  }
}

const localnet = await startLocalnet({ port: 0, programsDir: join(chainDir, "programs"), accountsDir: join(chainDir, "accounts") });
await seedDemo(localnet, [seedPairs]);
seedTakers(localnet);

const sends: { signature: string; slot: number; atMs: number }[] = [];
const proxy = await startRpcDelayProxy(localnet.url, localnet.websocketUrl, 0, (body) => {
  const atMs = performance.now();
  if (!body.includes("sendTransaction")) return;
  const signature = sentSignature(body);
  if (signature !== undefined) sends.push({ signature, slot: localnet.chain.slot, atMs });
});
const ticker = Keypair.generate().publicKey;
const tick = setInterval(() => localnet.airdrop(ticker, 1_000_000n), slotMs);

process.on("message", (message: { type?: string; pair?: number; bps?: number }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
  if (message?.type === "move") send({ type: "moved", ...movePool(localnet, message.pair!, message.bps!) });
  if (message?.type === "tilt") send({ type: "tilted", ...tiltPool(localnet, message.pair!, message.bps!) });
  if (message?.type === "sends") send({ type: "sends", sends });
});
process.on("disconnect", () => {
  clearInterval(tick);
  void proxy
    .close()
    .then(() => localnet.close())
    .finally(() => process.exit(0));
});
send({ type: "ready", url: proxy.url, websocketUrl: proxy.websocketUrl });
