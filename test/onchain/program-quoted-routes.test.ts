// Program-quoted AMMs in swapd's own quotes: the Jan-2026 mainnet SolFi V2 SOL/USDC pool on the
// embedded chain at the pool's slot and time, the program quoter loaded the way the service loads
// it (binaries read over JSON-RPC from the chain's programdata accounts), `GET /swap/v1/quote` with
// `dexes=SolFi V2`, then swap-instructions, signed and sent through the real Jupiter v6 program.
// The wallet must receive at least `otherAmountThreshold`, and exactly `outAmount` here (nothing
// else lands between the quote and the swap, so the program prices both at the same slot).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProgramQuoter } from "../../src/chain/program-quoter-start.js";
import type { RunningProgramQuoter } from "../../src/chain/program-quoter-start.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { SOLFI_V2_PROGRAM_ID } from "../../src/core/amm/solfi-v2.js";
import { hasPrograms } from "../fixtures/chain-dir.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const POOL = "65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc";
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const CLOCK = { slot: 390_838_754, unixTimestamp: 1_767_360_940n };

const available = hasPrograms([JUP6.toBase58(), SOLFI_V2_PROGRAM_ID.toBase58()]);
if (!available) console.warn("program-quoted routes test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and SolFi V2 binaries and accounts-2026/");

