// The program quoter on SolFi V2's real binary and Jupiter v6's, with the Jan-2026 mainnet SOL/USDC
// pool (SWAPD_CHAIN_DIR/accounts-2026). The expected amount is the chain folder's own measurement
// (a Jupiter `route` of 1 SOL paid 128.219184 USDC); test/onchain/solfi-v2.test.ts holds the quoter
// against swaps sent through swapd and executed, at random amounts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ProgramQuoter } from "../../src/chain/program-quoter.js";
import { solFiV2Adapter } from "../../src/core/amm/solfi-v2.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { encodeMintAccount } from "../../src/core/solana/token-accounts.js";

const SOLFI_V2 = "SV2EYYJyRz2YhfXwXnhNAevDEui5Q6yrfyo13WtupPF";
const POOL = new PublicKey("65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc");
const ORACLE = new PublicKey("2ny7eGyZCoeEVTkNLf5HcnJFBKkyA4p4gcrtb3b8y8ou");
const PROGRAM_STATE = new PublicKey("FmxXDSR9WvpJTCh738D1LEDuhMoA8geCtZgHb3isy7Dp");
const SOL_VAULT = new PublicKey("CRo8DBwrmd97DJfAnvCv96tZPL5Mktf2NZy2ZnhDer1A");
const USDC_VAULT = new PublicKey("GhFfLFSprPpfoRaWakPMmJTMJBHuz6C694jYwxy2dAic");
const SOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
/** The pool's stored slot and the snapshot's time (chain folder README). */
const SLOT = 390_838_754n;
const UNIX_TIME = 1_767_360_940n;

const JUP6 = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";
const JUPITER_EVENT_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], new PublicKey(JUP6))[0].toBase58();
const available = hasPrograms([SOLFI_V2, JUP6]);
if (!available) console.warn(`program quoter test skipped: needs SWAPD_CHAIN_DIR with programs/{${SOLFI_V2},${JUP6}}.so and accounts-2026/`);

function snapshot(dir: string, address: PublicKey): AccountData {
  const json = JSON.parse(readFileSync(join(dir, `${address.toBase58()}.json`), "utf8"));
  return {
    address,
    owner: new PublicKey(json.account.owner),
    lamports: BigInt(json.account.lamports),
    data: new Uint8Array(Buffer.from(json.account.data[0], "base64")),
    executable: false,
  };
}

function nativeMint(): AccountData {
  const data = encodeMintAccount(9, null, 0n);
  return { address: SOL, owner: TOKEN_PROGRAM_ID, lamports: 1_000_000_000n, data, executable: false };
}

