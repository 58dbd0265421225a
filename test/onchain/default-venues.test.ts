// Every venue out of the box: the service wired as `npm start` wires it (buildApp over loadConfig),
// pointed with SOLANA_RPC_URL alone at a chain holding the real programs and the 2026 SOL/USDC
// snapshots (Meteora DAMM v2, SolFi V2, HumidiFi) at their slot and time — no PROGRAM_QUOTED_AMMS,
// no MARKETS_FILE. The program quoter must be on by itself, HumidiFi quoted and executed through
// Jupiter v6, and routes must choose among the proprietary venues by what they pay.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { HUMIDIFI_PROGRAM_ID } from "../../src/core/amm/humidifi.js";
import { SOLFI_V2_PROGRAM_ID } from "../../src/core/amm/solfi-v2.js";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { createLogger } from "../../src/server/logger.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { LogCapture } from "../server/helpers.js";
import { JUP6, NATIVE_MINT } from "./onchain-stack.js";
import { executeQuote } from "./quoted-swap.js";

const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const CLOCK = { slot: 390_838_754, unixTimestamp: 1_767_360_940n };

const available = hasPrograms([JUP6.toBase58(), HUMIDIFI_PROGRAM_ID.toBase58(), SOLFI_V2_PROGRAM_ID.toBase58()]);
if (!available) console.warn("default venues test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6, SolFi V2 and HumidiFi binaries and accounts-2026/");

describe.skipIf(!available)("every venue out of the box (SOLANA_RPC_URL only)", () => {
  let localnet: Localnet;
  let service: Service;
  let dataDir: string;
  const logs = new LogCapture();
  const user = Keypair.generate();

  beforeAll(async () => {
    localnet = await startLocalnet({
      port: 0,
      programsDir: join(CHAIN_DIR!, "programs"),
      accountsDir: [join(CHAIN_DIR!, "accounts"), join(CHAIN_DIR!, "accounts-2026")],
      clock: CLOCK,
    });
    localnet.airdrop(user.publicKey, 10_000_000_000n);
    dataDir = await mkdtemp(join(tmpdir(), "swapd-venues-"));
    const config = loadConfig({ HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", SOLANA_RPC_URL: localnet.url, DATA_DIR: dataDir });
    expect(config.programQuote.amms).toBe("auto");
    service = await buildApp(config, { logger: createLogger("info", logs) });
  }, 120_000);
  afterAll(async () => {
    await service?.shutdown.run("test done");
    await localnet?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const res = await fetch(`${service.server.url}${path}`);
    return { status: res.status, body: await res.json() };
  };
  const quote = (inputMint: PublicKey, outputMint: PublicKey, amount: bigint, dexes?: string) =>
    get(
      `/swap/v1/quote?inputMint=${inputMint.toBase58()}&outputMint=${outputMint.toBase58()}&amount=${amount}&slippageBps=50${dexes ? `&dexes=${encodeURIComponent(dexes)}` : ""}`,
    );

  /** The quote landed by the user; what its output account received. */
  const execute = (quoteResponse: any): Promise<bigint> => executeQuote(localnet, service.server.url, user, quoteResponse);

  it("loads the program quoter by itself: HumidiFi and SolFi V2 are quoted, /readyz names nothing left out", async () => {
    const loaded = logs.lines.find((l) => String(l["msg"]).startsWith("program quoter loaded: these AMMs"));
    expect(loaded?.["amms"]).toEqual(expect.arrayContaining(["SolFi V2", "HumidiFi"]));
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    expect(JSON.stringify(ready.body)).not.toMatch(/left out/);
    const labels = await get("/swap/v1/program-id-to-label");
    expect(labels.body[HUMIDIFI_PROGRAM_ID.toBase58()]).toBe("HumidiFi");
  });

  it("dexes=HumidiFi, 1 SOL → USDC: quoted, executed through Jupiter within 10 bps of outAmount and above otherAmountThreshold", async () => {
    const q = await quote(NATIVE_MINT, USDC, 1_000_000_000n, "HumidiFi");
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body.routePlan.map((s: any) => s.swapInfo.label)).toEqual(["HumidiFi"]);
    const received = await execute(q.body);
    const out = BigInt(q.body.outAmount);
    expect(received).toBeGreaterThanOrEqual(BigInt(q.body.otherAmountThreshold));
    const gap = received > out ? received - out : out - received;
    console.log(`dexes=HumidiFi 1 SOL → USDC: outAmount ${out}, threshold ${q.body.otherAmountThreshold}, received ${received}`);
    expect(gap * 10_000n).toBeLessThanOrEqual(out * 10n);
  });

  it("100 USDC → SOL over dexes=HumidiFi,SolFi V2 pays at least the better of the two alone", async () => {
    const amount = 100_000_000n;
    const humidifi = await quote(USDC, NATIVE_MINT, amount, "HumidiFi");
    const solfi = await quote(USDC, NATIVE_MINT, amount, "SolFi V2");
    const both = await quote(USDC, NATIVE_MINT, amount, "HumidiFi,SolFi V2");
    for (const q of [humidifi, solfi, both]) expect(q.status, JSON.stringify(q.body)).toBe(200);
    const [h, s] = [BigInt(humidifi.body.outAmount), BigInt(solfi.body.outAmount)];
    expect(h).not.toBe(s);
    const better = h > s ? "HumidiFi" : "SolFi V2";
    console.log(
      `100 USDC → SOL: HumidiFi ${h}, SolFi V2 ${s}, both ${both.body.outAmount} via ${both.body.routePlan.map((r: any) => r.swapInfo.label).join("+")}`,
    );
    expect(BigInt(both.body.outAmount)).toBeGreaterThanOrEqual(h > s ? h : s);
    expect(both.body.routePlan.map((r: any) => r.swapInfo.label)).toContain(better);
    const received = await execute(both.body);
    expect(received).toBeGreaterThanOrEqual(BigInt(both.body.otherAmountThreshold));
  });

  it("2,000 SOL → USDC with no filter pays at least SolFi V2 alone, and executes", async () => {
    const amount = 2_000_000_000_000n;
    const solfi = await quote(NATIVE_MINT, USDC, amount, "SolFi V2");
    const all = await quote(NATIVE_MINT, USDC, amount);
    expect(solfi.status, JSON.stringify(solfi.body)).toBe(200);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(BigInt(all.body.outAmount)).toBeGreaterThanOrEqual(BigInt(solfi.body.outAmount));
    console.log(
      `2,000 SOL → USDC: SolFi V2 alone ${solfi.body.outAmount}, no filter ${all.body.outAmount} via ${all.body.routePlan.map((r: any) => `${r.swapInfo.label} ${r.percent}%`).join(" + ")}`,
    );
    const received = await execute(all.body);
    expect(received).toBeGreaterThanOrEqual(BigInt(all.body.otherAmountThreshold));
  });
});
