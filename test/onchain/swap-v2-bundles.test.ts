// Landing through a block engine (BLOCK_ENGINE_URL) on the real Jupiter v6 and Raydium CP programs
// (SWAPD_CHAIN_DIR): a real local block engine (test/fixtures/local-block-engine.ts, Jito's bundle
// JSON-RPC over HTTP) forwards each bundle's transactions to the embedded chain. The chain is the
// judge: what landed, the tip and the taker's balances are read from its accounts; what the engine
// received is counted by the engine.
import { afterEach, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { JsonRpcBlockEngine } from "../../src/chain/block-engine.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { startDroppingRpcProxy } from "../fixtures/dropping-rpc-proxy.js";
import type { DroppingRpcProxy } from "../fixtures/dropping-rpc-proxy.js";
import { startLocalBlockEngine } from "../fixtures/local-block-engine.js";
import type { LocalBlockEngine } from "../fixtures/local-block-engine.js";
import { SOL, USDC, signedOrder, startSwapV2Stack } from "../api/swap-v2-stack.js";
import type { SwapV2Stack } from "../api/swap-v2-stack.js";
import { tokenBalance } from "./onchain-stack.js";

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The stack with a local block engine in front of its chain (`deliveries` per bundle); the main RPC a blackhole when `rpcDropsSends`. */
async function stackWithBlockEngine(options: { readonly deliveries: number; readonly rpcDropsSends: boolean }) {
  let engine: LocalBlockEngine | undefined;
  let rpc: DroppingRpcProxy | undefined;
  const stack: SwapV2Stack = await startSwapV2Stack({
    programs: true,
    chainUrl: async (url) => {
      rpc = await startDroppingRpcProxy(url, options.rpcDropsSends ? Number.POSITIVE_INFINITY : 0);
      closers.push(() => rpc!.close());
      return rpc.url;
    },
    blockEngine: async (url) => {
      engine = await startLocalBlockEngine(url, { tipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS, deliveries: options.deliveries });
      const client = new JsonRpcBlockEngine({ url: engine.url });
      closers.push(
        () => engine!.close(),
        () => client.close(),
      );
      return { engine: client, tipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS };
    },
  });
  closers.push(() => stack.close());
  // Tip accounts exist on mainnet (a new one would need rent for a small tip).
  for (const account of DEFAULT_RELAY_TIP_ACCOUNTS) stack.localnet.airdrop(new PublicKey(account), 1_000_000_000n);
  return { stack, engine: engine!, rpc: rpc! };
}

function lamports(stack: SwapV2Stack, account: PublicKey | string): bigint {
  return stack.localnet.getAccount(typeof account === "string" ? new PublicKey(account) : account)?.lamports ?? 0n;
}

const tipsTotal = (stack: SwapV2Stack) => DEFAULT_RELAY_TIP_ACCOUNTS.reduce((sum, a) => sum + lamports(stack, a), 0n);

describe.skipIf(!hasChainDir())("swap Execute through a block engine (BLOCK_ENGINE_URL)", () => {
  test("a tipped order, the RPC dropping every send: the bundle lands through the engine once, though the engine delivers it twice and /execute is called three times; tip, USDC and lamports change once", async () => {
    const { stack, engine, rpc } = await stackWithBlockEngine({ deliveries: 2, rpcDropsSends: true });
    const tip = 100_000n;
    const { taker, requestId, signedTransaction } = await signedOrder(stack, `inputMint=${SOL}&outputMint=${USDC}&amount=500000000&jitoTipLamports=${tip}`);
    const takerBefore = lamports(stack, taker.publicKey);
    const tipsBefore = tipsTotal(stack);

    const [first, second] = await Promise.all([0, 1].map(() => stack.post("/swap/v2/execute", { signedTransaction, requestId })));
    expect(first.body.status, first.body.error).toBe("Success");
    expect(second.body).toEqual(first.body);
    const signature: string = first.body.signature;
    // The main RPC received the transaction and lost it; the engine took the bundle and delivered it twice.
    expect(rpc.sendsDropped).toBeGreaterThanOrEqual(1);
    const bundle = engine.bundles.find((b) => b.signatures.includes(signature))!;
    expect(bundle.signatures).toEqual([signature]);
    expect(engine.forwards.filter((f) => f.signature === signature).length).toBeGreaterThanOrEqual(2);
    expect(stack.localnet.chain.getRecord(signature)?.err).toBeNull();

    const bundlesAfterLanding = engine.sendBundleCalls;
    const third = await stack.post("/swap/v2/execute", { signedTransaction, requestId });
    expect(third.body).toEqual(first.body);
    expect(engine.sendBundleCalls).toBe(bundlesAfterLanding); // a landed execution is answered, not sent again

    // Once: the tip accounts together gained the tip, the taker's USDC is the answer's output, and
    // the taker's lamports fell by the input, the tip, the fee and its new USDC account's rent.
    const record = stack.localnet.chain.getRecord(signature)!;
    expect(tipsTotal(stack) - tipsBefore).toBe(tip);
    const usdc = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
    expect(first.body.outputAmountResult).toBe(usdc.toString());
    expect(first.body.inputAmountResult).toBe("500000000");
    const ataRent = stack.localnet.chain.minimumBalanceForRentExemption(165);
    expect(takerBefore - lamports(stack, taker.publicKey)).toBe(500_000_000n + tip + BigInt(record.fee) + BigInt(ataRent));
  });

  test("the engine refuses bundles (rate limited): the tipped transaction lands through the RPC; an untipped one is never sent to the engine", async () => {
    const { stack, engine } = await stackWithBlockEngine({ deliveries: 1, rpcDropsSends: false });
    engine.refuse({ code: -32097, message: "Rate limit exceeded" });
    const tipped = await signedOrder(stack, `inputMint=${SOL}&outputMint=${USDC}&amount=200000000&jitoTipLamports=5000`);
    const tipsBefore = tipsTotal(stack);
    const landed = await stack.post("/swap/v2/execute", { signedTransaction: tipped.signedTransaction, requestId: tipped.requestId });
    expect(landed.body.status, landed.body.error).toBe("Success");
    expect(engine.sendBundleCalls).toBeGreaterThanOrEqual(1);
    expect(engine.bundles).toEqual([]);
    expect(tipsTotal(stack) - tipsBefore).toBe(5_000n);

    engine.refuse(undefined);
    const callsBefore = engine.sendBundleCalls;
    const untipped = await signedOrder(stack, `inputMint=${SOL}&outputMint=${USDC}&amount=200000000`);
    const plain = await stack.post("/swap/v2/execute", { signedTransaction: untipped.signedTransaction, requestId: untipped.requestId });
    expect(plain.body.status, plain.body.error).toBe("Success");
    expect(engine.sendBundleCalls).toBe(callsBefore);
  });
});