describe.skipIf(!available)("program quoter: SolFi V2 on its own program", () => {
  let dir: string;
  let state: AccountData[];
  let accounts: Map<string, AccountData | null>;
  const quoter = new ProgramQuoter();

  beforeAll(() => {
    dir = join(CHAIN_DIR!, "accounts-2026");
    state = [POOL, ORACLE, PROGRAM_STATE, SOL_VAULT, USDC_VAULT].map((a) => snapshot(dir, a));
    state.push(nativeMint(), snapshot(join(CHAIN_DIR!, "accounts"), USDC));
    accounts = new Map<string, AccountData | null>(state.map((a) => [a.address.toBase58(), a]));
    // Jupiter's event-authority PDA holds no account on chain: read and found missing.
    accounts.set(JUPITER_EVENT_AUTHORITY, null);
    for (const program of [SOLFI_V2, JUP6]) {
      quoter.addProgram(new PublicKey(program), new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${program}.so`))));
    }
  });

  function quote(amount: bigint, aToB: boolean, slot = SLOT + 1n, unixTimestamp = UNIX_TIME + 1n) {
    const pool = solFiV2Adapter.decodePool(accounts.get(POOL.toBase58())!);
    return quoter.quote(solFiV2Adapter, pool, { amount, swapMode: "ExactIn", aToB }, accounts, { slot, unixTimestamp });
  }

  it("names the accounts it needs: the step's and the mints, none of the programs or sysvars", () => {
    const pool = solFiV2Adapter.decodePool(accounts.get(POOL.toBase58())!);
    const needed = quoter.accountsNeeded(solFiV2Adapter, pool, { amount: 1n, swapMode: "ExactIn", aToB: true }, new Map());
    expect(needed.map((k) => k.toBase58()).sort()).toEqual([...state.map((a) => a.address.toBase58()), JUPITER_EVENT_AUTHORITY].sort());
    expect(quoter.accountsNeeded(solFiV2Adapter, pool, { amount: 1n, swapMode: "ExactIn", aToB: true }, accounts)).toEqual([]);
  });

  it("quotes 1 SOL → USDC as the chain folder measured it through Jupiter (128.219184 USDC)", () => {
    const q = quote(1_000_000_000n, true);
    expect(q).toMatchObject({ inAmount: 1_000_000_000n, outAmount: 128_219_184n, complete: true });
    expect(q.unitsConsumed).toBeGreaterThan(50_000);
  });

  it("moves with the slot, as the program prices by its oracle's age", () => {
    expect(quote(100_000_000n, false, SLOT + 1n).outAmount).not.toBe(quote(100_000_000n, false, SLOT + 47n).outAmount);
  });

  it("answers a repeated quote from its memo; a stale slot is an incomplete quote with the program's error; a missing account is an AmmError", () => {
    const a = quote(1_000_000_000n, true);
    expect(quote(1_000_000_000n, true)).toBe(a);
    const stale = quote(1_000_000_000n, true, SLOT + 10_000n);
    expect(stale.complete).toBe(false);
    expect(stale.reason).toMatch(/refused/);
    const pool = solFiV2Adapter.decodePool(accounts.get(POOL.toBase58())!);
    const partial = new Map(accounts);
    partial.delete(ORACLE.toBase58());
    expect(() =>
      quoter.quote(solFiV2Adapter, pool, { amount: 5n, swapMode: "ExactIn", aToB: true }, partial, { slot: SLOT, unixTimestamp: UNIX_TIME }),
    ).toThrow(/2ny7eGyZCoeEVTkNLf5HcnJFBKkyA4p4gcrtb3b8y8ou/);
  });

  it("prices anew once a state account changes, even in the same account map and for the same pool object: a USDC vault holding 1 USDC cannot pay 1 SOL's 128 USDC", () => {
    // One decoded pool throughout, as the planner keeps one per pool account version.
    const pool = solFiV2Adapter.decodePool(accounts.get(POOL.toBase58())!);
    const clock = { slot: SLOT + 1n, unixTimestamp: UNIX_TIME + 1n };
    const oneSol = () => quoter.quote(solFiV2Adapter, pool, { amount: 1_000_000_000n, swapMode: "ExactIn", aToB: true }, accounts, clock);
    const full = oneSol();
    expect(full.outAmount).toBe(128_219_184n);
    expect(oneSol()).toBe(full);
    const vault = accounts.get(USDC_VAULT.toBase58())!;
    const drained = new Uint8Array(vault.data);
    Buffer.from(drained.buffer).writeBigUInt64LE(1_000_000n, 64); // SPL token account amount
    try {
      accounts.set(USDC_VAULT.toBase58(), { ...vault, data: drained });
      const q = oneSol();
      expect(q.complete).toBe(false);
      expect(q.reason).toMatch(/refused/);
    } finally {
      accounts.set(USDC_VAULT.toBase58(), vault);
    }
    expect(oneSol()).toBe(full); // the first state again: its memo
  });
});

describe.skipIf(!available)("program quoter: ladders of quotes in worker threads", () => {
  it("a ladder run in two worker threads pays what the chain folder measured, and what the in-thread SVM pays at each amount", async () => {
    const dir = join(CHAIN_DIR!, "accounts-2026");
    const state = [POOL, ORACLE, PROGRAM_STATE, SOL_VAULT, USDC_VAULT].map((a) => snapshot(dir, a));
    state.push(nativeMint(), snapshot(join(CHAIN_DIR!, "accounts"), USDC));
    const accounts = new Map<string, AccountData | null>(state.map((a) => [a.address.toBase58(), a]));
    accounts.set(JUPITER_EVENT_AUTHORITY, null);
    const inThread = new ProgramQuoter();
    const threaded = new ProgramQuoter({ workers: 2 });
    try {
      for (const program of [SOLFI_V2, JUP6]) {
        const elf = new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${program}.so`)));
        inThread.addProgram(new PublicKey(program), elf);
        threaded.addProgram(new PublicKey(program), elf);
      }
      const pool = solFiV2Adapter.decodePool(accounts.get(POOL.toBase58())!);
      const clock = { slot: SLOT + 1n, unixTimestamp: UNIX_TIME + 1n };
      const amounts = [1_000_000_000n, 10_000_000n, 123_456_789n, 5_000_000_000n, 77n];
      // Two ladders at once: the two threads each take one.
      const [ladder, again] = await Promise.all([
        threaded.quoteMany(solFiV2Adapter, pool, { amount: 0n, swapMode: "ExactIn", aToB: true }, accounts, clock, amounts),
        threaded.quoteMany(solFiV2Adapter, pool, { amount: 0n, swapMode: "ExactIn", aToB: true }, accounts, clock, [...amounts].reverse()),
      ]);
      expect(ladder[0]).toMatchObject({ inAmount: 1_000_000_000n, outAmount: 128_219_184n, complete: true });
      for (let i = 0; i < amounts.length; i++) {
        const one = inThread.quote(solFiV2Adapter, pool, { amount: amounts[i], swapMode: "ExactIn", aToB: true }, accounts, clock);
        expect({ out: ladder[i].outAmount, complete: ladder[i].complete }).toEqual({ out: one.outAmount, complete: one.complete });
        expect(again[amounts.length - 1 - i].outAmount).toBe(one.outAmount);
      }
    } finally {
      await threaded.close();
    }
  }, 60_000);
});
