// The hot path's round trips, counted by the real chain client (chain.stats()) and by the
// localnet's RPC server. With the chain-state cache off (CHAIN_STATE_TTL_MS=0): one round trip per
// request with warm immutable caches; dynamicComputeUnitLimit adds exactly one simulation, and a
// failed simulation comes back as `simulationError`. With it on (the last block): no round trip
// for a warm repeated request until the TTL lapses, then exactly one.
import * as grpc from "@grpc/grpc-js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { AddressLookupTableProgram, Keypair, PublicKey, Transaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSwapApi } from "../../src/api/swap-api.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import { DEMO_RAYDIUM_CP_SOL_USDC } from "../../src/localnet/demo-pools.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { carbonAccount } from "../core/amm/reference-fixtures.js";
import { DEMO_POOL, SOL, USDC, WALLET, demoSolToUsdc, jupiterQuote, keysRead, recording, startSwapStack, toProtoJson } from "./swap-stack.js";
import type { RecordedReadBatch, SwapStack } from "./swap-stack.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";
import { encodeMintAccount } from "../../src/core/solana/token-accounts.js";

// A real mainnet Meteora DLMM pair (pump token X / SOL Y) from the carbon fixtures: its adapter
// needs one account derived from the pair (the bitmap extension PDA), i.e. a second batch.
const LB_PAIR = new PublicKey("FwwjuDSCZGRqB4ngwZd4zqjvLdbykU7PQaFTzocSAxmt");
const PUMP = "FzytSxQv6nBgH3dByVJtgMVg6rANTZaZPzU6dcRbpump";
const DLMM = new PublicKey("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo");
const EXTENSION = PublicKey.findProgramAddressSync([Buffer.from("bitmap"), LB_PAIR.toBuffer()], DLMM)[0];

function seedDlmm(localnet: Localnet): void {
  const pair = carbonAccount("meteora-dlmm-decoder/lb_pair_account.json", LB_PAIR);
  localnet.setAccount(LB_PAIR, { lamports: pair.lamports, data: pair.data, owner: pair.owner });
  const mint = encodeMintAccount(6, null, 0n);
  localnet.setAccount(new PublicKey(PUMP), { lamports: 1_461_600n, data: mint, owner: new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") });
}

/** A real lookup table, created and extended on the localnet by the demo wallet's transactions. */
function createLookupTable(localnet: Localnet, addresses: PublicKey[]): PublicKey {
  const chain = localnet.chain;
  const [create, table] = AddressLookupTableProgram.createLookupTable({
    authority: DEMO_WALLET.publicKey,
    payer: DEMO_WALLET.publicKey,
    recentSlot: chain.slot,
  });
  const extend = AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: DEMO_WALLET.publicKey, payer: DEMO_WALLET.publicKey, addresses });
  for (const ix of [create, extend]) {
    const tx = new Transaction({ feePayer: DEMO_WALLET.publicKey, ...chain.latestBlockhash() }).add(ix);
    tx.sign(DEMO_WALLET);
    chain.sendTransaction(tx.serialize(), { skipPreflight: false });
  }
  return table;
}

let stack: SwapStack;
beforeAll(async () => {
  // Chain-state cache off: every request reads the user's accounts and the fees (the last block turns it on).
  stack = await startSwapStack({ extraSeeders: [seedDlmm], chainStateTtlMs: 0 });
});
afterAll(async () => {
  await stack?.close();
});

function counters() {
  const s = stack.chain.stats();
  return { roundTrips: s.roundTrips, simulations: s.roundTripsByMethod.simulateTransaction ?? 0, localnetHttp: stack.localnet.stats().httpRequests };
}

function delta(before: ReturnType<typeof counters>) {
  const now = counters();
  return {
    roundTrips: now.roundTrips - before.roundTrips,
    simulations: now.simulations - before.simulations,
    localnetHttp: now.localnetHttp - before.localnetHttp,
  };
}

const readKeys = (i: number) => keysRead(stack.batches[i]);

