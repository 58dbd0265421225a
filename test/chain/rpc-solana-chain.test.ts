import {
  AccountLayout,
  MintLayout,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { register } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainRpcError } from "../../src/chain/chain-errors.js";
import { checkChainReadiness } from "../../src/chain/chain-readiness.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { DEMO, seedDemoWallet } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

describe("RpcSolanaChain against the localnet", () => {
  let localnet: Localnet;
  let chain: RpcSolanaChain;
  const payer = Keypair.generate();

  beforeAll(async () => {
    localnet = await startLocalnet();
    seedDemoWallet(localnet); // the wallet and mint only: the demo pools hold USDC too
    localnet.airdrop(payer.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));
    chain = new RpcSolanaChain({ url: localnet.url });
  });
  afterAll(async () => {
    await localnet.close();
  });

  /** Round trips seen by the client and requests received by the server, over `run`. */
  async function measure<T>(run: () => Promise<T>) {
    const before = chain.stats();
    localnet.resetStats();
    const result = await run();
    const after = chain.stats();
    return { result, clientRoundTrips: after.roundTrips - before.roundTrips, server: localnet.stats() };
  }

  function someAccounts(count: number) {
    const keys: PublicKey[] = [];
    const expected = new Map<string, Uint8Array | null>();
    for (let i = 0; i < count; i += 1) {
      const key = Keypair.generate().publicKey;
      keys.push(key);
      if (i % 5 === 3) {
        expected.set(key.toBase58(), null); // never created
      } else {
        const data = new Uint8Array([i & 0xff, i >> 8, 7, 7]);
        localnet.setAccount(key, { lamports: BigInt(1_000_000 + i), data, owner: SystemProgram.programId });
        expected.set(key.toBase58(), data);
      }
    }
    return { keys, expected };
  }

  it("getMultipleAccounts with 250 keys: 3 calls, request order, missing = null", async () => {
    const { keys, expected } = someAccounts(250);
    const { result, clientRoundTrips, server } = await measure(() => chain.getMultipleAccounts(keys));
    expect(clientRoundTrips).toBe(3);
    expect(server.httpRequests).toBe(3);
    expect(server.calls).toEqual({ getMultipleAccounts: 3 });
    expect(result).toHaveLength(250);
    result.forEach((account, i) => {
      const want = expected.get(keys[i].toBase58());
      if (want === null) {
        expect(account).toBeNull();
      } else {
        expect(account?.address.equals(keys[i])).toBe(true);
        expect(Array.from(account!.data)).toEqual(Array.from(want!));
        expect(account!.lamports).toBe(BigInt(1_000_000 + i));
      }
    });
    expect(result.filter((a) => a === null)).toHaveLength(50);
  });

  it("readBatch: accounts + fees + blockhash in exactly 1 round trip; a cached blockhash is not re-requested", async () => {
    const { keys, expected } = someAccounts(250);
    const fresh = new RpcSolanaChain({ url: localnet.url });
    const before = fresh.stats().roundTrips;
    localnet.resetStats();
    const batch = await fresh.readBatch({ accounts: keys, prioritizationFeeAccounts: [keys[0]], latestBlockhash: true });
    expect(fresh.stats().roundTrips - before).toBe(1);
    expect(localnet.stats().httpRequests).toBe(1);
    expect(localnet.stats().calls).toEqual({ getMultipleAccounts: 3, getRecentPrioritizationFees: 1, getLatestBlockhash: 1 });
    expect(batch.accounts.map((a) => (a ? Array.from(a.data) : null))).toEqual(
      keys.map((k) => {
        const d = expected.get(k.toBase58());
        return d ? Array.from(d) : null;
      }),
    );
    expect(batch.latestBlockhash?.blockhash).toBe(localnet.chain.latestBlockhash().blockhash);
    expect(Array.isArray(batch.prioritizationFees)).toBe(true);

    localnet.resetStats();
    const again = await fresh.readBatch({ accounts: keys.slice(0, 10), latestBlockhash: true });
    expect(localnet.stats().httpRequests).toBe(1);
    expect(localnet.stats().calls).toEqual({ getMultipleAccounts: 1 });
    expect(again.latestBlockhash).toEqual(batch.latestBlockhash);
    expect(fresh.stats().roundTrips - before).toBe(2);
  });

  it("readBatch mints: unknown ones read in the same request and remembered, known ones served from the cache", async () => {
    const fresh = new RpcSolanaChain({ url: localnet.url });
    const { keys } = someAccounts(3);
    const missingMint = Keypair.generate().publicKey;
    const mints = [DEMO.usdcMint, missingMint, DEMO.usdcMint]; // a repeat is read once
    localnet.resetStats();
    const cold = await fresh.readBatch({ accounts: keys, mints, latestBlockhash: true });
    expect(localnet.stats().httpRequests).toBe(1);
    expect(localnet.stats().calls).toEqual({ getMultipleAccounts: 1, getLatestBlockhash: 1 });
    expect(cold.accounts.map((a) => a?.address.toBase58() ?? null)).toEqual(keys.map((k, i) => (i % 5 === 3 ? null : k.toBase58())));
    expect([...cold.mints.keys()].sort()).toEqual([DEMO.usdcMint.toBase58(), missingMint.toBase58()].sort());
    const usdc = cold.mints.get(DEMO.usdcMint.toBase58())!;
    expect(usdc.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(MintLayout.decode(usdc.data).decimals).toBe(DEMO.usdcDecimals);
    expect(cold.mints.get(missingMint.toBase58())).toBeNull();
    expect(fresh.mintAccounts.has(DEMO.usdcMint)).toBe(true);
    expect(fresh.mintAccounts.has(missingMint)).toBe(false); // a missing mint may appear later

    // Everything cached (the blockhash too) and nothing else asked: no request at all.
    localnet.resetStats();
    const warm = await fresh.readBatch({ accounts: [], mints: [DEMO.usdcMint], latestBlockhash: true });
    expect(localnet.stats().httpRequests).toBe(0);
    expect(warm.mints.get(DEMO.usdcMint.toBase58())?.data).toEqual(usdc.data);
    expect(warm.latestBlockhash).toEqual(cold.latestBlockhash);

    // The missing one is asked again, alone.
    localnet.resetStats();
    await fresh.readBatch({ accounts: [], mints: [DEMO.usdcMint, missingMint] });
    expect(localnet.stats().calls).toEqual({ getMultipleAccounts: 1 });
  });

  it("asks for the fees of at most 128 accounts (the RPC's limit), in readBatch and alone", async () => {
    const many = Array.from({ length: 200 }, () => Keypair.generate().publicKey);
    const post = async (body: unknown) =>
      (await fetch(localnet.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
    // The limit is the node's: 129 accounts are refused.
    const refused = await post({ jsonrpc: "2.0", id: 1, method: "getRecentPrioritizationFees", params: [many.slice(0, 129).map((k) => k.toBase58())] });
    expect(refused).toMatchObject({ id: 1, error: { code: -32602 } });
    const batch = await chain.readBatch({ accounts: [], prioritizationFeeAccounts: many });
    expect(Array.isArray(batch.prioritizationFees)).toBe(true);
    expect(Array.isArray(await chain.getRecentPrioritizationFees(many))).toBe(true);
  });

  it("caches the blockhash for at most its max age", async () => {
    // A window wide enough that a loaded machine still reads twice inside it.
    const short = new RpcSolanaChain({ url: localnet.url, blockhashMaxAgeMs: 1000 });
    const [a, b] = await Promise.all([short.getLatestBlockhash(), short.getLatestBlockhash()]);
    expect(a).toEqual(b);
    expect(short.stats().roundTrips).toBe(1);
    localnet.airdrop(Keypair.generate().publicKey, 1_000_000n); // the chain moves to a new blockhash
    expect((await short.getLatestBlockhash()).blockhash).toBe(a.blockhash);
    await new Promise((r) => setTimeout(r, 1100));
    const c = await short.getLatestBlockhash();
    expect(short.stats().roundTrips).toBe(2);
    expect(c.blockhash).toBe(localnet.chain.latestBlockhash().blockhash);
    expect(c.blockhash).not.toBe(a.blockhash);
  });

  it("simulates (sig verify off, blockhash replaced), sends, and reads statuses, transaction and history", async () => {
    const owner = Keypair.generate().publicKey;
    const ata = getAssociatedTokenAddressSync(NATIVE_MINT, owner);
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: PublicKey.default.toBase58(), // stale on purpose: the node replaces it
      instructions: [
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 5 }),
        createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, owner, NATIVE_MINT),
      ],
    }).compileToV0Message();
    const sim = await chain.simulateTransaction(new VersionedTransaction(message));
    expect(sim.err).toBeNull();
    expect(sim.unitsConsumed).toBeGreaterThan(0);
    expect(sim.logs.some((l) => l.includes("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL success"))).toBe(true);
    expect(sim.replacementBlockhash?.blockhash).toBe(localnet.chain.latestBlockhash().blockhash);

    const failing = await chain.simulateTransaction(
      new Transaction({ feePayer: payer.publicKey, recentBlockhash: PublicKey.default.toBase58() }).add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: owner, lamports: 1_000 * LAMPORTS_PER_SOL }),
      ),
    );
    expect(failing.err).toEqual({ InstructionError: [0, { Custom: 1 }] });

    const { blockhash } = await chain.getLatestBlockhash();
    message.recentBlockhash = blockhash;
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const { result: signature, server } = await measure(() => chain.sendTransaction(tx.serialize()));
    expect(server.calls).toEqual({ sendTransaction: 1 });
    const [status] = await chain.getSignatureStatuses([signature]);
    expect(status?.err).toBeNull();
    expect(localnet.getAccount(ata)?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);

    const fetched = await chain.getTransaction(signature);
    expect(fetched?.meta?.logMessages?.length).toBeGreaterThan(0);
    expect(fetched?.meta?.innerInstructions?.[0]?.index).toBe(1);
    const history = await chain.getSignaturesForAddress(ata, { limit: 5 });
    expect(history.map((h) => h.signature)).toEqual([signature]);
    expect((await chain.getRecentPrioritizationFees([ata])).find((f) => f.slot === fetched!.slot)?.prioritizationFee).toBe(5);
    expect(await chain.getSlot()).toBe(localnet.chain.slot);
    expect(await chain.getBlockHeight()).toBe(localnet.chain.blockHeight);
  });

  it("reports a preflight failure as ChainRpcError -32002 with the logs, and sends once", async () => {
    const { blockhash } = await chain.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000 * LAMPORTS_PER_SOL }),
    );
    tx.sign(payer);
    const { result: error, server } = await measure(() => chain.sendTransaction(tx.serialize()).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ChainRpcError);
    expect((error as ChainRpcError).rpcCode).toBe(-32002);
    expect((error as ChainRpcError).logs?.some((l) => l.includes("insufficient lamports"))).toBe(true);
    expect(server.httpRequests).toBe(1);
  });

  it("finds program accounts with memcmp, caches mints and lookup tables", async () => {
    const holders = await chain.getProgramAccounts(TOKEN_PROGRAM_ID, [
      { dataSize: AccountLayout.span },
      { memcmp: { offset: 0, bytes: DEMO.usdcMint.toBase58() } },
    ]);
    expect(holders.map((h) => h.address.toBase58())).toEqual([DEMO.walletUsdcAccount.toBase58()]);
    expect(AccountLayout.decode(Buffer.from(holders[0].data)).amount).toBe(DEMO.walletUsdcAmount);

    const notAMint = Keypair.generate().publicKey;
    const { result: mints, clientRoundTrips } = await measure(() => chain.getMints([DEMO.usdcMint, NATIVE_MINT, DEMO.walletUsdcAccount, notAMint]));
    expect(clientRoundTrips).toBe(1);
    expect(mints.get(DEMO.usdcMint.toBase58())).toMatchObject({ decimals: 6 });
    expect(mints.get(DEMO.usdcMint.toBase58())?.programId.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(mints.get(NATIVE_MINT.toBase58())?.decimals).toBe(MintLayout.decode(localnet.getAccount(NATIVE_MINT)!.data).decimals);
    expect(mints.get(DEMO.walletUsdcAccount.toBase58())).toBeNull();
    expect(mints.get(notAMint.toBase58())).toBeNull();
    // Cached mints need no request; the unknown ones are asked again.
    const second = await measure(() => chain.getMints([DEMO.usdcMint, NATIVE_MINT]));
    expect(second.clientRoundTrips).toBe(0);

    const slot = await chain.getSlot();
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot: slot });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: payer.publicKey,
      payer: payer.publicKey,
      addresses: [DEMO.usdcMint],
    });
    const { blockhash } = await chain.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(create, extend);
    tx.sign(payer);
    await chain.sendTransaction(tx.serialize());
    const tables = await chain.getLookupTables([table]);
    expect(tables.get(table.toBase58())?.state.addresses.map((a) => a.toBase58())).toEqual([DEMO.usdcMint.toBase58()]);
    const cached = await measure(() => chain.getLookupTables([table]));
    expect(cached.clientRoundTrips).toBe(0);
    const refreshed = await measure(() => chain.getLookupTables([table], { refresh: true }));
    expect(refreshed.clientRoundTrips).toBe(1);
  });

  it("is ready when the chain answers, exports round trips on the global prom-client register", async () => {
    expect(await checkChainReadiness(chain, 1_000)).toMatchObject({ ready: true });
    const metric = await register.getSingleMetricAsString("swapd_solana_rpc_requests_total");
    expect(metric).toMatch(/swapd_solana_rpc_requests_total\{method="getMultipleAccounts"\} \d+/);
    expect(metric).toMatch(/swapd_solana_rpc_requests_total\{method="batch"\} \d+/);
  });
});
