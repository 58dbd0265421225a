// The keeper's nonce watch (tracker/nonce-watch.ts) over the real account source and live cache,
// against the embedded chain's JSON-RPC and websocket: while the live state answers, the comparison
// of every followed nonce each second is memory (no request reaches the node); while it is degraded
// (the chain's streams down) that comparison would go to the RPC, so it waits for `checkMs` — one
// batched read, which still reports a nonce the taker advanced meanwhile.
import type { TransactionInstruction } from "@solana/web3.js";
import { Keypair, LAMPORTS_PER_SOL, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import type { LiveChain } from "../../src/chain/live/live-chain.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { advanceNonceInstruction, createNonceAccountInstructions, decodeNonceAccount, nonceAccountAddress } from "../../src/core/solana/durable-nonce.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { NonceWatch } from "../../src/tracker/nonce-watch.js";
import type { NonceBound } from "../../src/tracker/nonce-watch.js";

const CHECK_MS = 4_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the nonce watch over the live cache", () => {
  let localnet: Localnet;
  let live: LiveChain;
  const taker = Keypair.generate();

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    localnet.airdrop(taker.publicKey, 10n * BigInt(LAMPORTS_PER_SOL));
    live = await startLiveChain({
      chain: new RpcSolanaChain({ url: localnet.url }),
      source: { kind: "websocket", url: localnet.websocketUrl },
      maxStalenessMs: 300,
    });
  });
  afterAll(async () => {
    await live?.close();
    await localnet?.close();
  });

  function send(instructions: TransactionInstruction[], blockhash: string): void {
    const tx = new VersionedTransaction(new TransactionMessage({ payerKey: taker.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
    tx.sign([taker]);
    const { signature } = localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: false });
    expect(localnet.chain.getRecord(signature)?.err).toBeNull();
  }

  it("compares in memory each second while live; while degraded it reads once per checkMs, and still reports a moved nonce", { timeout: 60_000 }, async () => {
    const orders: NonceBound[] = [];
    for (let i = 0; i < 3; i++) {
      const seed = `watch-${i}`;
      send(createNonceAccountInstructions(taker.publicKey, seed, taker.publicKey), localnet.chain.latestBlockhash().blockhash);
      const address = nonceAccountAddress(taker.publicKey, seed);
      orders.push({ orderId: `o${i}`, nonceAccount: address.toBase58(), nonceValue: decodeNonceAccount(localnet.getAccount(address) ?? null)!.nonce });
    }
    const chain = new RpcSolanaChain({ url: localnet.url });
    const source = new AccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) });
    const moved: string[] = [];
    const watch = new NonceWatch(
      source,
      CHECK_MS,
      async (m) => {
        moved.push(...m.map((o) => o.orderId));
      },
      (e) => {
        throw e;
      },
    );
    try {
      await watch.follow(orders);
      expect(chain.stats().roundTrips).toBe(1);
      await sleep(1_100);
      await watch.follow(orders);
      expect(chain.stats().roundTrips).toBe(1); // the second's full comparison: memory

      localnet.setStreamsDown(true);
      while (live.accounts.answering()) await sleep(50);
      const degradedAt = chain.stats().roundTrips;
      // The taker advances a nonce: no notification reaches the watch while the streams are down.
      const [first] = orders;
      send([advanceNonceInstruction(nonceAccountAddress(taker.publicKey, "watch-0"), taker.publicKey)], first.nonceValue);
      for (let i = 0; i < 2; i++) {
        await sleep(1_100);
        await watch.follow(orders);
      }
      expect(chain.stats().roundTrips - degradedAt).toBe(0);
      expect(moved).toEqual([]);
      await sleep(CHECK_MS);
      await watch.follow(orders);
      expect(chain.stats().roundTrips - degradedAt).toBe(1);
      expect(moved).toEqual(["o0"]);
    } finally {
      watch.close();
      localnet.setStreamsDown(false);
    }
  });
});