describe("round trips", () => {
  test("cold: pool, mints, user accounts, fees and blockhash in ONE batch; warm: one round trip without pool or mints", async () => {
    const first = stack.batches.length;
    let before = counters();
    const cold = await stack.rest(demoSolToUsdc());
    expect(cold.status, JSON.stringify(cold.body)).toBe(200);
    expect(delta(before)).toEqual({ roundTrips: 1, simulations: 0, localnetHttp: 1 });
    expect(readKeys(first)).toEqual(expect.arrayContaining([DEMO_POOL, SOL, USDC]));
    expect(stack.batches[first]).toMatchObject({ latestBlockhash: true, prioritizationFeeAccounts: [new PublicKey(DEMO_POOL)] });

    before = counters();
    const warm = await stack.rest(demoSolToUsdc());
    expect(warm.status).toBe(200);
    expect(delta(before)).toEqual({ roundTrips: 1, simulations: 0, localnetHttp: 1 });
    const warmKeys = readKeys(first + 1);
    for (const cached of [DEMO_POOL, SOL, USDC]) expect(warmKeys).not.toContain(cached);
    expect(warmKeys.length).toBeGreaterThan(0); // the user's accounts are still checked
    expect(warm.body.swapInstruction).toEqual(cold.body.swapInstruction);
    expect(warm.body.setupInstructions).toEqual(cold.body.setupInstructions);
  });

  test("warm, over gRPC too: one round trip", async () => {
    await stack.grpc(toProtoJson(demoSolToUsdc()));
    const before = counters();
    await stack.grpc(toProtoJson(demoSolToUsdc()));
    expect(delta(before).roundTrips).toBe(1);
  });

  test("skipUserAccountsRpcCalls with a fixed fee: nothing left to read but the blockhash (cached ≤ 1 s)", async () => {
    const request = demoSolToUsdc({ skipUserAccountsRpcCalls: true, prioritizationFeeLamports: 10_000 });
    await stack.rest(request);
    const before = counters();
    const res = await stack.rest(request);
    expect(res.status).toBe(200);
    expect(delta(before).roundTrips).toBeLessThanOrEqual(1);
    expect(keysRead(stack.batches.at(-1)!)).toEqual([]);
    expect(stack.batches.at(-1)!.prioritizationFeeAccounts).toBeUndefined();
  });
});

