// DAMM v2 quotes are exact on the real program: the Jan-2026 mainnet SOL/USDC pool of
// SWAPD_CHAIN_DIR/accounts-2026 on the embedded chain with the cp-amm binary, its clock set to the
// snapshot's time. GET /swap/v1/quote with `dexes=Meteora DAMM v2` (the pool found by pair
// discovery, not configured) → POST /swap/v1/swap-instructions → sign → send through the real
// Jupiter v6 program: with nothing in between, the user receives exactly `outAmount`, for 1 SOL,
// 2,000 SOL and random amounts both ways.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METEORA_DAMM_V2_PROGRAM_ID } from "../../src/core/amm/meteora-damm-v2.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const POOL = new PublicKey("8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
/** The pool and its two vaults, as the chain folder's README lists them. */
const SNAPSHOT = [
  "8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie",
  "sx8hCMCauCdbZ7sVBGSJmH7b7JmtuN8d8YwYmBpuPLH",
  "8S8HjmPZr8tNNEmMj5pcqS5RN73uF6DmcUDEDaoUQ1Ei",
];
/** The snapshot's clock (the chain folder's README). */
const SNAPSHOT_UNIX_TIME = 1_767_360_940n;
const SNAPSHOT_SLOT = 390_838_754n;

const ready = hasPrograms([JUP6.toBase58(), METEORA_DAMM_V2_PROGRAM_ID.toBase58()]);
if (!ready)
  console.warn(
    "DAMM v2 quote exactness skipped: needs SWAPD_CHAIN_DIR with programs/cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG.so, Jupiter v6 and accounts-2026/",
  );

/** A deterministic generator (mulberry32) for the amounts. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(!ready)("Meteora DAMM v2: /quote pays exactly its outAmount on the real program", () => {
  let stack: OnchainStack;
  const user = Keypair.generate();

  /** The pool and vaults as in the snapshot (each trade moves them). */
  function restorePool(): void {
    for (const address of SNAPSHOT) {
      const { account } = JSON.parse(readFileSync(join(CHAIN_DIR!, "accounts-2026", `${address}.json`), "utf8"));
      stack.localnet.setAccount(new PublicKey(address), {
        lamports: BigInt(account.lamports),
        data: Buffer.from(account.data[0], "base64"),
        owner: new PublicKey(account.owner),
      });
    }
  }

  beforeAll(async () => {
    stack = await startOnchainStack({ quote: {} });
    restorePool();
    const clock = stack.localnet.chain.svm.getClock();
    clock.unixTimestamp = SNAPSHOT_UNIX_TIME;
    clock.slot = SNAPSHOT_SLOT;
    stack.localnet.chain.svm.setClock(clock);
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const balance = (mint: PublicKey) => tokenBalance(stack.localnet, getAssociatedTokenAddressSync(mint, user.publicKey, true));

  /** /quote (DAMM v2 only) → /swap-instructions → send from the snapshot's state; the quote and what arrived. */
  async function quoteAndSwap(inputMint: PublicKey, outputMint: PublicKey, amount: bigint) {
    restorePool();
    fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 16n);
    fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
    const query = new URLSearchParams({
      inputMint: inputMint.toBase58(),
      outputMint: outputMint.toBase58(),
      amount: String(amount),
      slippageBps: "0",
      dexes: "Meteora DAMM v2",
      onlyDirectRoutes: "true",
    });
    const quote = await stack.get(`/swap/v1/quote?${query}`);
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.routePlan.map((s: any) => [s.swapInfo.label, s.swapInfo.ammKey])).toEqual([["Meteora DAMM v2", POOL.toBase58()]]);
    await stack.swap(user, quote.body);
    return { quote: quote.body, spent: 10n ** 16n - balance(inputMint), received: balance(outputMint) };
  }

  it("1 SOL → USDC and 2,000 SOL → USDC: received exactly outAmount", async () => {
    for (const amount of [1_000_000_000n, 2_000_000_000_000n]) {
      const { quote, spent, received } = await quoteAndSwap(NATIVE_MINT, USDC, amount);
      expect(spent).toBe(amount);
      expect(received).toBe(BigInt(quote.outAmount));
      // The fee is taken from the output (collect mode 0), in USDC.
      expect(quote.routePlan[0].swapInfo.feeMint).toBe(USDC.toBase58());
    }
  });

  it("random amounts both ways: received exactly outAmount", async () => {
    const next = random(22);
    for (let i = 0; i < 12; i++) {
      const sell = i % 2 === 0;
      // SOL: 10⁴ lamports to 1,000 SOL; USDC: 0.01 to 100,000 USDC (log-uniform).
      const amount = BigInt(Math.floor(10 ** (4 + next() * (sell ? 8 : 7))));
      const [inputMint, outputMint] = sell ? [NATIVE_MINT, USDC] : [USDC, NATIVE_MINT];
      const { quote, spent, received } = await quoteAndSwap(inputMint, outputMint, amount);
      expect({ spent, received }, `${sell ? "SOL → USDC" : "USDC → SOL"} ${amount}`).toEqual({ spent: amount, received: BigInt(quote.outAmount) });
    }
  });
});
