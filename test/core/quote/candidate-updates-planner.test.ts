// The planner with the real candidate store (api/quote/candidate-store.ts) over a 2-hop market:
// after random pools of either leg change, the next quote re-prices only the changed pools (it
// reads far fewer than every pool), its first legs keep exactly the pools a decision from scratch
// keeps, and its route pays what the route over every pool pays. Raydium CP pools in Raydium's
// layout in a plain map, the planner's rounds answered from it.
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { CandidateStore } from "../../../src/api/quote/candidate-store.js";
import { raydiumCpmmAdapter } from "../../../src/core/amm/raydium-cpmm.js";
import { marketOfAccount, pairKey } from "../../../src/core/quote/market.js";
import type { Market } from "../../../src/core/quote/market.js";
import type { CandidateDecision } from "../../../src/core/quote/pair-candidates.js";
import { createQuotePlanner } from "../../../src/core/quote/quote-planner.js";
import type { QuotePlan, SuppliedAccount } from "../../../src/core/quote/quote-planner.js";
import { parseQuoteRequest } from "../../../src/core/quote/quote-request.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { writeCpPool, writeMint } from "../../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../../src/localnet/cp-markets.js";
import { seededRandom } from "../../fixtures/seeded-random.js";

const CLOCK = new PublicKey("SysvarC1ock11111111111111111111111111111111");
const PER_LEG = 40;

class Accounts {
  readonly map = new Map<string, AccountData>();
  /** Addresses written since the last `take`: what the live cache would report as changed. */
  written: string[] = [];
  setAccount(address: PublicKey, a: { lamports: bigint; data: Uint8Array; owner: PublicKey; executable?: boolean }): void {
    this.map.set(address.toBase58(), { address, lamports: a.lamports, data: a.data, owner: a.owner, executable: a.executable ?? false });
    this.written.push(address.toBase58());
  }
}

function drive(plan: QuotePlan, chain: Accounts): { out: bigint | undefined; reads: number } {
  let reads = 0;
  for (let keys = plan.accountsNeeded(); keys.length > 0; keys = plan.accountsNeeded()) {
    reads += keys.length;
    plan.supply(new Map<string, SuppliedAccount>(keys.map((k) => [k.toBase58(), { account: chain.map.get(k.toBase58()) ?? null }])));
  }
  return { out: plan.route()?.outAmount, reads };
}

describe("candidate decisions updated through the planner and the store", () => {
  it("a 2-hop quote after random changes: first legs as decided from scratch, the same route, a fraction of the reads", () => {
    const next = seededRandom(23);
    const chain = new Accounts();
    chain.setAccount(CLOCK, { lamports: 1n, data: new Uint8Array(40), owner: new PublicKey("Sysvar1111111111111111111111111111111111111") });
    const [a, m, b] = ["updates a", "updates m", "updates b"].map((seed) => writeMint(chain, seed, 6)) as [LocalMint, LocalMint, LocalMint];
    const markets: Market[] = [];
    const write = (x: LocalMint, y: LocalMint, configIndex: number) => {
      const depth = 10n ** BigInt(6 + next(6)) * BigInt(1 + next(9));
      const pool = writeCpPool(chain, { x, y, reserveX: depth, reserveY: (depth * BigInt(50 + next(100))) / 100n, configIndex });
      return pool.pool.address;
    };
    const adapters = new Map([[raydiumCpmmAdapter.programId.toBase58(), raydiumCpmmAdapter]]);
    const legs: [LocalMint, LocalMint, number][] = [];
    for (let i = 0; i < PER_LEG; i++) legs.push([a, m, i], [m, b, PER_LEG + i]);
    for (const [x, y, i] of legs) {
      const market = marketOfAccount(adapters, chain.map.get(write(x, y, i).toBase58())!, "added");
      if (typeof market === "string") throw new Error(market);
      markets.push(market);
    }
    let listener: (address: string) => void = () => {};
    const store = new CandidateStore({ feed: { onChange: (l) => ((listener = l), () => {}), following: () => true }, pools: { pairRevision: () => 0 } });
    const options = { adapters: [raydiumCpmmAdapter], intermediateTokens: [m.address.toBase58()], limits: { maxPoolsPerPair: 4 } };
    const planner = createQuotePlanner(options);
    const request = parseQuoteRequest(
      { inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: "3000000", slippageBps: 50 },
      planner.labels,
    );
    const candidates = planner.candidatePairs(request, () => markets);
    const forPair = (x: string, y: string) => markets.filter((mk) => pairKey(mk.mints[0], mk.mints[1]) === pairKey(x, y));
    const quoteKept = () => {
      const session = store.begin(candidates.pairs);
      const decided = planner.decided(request, candidates, session);
      const listed = candidates.pairs.flatMap(([x, y]) => decided.get(pairKey(x, y))?.markets ?? forPair(x, y));
      const plan = planner.plan(request, candidates, listed, session);
      const result = drive(plan, chain);
      session.keep(plan.decisions());
      return { ...result, made: plan.decisions() };
    };
    const fromScratch = () => {
      const fresh = createQuotePlanner(options);
      const plan = fresh.plan(request, candidates, markets);
      return { ...drive(plan, chain), made: plan.decisions() };
    };
    const firstLegs = (made: readonly CandidateDecision[]) =>
      new Map(made.filter((d) => d.after === undefined && !d.key.includes("|via|")).map((d) => [d.key, [...d.kept].sort()]));

    const cold = quoteKept();
    expect(cold.made.length).toBe(2); // both legs decided
    chain.written = [];
    let updates = 0;
    let incremental = 0;
    for (let round = 0; round < 30; round++) {
      for (let k = 1 + next(3); k > 0; k--) write(...legs[next(legs.length)]);
      for (const address of chain.written) listener(address);
      chain.written = [];
      const kept = quoteKept();
      const scratch = fromScratch();
      expect(kept.out, `round ${round}`).toBe(scratch.out);
      // Unless a decision could not hold its range any more (decided again, as from scratch: too many
      // pools of near one price for the bucket), only the changed pools and the kept ones are read.
      if (kept.made.every((d) => d.update)) {
        expect(kept.reads, `round ${round}`).toBeLessThan(scratch.reads / 4);
        incremental += 1;
      }
      for (const [key, pools] of firstLegs(kept.made)) {
        expect(pools, `round ${round}`).toEqual(firstLegs(scratch.made).get(key));
        updates += 1;
      }
    }
    expect(updates).toBeGreaterThan(0);
    expect(incremental).toBeGreaterThan(20);
  });
});
