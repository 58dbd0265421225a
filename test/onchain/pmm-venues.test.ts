// The proprietary venues of 2026 out of the box: the service wired as `npm start` wires it (buildApp
// over loadConfig, SOLANA_RPC_URL alone) on a chain holding the real Jupiter v6 binary and the
// `pmm-2026/` programs and pools (Tessera V, BisonFi, Obric V2, SolFi V2, HumidiFi), read within a few
// slots of each other, at the clock the chain folder's README verified for them. Every quote is
// executed through Jupiter: what the user's account receives is the judge.
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { createLogger } from "../../src/server/logger.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { LogCapture } from "../server/helpers.js";
import { JUP6, NATIVE_MINT } from "./onchain-stack.js";
import { executeQuote } from "./quoted-swap.js";

const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const USDT = new PublicKey("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB");
/** The chain folder README's clock for the `pmm-2026/` venues (the snapshot's vote account holds this pair). */
const CLOCK = { slot: 405_896_897, unixTimestamp: 1_773_311_354n };
const PMM = CHAIN_DIR ? join(CHAIN_DIR, "pmm-2026") : "";

const available = hasPrograms([JUP6.toBase58()]) && existsSync(join(PMM, "programs")) && existsSync(join(PMM, "accounts"));
if (!available) console.warn("proprietary venues test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 binary and pmm-2026/ (programs and accounts)");

/** Each venue alone: its label, a pair it holds and an amount of the pair's first mint. */
const VENUES: readonly { label: string; from: PublicKey; to: PublicKey; amount: bigint; back: bigint }[] = [
  { label: "HumidiFi", from: NATIVE_MINT, to: USDC, amount: 1_000_000_000n, back: 100_000_000n },
  { label: "TesseraV", from: NATIVE_MINT, to: USDC, amount: 1_000_000_000n, back: 100_000_000n },
  { label: "BisonFi", from: NATIVE_MINT, to: USDC, amount: 1_000_000_000n, back: 100_000_000n },
  { label: "Obric V2", from: USDT, to: USDC, amount: 100_000_000n, back: 100_000_000n },
  { label: "SolFi V2", from: NATIVE_MINT, to: USDC, amount: 1_000_000_000n, back: 100_000_000n },
];

/** The chain at the snapshot's clock with the service in front of it, as `npm start` wires it. */
interface Snapshot {
  readonly localnet: Localnet;
  readonly service: Service;
  readonly logs: LogCapture;
  /** A funded wallet of this check's own (its transactions differ from every other check's). */
  readonly user: Keypair;
}

