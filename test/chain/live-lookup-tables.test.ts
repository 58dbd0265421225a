// Configured lookup tables (LOOKUP_TABLES) kept live like pools, on the embedded chain over its
// PubSub websocket: a table extended on chain by a real transaction reaches the next response within
// one notification (it now covers the route's accounts and is chosen), without the request reading
// it; before the extension it covered nothing and was not chosen.
import { AddressLookupTableProgram, Transaction } from "@solana/web3.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSwapApi } from "../../src/api/swap-api.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import type { LiveChain } from "../../src/chain/live/live-chain.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { DEMO_RAYDIUM_CP_SOL_USDC } from "../../src/localnet/demo-pools.js";
import { DEMO_WALLET, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { WALLET, demoSolToUsdc } from "../api/swap-stack.js";
import { waitFor } from "./live-harness.js";

let localnet: Localnet;
let chain: RpcSolanaChain;
let live: LiveChain;
let table: PublicKey;

/** Signs and lands one instruction from the demo wallet on the localnet (a real transaction). */
function land(ix: TransactionInstruction): void {
  const tx = new Transaction({ feePayer: DEMO_WALLET.publicKey, ...localnet.chain.latestBlockhash() }).add(ix);
  tx.sign(DEMO_WALLET);
  localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: false });
}

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0 });
  await seedDemo(localnet);
  const [create, created] = AddressLookupTableProgram.createLookupTable({
    authority: DEMO_WALLET.publicKey,
    payer: DEMO_WALLET.publicKey,
    recentSlot: localnet.chain.slot,
  });
  land(create); // an empty table: it covers nothing yet
  table = created;
  chain = new RpcSolanaChain({ url: localnet.url });
  live = await startLiveChain({ chain, source: { kind: "websocket", url: localnet.websocketUrl } });
  await waitFor("the stream to connect", () => live.accounts.status().connected);
});
afterAll(async () => {
  await live?.close();
  chain?.close();
  await localnet?.close();
});

test("a configured table extended on chain is used by the next response, from the stream, not from a read", async () => {
  const api = createSwapApi({ chain, live, lookupTables: [table.toBase58()], relayTipAccounts: [], random: () => 0.5 });
  const request = { userPublicKey: WALLET, quote: demoSolToUsdc().quoteResponse, skipUserAccountsRpcCalls: true };
  const before = await api.swapInstructions(request);
  expect(before.addressLookupTableAddresses).toEqual([]);

  const pool = DEMO_RAYDIUM_CP_SOL_USDC;
  const changed = new Promise<void>((resolve) => {
    const stop = live.accounts.onChange((c) => {
      if (c.address === table.toBase58()) {
        stop();
        resolve();
      }
    });
  });
  land(
    AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: DEMO_WALLET.publicKey,
      payer: DEMO_WALLET.publicKey,
      addresses: [pool.pool.address, pool.config.address, pool.vaultA.address, pool.vaultB.address, pool.observation.address],
    }),
  );
  const noNotification = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("no notification of the table within 10 s: it is not followed by the live cache")), 10_000).unref(),
  );
  await Promise.race([changed, noNotification]);

  const reads = localnet.stats().calls.getMultipleAccounts ?? 0;
  const after = await api.swapInstructions(request);
  expect(after.addressLookupTableAddresses.map((k) => k.toBase58())).toEqual([table.toBase58()]);
  expect(after.lookupTableAccounts[0].state.addresses.map((k) => k.toBase58())).toContain(pool.vaultA.address.toBase58());
  expect((localnet.stats().calls.getMultipleAccounts ?? 0) - reads).toBe(0);
});