describe("dynamicComputeUnitLimit", () => {
  test("adds exactly one simulation; the failed simulation (no Jupiter program on the localnet) is `simulationError`", async () => {
    await stack.rest(demoSolToUsdc()); // warm
    const before = counters();
    const { status, body } = await stack.rest(demoSolToUsdc({ dynamicComputeUnitLimit: true }));
    expect(status, JSON.stringify(body)).toBe(200);
    // The batch, the simulation, and (because a program is missing) one read of the instructions' programs to name it.
    expect(delta(before)).toEqual({ roundTrips: 3, simulations: 1, localnetHttp: 3 });
    // LiteSVM refuses to run the absent Jupiter program: the failure is reported, not thrown, in one readable line naming it.
    const jup = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";
    expect(body.simulationError).toEqual({
      errorCode: "TRANSACTION_SIMULATION_FAILED",
      error: expect.stringMatching(
        new RegExp(`^instruction \\d+ \\(Jupiter v6 program\\) failed: InvalidProgramForExecution: program ${jup} is not deployed on this chain$`),
      ),
    });
    expect(body.computeUnitLimit).toBe(1_400_000); // unchanged without a successful simulation
    expect(body.swapInstruction.programId).toBe("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");
  });

  test("over gRPC: simulationError set, the call itself succeeds", async () => {
    const res = await stack.grpc(toProtoJson(demoSolToUsdc({ dynamicComputeUnitLimit: true })));
    expect(res.simulationError).toMatchObject({ errorCode: "TRANSACTION_SIMULATION_FAILED" });
    expect(Number(res.computeUnitLimit)).toBe(1_400_000);
  });

  test("bad input with dynamicComputeUnitLimit: no read, no simulation", async () => {
    const before = counters();
    const r = demoSolToUsdc({ dynamicComputeUnitLimit: true });
    r.quoteResponse.slippageBps = -1;
    const err = await stack.grpc(toProtoJson({ ...r, quoteResponse: { ...r.quoteResponse, slippageBps: 10_001 } })).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(err?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(delta(before)).toEqual({ roundTrips: 0, simulations: 0, localnetHttp: 0 });
  });
});

describe("a second batch only for accounts derived from the pools", () => {
  const usdcSolPump = () => ({
    userPublicKey: WALLET,
    quoteResponse: jupiterQuote(
      [
        { ammKey: DEMO_POOL, inputMint: USDC, outputMint: SOL, inAmount: "150000000", outAmount: "990000000" },
        { ammKey: LB_PAIR.toBase58(), label: "Meteora DLMM", inputMint: SOL, outputMint: PUMP, inAmount: "990000000", outAmount: "123456789" },
      ],
      { inputMint: USDC, outputMint: PUMP, inAmount: "150000000", outAmount: "123456789" },
    ),
  });

  test("Raydium CP + Meteora DLMM: the pools batch, then exactly one batch holding the DLMM bitmap extension", async () => {
    const first = stack.batches.length;
    const before = counters();
    const { status, body } = await stack.rest(usdcSolPump());
    expect(status, JSON.stringify(body)).toBe(200);
    expect(delta(before)).toEqual({ roundTrips: 2, simulations: 0, localnetHttp: 2 });
    expect(stack.batches.length - first).toBe(2);
    // The DLMM pair moves with trades: read every time. The CP pool and USDC/SOL were cached by earlier tests.
    expect(readKeys(first)).toEqual(expect.arrayContaining([LB_PAIR.toBase58(), PUMP]));
    expect(readKeys(first)).not.toContain(DEMO_POOL);
    expect(readKeys(first + 1)).toEqual([EXTENSION.toBase58()]);
    expect(stack.batches[first + 1].latestBlockhash).toBeFalsy();
    // The extension does not exist: its slot in the DLMM step holds the DLMM program id (Jupiter's "absent").
    const accounts = body.swapInstruction.accounts.map((a: { pubkey: string }) => a.pubkey);
    expect(accounts).toContain(LB_PAIR.toBase58());
    expect(accounts).not.toContain(EXTENSION.toBase58());
  });

  test("the Raydium CP pool alone never needs a second batch", async () => {
    const first = stack.batches.length;
    await stack.rest(demoSolToUsdc());
    expect(stack.batches.length - first).toBe(1);
  });
});

describe("lookup tables from LOOKUP_TABLES", () => {
  let withTables: SwapStack;
  let table: PublicKey;
  beforeAll(async () => {
    let created: PublicKey | undefined;
    const pool = DEMO_RAYDIUM_CP_SOL_USDC;
    // The stack's config is built after seeding, so the table is created by a seeder.
    withTables = await startSwapStack({
      extraSeeders: [
        (localnet) => {
          created = createLookupTable(localnet, [pool.pool.address, pool.config.address, pool.vaultA.address, pool.vaultB.address, pool.observation.address]);
        },
      ],
      lookupTables: () => [created!.toBase58()],
      chainStateTtlMs: 0,
    });
    table = created!;
  });
  afterAll(async () => {
    await withTables?.close();
  });

  test("the table covering the pool's accounts is returned; it is read once, then served from the chain's cache", async () => {
    const s = () => withTables.chain.stats().roundTrips;
    let before = s();
    const cold = await withTables.rest(demoSolToUsdc());
    expect(cold.status, JSON.stringify(cold.body)).toBe(200);
    expect(cold.body.addressLookupTableAddresses).toEqual([table.toBase58()]);
    expect(s() - before).toBe(2); // the batch and the table, in parallel
    before = s();
    const warm = await withTables.rest(demoSolToUsdc());
    expect(warm.body.addressLookupTableAddresses).toEqual([table.toBase58()]);
    expect(s() - before).toBe(1);
  });

  test("a configured table that does not exist is not asked for on every request", async () => {
    const missing = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    const api = createSwapApi({ chain: withTables.chain, lookupTables: [missing], relayTipAccounts: [], random: () => 0, chainStateTtlMs: 0 });
    const raw = { userPublicKey: WALLET, quote: demoSolToUsdc().quoteResponse };
    await api.swapInstructions(raw);
    const before = withTables.chain.stats().roundTrips;
    const outcome = await api.swapInstructions(raw);
    expect(withTables.chain.stats().roundTrips - before).toBe(1);
    expect(outcome.addressLookupTableAddresses).toEqual([]);
  });

  test("asLegacyTransaction: no lookup tables", async () => {
    const { body } = await withTables.rest(demoSolToUsdc({ asLegacyTransaction: true }));
    expect(body.addressLookupTableAddresses).toEqual([]);
  });
});

describe("chain-state cache (CHAIN_STATE_TTL_MS): fee samples and the user's accounts reused for the TTL", () => {
  const TTL = 500;
  let clock = 1_700_000_000_000; // the operation's `now`, moved by the tests
  const batches: RecordedReadBatch[] = [];
  const api = () =>
    createSwapApi({
      chain: recording(stack.chain, batches),
      relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS,
      random: () => 0.5,
      now: () => clock,
      chainStateTtlMs: TTL,
    });
  const solToUsdcFor = (user: string) => ({ userPublicKey: user, quote: demoSolToUsdc().quoteResponse });
  const ataOf = (owner: PublicKey, mint: PublicKey) => getAssociatedTokenAddressSync(mint, owner, true, TOKEN_PROGRAM_ID);
  /** The ATAs that `setup` creates (CreateIdempotent = ATA program, data [1]); [2] = the account. */
  const createdAtas = (setup: TransactionInstruction[]) =>
    setup.filter((ix) => ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID) && ix.data[0] === 1).map((ix) => ix.keys[1].pubkey.toBase58());
  const usdc = new PublicKey(USDC);

  function seedTokenAccount(address: PublicKey, owner: PublicKey, mint: PublicKey): void {
    const data = encodeTokenAccount(mint, owner, 0n, mint.equals(NATIVE_MINT) ? 2_039_280n : null);
    stack.localnet.setAccount(address, { lamports: 2_039_280n, data, owner: TOKEN_PROGRAM_ID });
  }

  test("warm: no round trip; after the TTL exactly one batch (user accounts and fees, no pool, no mints)", async () => {
    const swap = api();
    const cold = await swap.swapInstructions(solToUsdcFor(WALLET)); // reads the pool (a new operation's pool cache)
    let before = counters();
    const batchesBefore = batches.length;
    const warm = await swap.swapInstructions(solToUsdcFor(WALLET));
    // What the warm request read, if anything (seen once on a loaded machine: one round trip).
    const warmReads = JSON.stringify(batches.slice(batchesBefore).map(keysRead));
    expect(delta(before), warmReads).toEqual({ roundTrips: 0, simulations: 0, localnetHttp: 0 });
    expect(warm.swapInstruction).toEqual(cold.swapInstruction);
    expect(warm.setupInstructions).toEqual(cold.setupInstructions);
    expect(warm.computeBudgetInstructions).toEqual(cold.computeBudgetInstructions);

    clock += TTL;
    before = counters();
    const first = batches.length;
    await swap.swapInstructions(solToUsdcFor(WALLET));
    expect(delta(before)).toEqual({ roundTrips: 1, simulations: 0, localnetHttp: 1 });
    expect(batches.length - first).toBe(1);
    const keys = keysRead(batches[first]);
    const wallet = new PublicKey(WALLET);
    expect(keys).toEqual(expect.arrayContaining([ataOf(wallet, usdc).toBase58(), ataOf(wallet, NATIVE_MINT).toBase58()]));
    for (const cached of [DEMO_POOL, SOL, USDC]) expect(keys).not.toContain(cached);
    expect(batches[first].prioritizationFeeAccounts?.map((k) => k.toBase58())).toEqual([DEMO_POOL]);

    clock += TTL - 1; // still fresh
    before = counters();
    await swap.swapInstructions(solToUsdcFor(WALLET));
    expect(delta(before).roundTrips).toBe(0);
  });

  test("concurrent requests of one user after the TTL lapsed: one read of the user's accounts, joined by the others", async () => {
    const swap = api();
    const user = Keypair.generate().publicKey;
    const userUsdc = ataOf(user, usdc);
    // A fixed price: no fee samples, whose own lapse would send every request to the RPC anyway.
    const request = () => ({ ...solToUsdcFor(user.toBase58()), computeUnitPriceMicroLamports: 1_000n });
    await swap.swapInstructions(request()); // also leaves the blockhash in the chain's ≤ 1 s cache
    seedTokenAccount(userUsdc, user, usdc); // exists now; only a read after the TTL can see it
    clock += TTL;
    // The blockhash cache's ≤ 1 s runs on the real clock: on a loaded machine the warm-up above may be
    // older than that, and then each request reads the blockhash too. Fresh now, so only the user's accounts are read.
    await stack.chain.getLatestBlockhash();
    const before = counters();
    const answers = await Promise.all(Array.from({ length: 8 }, () => swap.swapInstructions(request())));
    expect(delta(before)).toEqual({ roundTrips: 1, simulations: 0, localnetHttp: 1 });
    // Every request, the joining ones too, answers from what the one read found.
    for (const answer of answers) expect(createdAtas(answer.setupInstructions)).toEqual([ataOf(user, NATIVE_MINT).toBase58()]);
  });

  test("a stale 'missing' only repeats a CreateIdempotent until the TTL lapses; the wSOL account is created even when it exists", async () => {
    const swap = api();
    const user = Keypair.generate().publicKey;
    const wsol = ataOf(user, NATIVE_MINT).toBase58();
    const userUsdc = ataOf(user, usdc).toBase58();
    const before = await swap.swapInstructions(solToUsdcFor(user.toBase58()));
    expect(createdAtas(before.setupInstructions)).toEqual([wsol, userUsdc]);

    seedTokenAccount(new PublicKey(userUsdc), user, usdc);
    seedTokenAccount(new PublicKey(wsol), user, NATIVE_MINT);
    const stale = await swap.swapInstructions(solToUsdcFor(user.toBase58())); // within the TTL: still "missing"
    expect(createdAtas(stale.setupInstructions)).toEqual([wsol, userUsdc]);

    clock += TTL;
    const fresh = await swap.swapInstructions(solToUsdcFor(user.toBase58()));
    // Both exist now: the output ATA is skipped, the wSOL account (closed by every swap) is not.
    expect(createdAtas(fresh.setupInstructions)).toEqual([wsol]);
  });
});