async function get({ service }: Snapshot, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.server.url}${path}`);
  return { status: res.status, body: await res.json() };
}

function quote(snapshot: Snapshot, inputMint: PublicKey, outputMint: PublicKey, amount: bigint, dexes?: string) {
  const filter = dexes ? `&dexes=${encodeURIComponent(dexes)}` : "";
  return get(snapshot, `/swap/v1/quote?inputMint=${inputMint.toBase58()}&outputMint=${outputMint.toBase58()}&amount=${amount}&slippageBps=50${filter}`);
}

/** The quote landed by the check's wallet; what its output account received. */
const execute = ({ localnet, service, user }: Snapshot, quoteResponse: any): Promise<bigint> => executeQuote(localnet, service.server.url, user, quoteResponse);

/** Executes `q` and checks it paid within 10 bps of outAmount and at least otherAmountThreshold. */
async function expectPaysWhatItSays(snapshot: Snapshot, q: { status: number; body: any }, what: string): Promise<bigint> {
  expect(q.status, JSON.stringify(q.body)).toBe(200);
  const received = await execute(snapshot, q.body);
  const out = BigInt(q.body.outAmount);
  console.log(`${what}: outAmount ${out}, threshold ${q.body.otherAmountThreshold}, received ${received}`);
  expect(received).toBeGreaterThanOrEqual(BigInt(q.body.otherAmountThreshold));
  const gap = received > out ? received - out : out - received;
  expect(gap * 10_000n).toBeLessThanOrEqual(out * 10n);
  return received;
}

const short = (mint: PublicKey) => mint.toBase58().slice(0, 4);

describe.skipIf(!available)("the 2026 proprietary venues out of the box (SOLANA_RPC_URL only)", () => {
  let localnet: Localnet;
  let service: Service;
  let dataDir: string;
  const logs = new LogCapture();

  beforeAll(async () => {
    localnet = await startLocalnet({
      port: 0,
      // pmm-2026's SolFi V2 and HumidiFi builds replace the older ones of programs/ (binary and pools of one date).
      programsDir: [join(CHAIN_DIR!, "programs"), join(PMM, "programs")],
      accountsDir: [join(PMM, "accounts")],
      // The venues' prices go stale within a few slots (HumidiFi and BisonFi refuse or pay nothing ~5 slots on,
      // Tessera V moves from ~5 and refuses at ~20): every transaction lands in the snapshot's slot.
      clock: { ...CLOCK, holdSlot: true },
    });
    dataDir = await mkdtemp(join(tmpdir(), "swapd-pmm-venues-"));
    const config = loadConfig({ HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", SOLANA_RPC_URL: localnet.url, DATA_DIR: dataDir });
    service = await buildApp(config, { logger: createLogger("info", logs) });
  }, 120_000);
  afterAll(async () => {
    await service?.shutdown.run("test done");
    await localnet?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** This check's view of the chain and the service, with a funded wallet of its own. */
  function atSnapshotClock(): Snapshot {
    const user = Keypair.generate();
    localnet.airdrop(user.publicKey, 1_000_000_000n);
    expect(localnet.chain.slot).toBe(CLOCK.slot);
    return { localnet, service, logs, user };
  }

  for (const venue of VENUES) {
    it(`dexes=${venue.label}: both directions quoted alone and executed through Jupiter within 10 bps`, async () => {
      const snapshot = atSnapshotClock();
      const there = await quote(snapshot, venue.from, venue.to, venue.amount, venue.label);
      expect(there.status, JSON.stringify(there.body)).toBe(200);
      expect(there.body.routePlan.map((s: any) => s.swapInfo.label)).toEqual([venue.label]);
      await expectPaysWhatItSays(snapshot, there, `${venue.label} ${venue.amount} ${short(venue.from)} → ${short(venue.to)}`);
      const back = await quote(snapshot, venue.to, venue.from, venue.back, venue.label);
      expect(back.body.routePlan?.map((s: any) => s.swapInfo.label)).toEqual([venue.label]);
      await expectPaysWhatItSays(snapshot, back, `${venue.label} ${venue.back} ${short(venue.to)} → ${short(venue.from)}`);
    }, 60_000);
  }

  it("with no setting every venue is program-quoted; 1,000 SOL → USDC with no filter pays at least the best venue alone, splitting when a split pays more, and executes", async () => {
    const snapshot = atSnapshotClock();
    // Every venue is quoted by executing its program, with no setting, and listed under Jupiter's label.
    const loaded = snapshot.logs.lines.find((l) => String(l["msg"]).startsWith("program quoter loaded: these AMMs"));
    expect(loaded?.["amms"]).toEqual(expect.arrayContaining(VENUES.map((v) => v.label)));
    const labels = await get(snapshot, "/swap/v1/program-id-to-label");
    expect(labels.body["TessVdML9pBGgG9yGks7o4HewRaXVAMuoVj4x83GLQH"]).toBe("TesseraV");
    expect(labels.body["BiSoNHVpsVZW2F7rx2eQ59yQwKxzU5NvBcmKshCSUypi"]).toBe("BisonFi");
    expect(labels.body["obriQD1zbpyLz95G5n7nJe6a4DPjpFwa5XYPoNm113y"]).toBe("Obric V2");
    const amount = 1_000_000_000_000n;
    const alone: [string, bigint][] = [];
    for (const venue of VENUES.filter((v) => v.from.equals(NATIVE_MINT))) {
      const q = await quote(snapshot, NATIVE_MINT, USDC, amount, venue.label);
      if (q.status === 200) alone.push([venue.label, BigInt(q.body.outAmount)]);
    }
    expect(alone.length).toBe(4);
    const best = alone.reduce((a, b) => (b[1] > a[1] ? b : a));
    const all = await quote(snapshot, NATIVE_MINT, USDC, amount);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const plan = all.body.routePlan.map((r: any) => `${r.swapInfo.label} ${r.percent}%`).join(" + ");
    console.log(`1,000 SOL → USDC alone: ${alone.map(([l, o]) => `${l} ${o}`).join(", ")}; no filter ${all.body.outAmount} via ${plan}`);
    expect(BigInt(all.body.outAmount)).toBeGreaterThanOrEqual(best[1]);
    if (BigInt(all.body.outAmount) > best[1]) expect(all.body.routePlan.length).toBeGreaterThan(1);
    await expectPaysWhatItSays(snapshot, all, "1,000 SOL → USDC, no filter");
  }, 60_000);

  it("BisonFi splits with another venue as the route's last step (Jupiter's BisonFi step takes every account after it)", async () => {
    const snapshot = atSnapshotClock();
    const q = await quote(snapshot, NATIVE_MINT, USDC, 1_000_000_000_000n, "BisonFi,TesseraV");
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    const labels = q.body.routePlan.map((r: any) => r.swapInfo.label);
    expect(labels).toEqual(["TesseraV", "BisonFi"]);
    await expectPaysWhatItSays(snapshot, q, "1,000 SOL → USDC over BisonFi and TesseraV");
  }, 60_000);
});