describe.skipIf(!available)("quotes through program-quoted AMMs (SolFi V2)", () => {
  let stack: OnchainStack;
  let quoter: RunningProgramQuoter;
  let cacheDir: string;
  const user = Keypair.generate();

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), "swapd-programs-"));
    // The quoter needs the chain before the API: a first stack only to read the binaries would be a
    // second chain, so the API is made with a quoter that loads from this chain's RPC right after.
    stack = await startOnchainStack({
      accountFolders: ["accounts", "accounts-2026"],
      clock: CLOCK,
      quote: {
        programQuotes: {
          canQuote: (adapter) => quoter?.quoter.canQuote(adapter) ?? false,
          accountsNeeded: (...args) => quoter.quoter.accountsNeeded(...args),
          quote: (...args) => quoter.quoter.quote(...args),
        },
      },
    });
    quoter = (await startProgramQuoter({
      chain: new RpcSolanaChain({ url: stack.localnet.url }),
      amms: ["SolFi V2"],
      adapters: ammAdapters,
      cacheDir,
      logger: pino({ level: "silent" }),
    }))!;
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    quoter?.close();
    await stack?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("loads SolFi V2 and Jupiter v6 from the chain", () => {
    expect(quoter.labels).toEqual(["SolFi V2"]);
  });

  for (const [name, inputMint, outputMint, amount] of [
    ["1 SOL → USDC", NATIVE_MINT, USDC, 1_000_000_000n],
    ["250 USDC → SOL", USDC, NATIVE_MINT, 250_000_000n],
  ] as const) {
    it(`${name} with dexes=SolFi V2: quoted by the program, executed through Jupiter, pays outAmount`, async () => {
      const q = await stack.get(
        `/swap/v1/quote?inputMint=${inputMint.toBase58()}&outputMint=${outputMint.toBase58()}&amount=${amount}&slippageBps=10&dexes=${encodeURIComponent("SolFi V2")}`,
      );
      expect(q.status).toBe(200);
      expect(q.body.routePlan.map((s: any) => [s.swapInfo.label, s.swapInfo.ammKey])).toEqual([["SolFi V2", POOL]]);
      expect(BigInt(q.body.contextSlot)).toBeGreaterThanOrEqual(BigInt(CLOCK.slot));
      const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, amount);
      const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
      await stack.swap(user, q.body);
      const received = tokenBalance(stack.localnet, destination);
      expect(tokenBalance(stack.localnet, source)).toBe(0n);
      expect(received).toBeGreaterThanOrEqual(BigInt(q.body.otherAmountThreshold));
      expect(received).toBe(BigInt(q.body.outAmount));
      await stack.restoreSnapshots();
    });
  }

  it("names SolFi V2 among the labels, and refuses ExactOut through it with no route", async () => {
    const labels = await stack.get("/swap/v1/program-id-to-label");
    expect(labels.body[SOLFI_V2_PROGRAM_ID.toBase58()]).toBe("SolFi V2");
    const q = await stack.get(
      `/swap/v1/quote?inputMint=${NATIVE_MINT.toBase58()}&outputMint=${USDC.toBase58()}&amount=1000000&swapMode=ExactOut&dexes=${encodeURIComponent("SolFi V2")}`,
    );
    expect(q.status).toBeGreaterThanOrEqual(400);
  });

  /** GET /swap/v1/quote SOL → USDC (ExactIn) through `dexes`, or every venue without it. */
  async function quote(amount: bigint, dexes?: string): Promise<any> {
    const filter = dexes ? `&dexes=${encodeURIComponent(dexes)}` : "";
    const q = await stack.get(`/swap/v1/quote?inputMint=${NATIVE_MINT.toBase58()}&outputMint=${USDC.toBase58()}&amount=${amount}&slippageBps=10${filter}`);
    return q;
  }

  it("with no filter, 1 SOL → USDC is at least every single venue's own quote (Whirlpool, Meteora DAMM v2, SolFi V2)", async () => {
    const all = await quote(1_000_000_000n);
    expect(all.status).toBe(200);
    const venues: Record<string, bigint> = {};
    for (const venue of ["Whirlpool", "Meteora DAMM v2", "SolFi V2"]) {
      const one = await quote(1_000_000_000n, venue);
      expect(one.status, venue).toBe(200);
      venues[venue] = BigInt(one.body.outAmount);
      expect(BigInt(all.body.outAmount), venue).toBeGreaterThanOrEqual(venues[venue]);
    }
    // The 2026 venues price SOL near 128 USDC, the 2022 Whirlpool near 40: the best is a 2026 one.
    expect(BigInt(all.body.outAmount)).toBeGreaterThan(venues["Whirlpool"] * 3n);
  });

  it("2,000 SOL → USDC: at least any split between DAMM v2 and SolFi V2 (in 10 % steps), split when that pays more, and executes", async () => {
    // On these snapshots SolFi V2 alone pays more than any split up to at least 20,000 SOL (its
    // oracle price holds; the DAMM v2 pool is shallower): the route must then be SolFi V2 alone.
    const amount = 2_000_000_000_000n;
    const all = await quote(amount);
    expect(all.status).toBe(200);
    const outOf = async (part: bigint, venue: string) => (part === 0n ? 0n : BigInt((await quote(part, venue)).body.outAmount ?? 0));
    let bestSplit = 0n;
    let bestSingle = 0n;
    for (let tenth = 0n; tenth <= 10n; tenth++) {
      const toDamm = (amount * tenth) / 10n;
      const total = (await outOf(toDamm, "Meteora DAMM v2")) + (await outOf(amount - toDamm, "SolFi V2"));
      if (tenth === 0n || tenth === 10n) bestSingle = total > bestSingle ? total : bestSingle;
      else bestSplit = total > bestSplit ? total : bestSplit;
    }
    const routed = BigInt(all.body.outAmount);
    expect(routed).toBeGreaterThanOrEqual(bestSingle);
    expect(routed).toBeGreaterThanOrEqual(bestSplit);
    const labels = new Set(all.body.routePlan.map((s: any) => s.swapInfo.label));
    if (bestSplit > bestSingle) expect(labels.size, [...labels].join(", ")).toBeGreaterThanOrEqual(2);
    const source = fundTokenAccount(stack.localnet, user.publicKey, NATIVE_MINT, amount);
    const destination = fundTokenAccount(stack.localnet, user.publicKey, USDC, 0n);
    await stack.swap(user, all.body);
    const received = tokenBalance(stack.localnet, destination);
    expect(tokenBalance(stack.localnet, source)).toBe(0n);
    expect(received).toBeGreaterThanOrEqual(BigInt(all.body.otherAmountThreshold));
    // Within 10 bps of the quote (SolFi V2's price moves with the slot and the transaction's shape).
    const out = BigInt(all.body.outAmount);
    const gap = received > out ? received - out : out - received;
    expect(gap * 10_000n).toBeLessThanOrEqual(out * 10n);
    await stack.restoreSnapshots();
  });
});
