// The chain decides an execution, whatever the sends answer (issue "Landing you can trust"): a real
// misbehaving JSON-RPC proxy in front of the embedded chain (the real Jupiter v6 and AMM programs
// of SWAPD_CHAIN_DIR) answers sendTransaction with an error while the transaction lands anyway —
// "Blockhash not found" as a lagging node says it while a SEND_RPC_URLS endpoint lands it, -32603
// after forwarding it itself — or answers status reads with null past the blockhash's expiry.
// Expectations come from the chain: the taker's lamports and USDC before and after, the fee the
// chain charged, the rent of the account the swap created, the order's own amount.
import { afterEach, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { SOL, USDC, startSwapV2Stack } from "../api/swap-v2-stack.js";
import type { SwapV2Stack } from "../api/swap-v2-stack.js";
import { tokenBalance } from "./onchain-stack.js";

const ONE_SOL = 1_000_000_000n;
const stacks: SwapV2Stack[] = [];
const proxies: JsonRpcProxy[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) await s.close();
  for (const p of proxies.splice(0)) await p.close();
});

async function proxied(url: string): Promise<JsonRpcProxy> {
  const proxy = await startJsonRpcProxy(url);
  proxies.push(proxy);
  return proxy;
}

/** An order of 1 SOL → USDC for a fresh taker, signed. */
async function orderAndSign(stack: SwapV2Stack) {
  const taker = Keypair.generate();
  stack.localnet.airdrop(taker.publicKey, 10n * ONE_SOL);
  const order = (await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}&taker=${taker.publicKey.toBase58()}`)).body;
  const tx = VersionedTransaction.deserialize(Buffer.from(order.transaction, "base64"));
  tx.sign([taker]);
  const lamportsBefore = stack.localnet.getAccount(taker.publicKey)!.lamports;
  return { taker, requestId: order.requestId as string, signedTransaction: Buffer.from(tx.serialize()).toString("base64"), lamportsBefore };
}

/** What the chain says the swap moved: the taker's USDC, and its lamports net of the fee and the created account's rent. */
function chainTruth(stack: SwapV2Stack, taker: PublicKey, signature: string, lamportsBefore: bigint) {
  const landed = stack.localnet.chain.getRecord(signature);
  expect(landed?.err).toBeNull();
  const usdcAccount = getAssociatedTokenAddressSync(new PublicKey(USDC), taker);
  const rent = stack.localnet.getAccount(usdcAccount)!.lamports; // created by the swap, paid by the taker
  const spent = lamportsBefore - stack.localnet.getAccount(taker)!.lamports;
  return { usdc: tokenBalance(stack.localnet, usdcAccount), solIn: spent - BigInt(landed!.fee) - rent, slot: landed!.slot };
}

/** No swap result recorded with amounts 0, and the execution's record as the chain decided it. */
async function expectRecorded(stack: SwapV2Stack, signature: string, slot: number) {
  const zero = await stack.store.db.query("SELECT signature FROM swap_results WHERE input_amount = 0 OR output_amount = 0");
  expect(zero).toEqual([]);
  expect(await stack.store.executions.findBySignature(signature)).toMatchObject({ status: "Success", decidedBy: "chain", slot: BigInt(slot) });
}

describe.skipIf(!hasChainDir())("swap Execute: the chain decides, not the send's answer", () => {
  test("the main RPC says 'Blockhash not found' (it lags) while a SEND_RPC_URLS endpoint lands it: Success with the true amounts, a repeat the same", async () => {
    let extra: JsonRpcProxy | undefined;
    const stack = await startSwapV2Stack({
      programs: true,
      chainUrl: async (url) => {
        const lagging = await proxied(url);
        lagging.refuse("sendTransaction", {
          code: -32002,
          message: "Transaction simulation failed: Blockhash not found",
          data: { err: "BlockhashNotFound", logs: [] },
        });
        return lagging.url;
      },
      senders: async (url) => {
        extra = await proxied(url);
        return [new RpcSolanaChain({ url: extra.url })];
      },
    });
    stacks.push(stack);
    const [lagging] = proxies as [JsonRpcProxy];
    const { taker, requestId, signedTransaction, lamportsBefore } = await orderAndSign(stack);

    const first = await stack.post("/swap/v2/execute", { signedTransaction, requestId });
    expect(lagging.calls("sendTransaction")).toBeGreaterThanOrEqual(1);
    expect(extra!.calls("sendTransaction")).toBeGreaterThanOrEqual(1);
    const truth = chainTruth(stack, taker.publicKey, first.body.signature, lamportsBefore);
    expect(truth.solIn).toBe(ONE_SOL);
    expect(first.body).toMatchObject({
      status: "Success",
      code: 0,
      slot: String(truth.slot),
      inputAmountResult: ONE_SOL.toString(),
      outputAmountResult: truth.usdc.toString(),
    });
    const repeat = await stack.post("/swap/v2/execute", { signedTransaction, requestId });
    expect(repeat.body).toEqual(first.body);
    await expectRecorded(stack, first.body.signature, truth.slot);
  }, 120_000);

  test("the main RPC forwards the send and answers -32603: Success with the true amounts over REST and gRPC, a repeat the same", async () => {
    const stack = await startSwapV2Stack({
      programs: true,
      chainUrl: async (url) => {
        const faulty = await proxied(url);
        faulty.failAfterForwarding("sendTransaction", { code: -32603, message: "Internal error" });
        return faulty.url;
      },
    });
    stacks.push(stack);
    const [faulty] = proxies as [JsonRpcProxy];
    const { taker, requestId, signedTransaction, lamportsBefore } = await orderAndSign(stack);

    const first = await stack.post("/swap/v2/execute", { signedTransaction, requestId });
    const truth = chainTruth(stack, taker.publicKey, first.body.signature, lamportsBefore);
    expect(first.body).toMatchObject({ status: "Success", code: 0, inputAmountResult: ONE_SOL.toString(), outputAmountResult: truth.usdc.toString() });
    // Forwarded once; the transaction landed once.
    expect(faulty.calls("sendTransaction")).toBe(1);
    expect(stack.localnet.stats().calls["sendTransaction"]).toBe(1);
    expect((await stack.post("/swap/v2/execute", { signedTransaction, requestId })).body).toEqual(first.body);
    const viaGrpc = await new Promise<any>((resolve, reject) =>
      stack.grpcClient.execute({ requestId, signedTransaction: Buffer.from(signedTransaction, "base64") }, (e: Error | null, r: unknown) =>
        e ? reject(e) : resolve(r),
      ),
    );
    expect(viaGrpc).toMatchObject({ signature: first.body.signature, inputAmountResult: ONE_SOL.toString(), outputAmountResult: truth.usdc.toString() });
    await expectRecorded(stack, first.body.signature, truth.slot);
  }, 120_000);

  test("status reads lag (null) past the blockhash's expiry: the answer follows the chain once it is known", async () => {
    const stack = await startSwapV2Stack({ programs: true, chainUrl: async (url) => (await proxied(url)).url });
    stacks.push(stack);
    const [lagging] = proxies as [JsonRpcProxy];
    lagging.rewrite("getSignatureStatuses", (result) => {
      const r = result as { context: unknown; value: unknown[] };
      return { ...r, value: r.value.map(() => null) };
    });
    lagging.rewrite("getTransaction", () => null);
    const { taker, requestId, signedTransaction, lamportsBefore } = await orderAndSign(stack);
    const signature = VersionedTransaction.deserialize(Buffer.from(signedTransaction, "base64")).signatures[0];
    const pending = stack.post("/swap/v2/execute", { signedTransaction, requestId });
    // It lands; the node's status reads do not show it; the chain moves past the blockhash's last valid height.
    const { default: bs58 } = await import("bs58");
    for (let i = 0; i < 500 && stack.localnet.chain.getRecord(bs58.encode(signature)) === undefined; i += 1) await new Promise((r) => setTimeout(r, 20));
    const filler = Keypair.generate().publicKey;
    for (let i = 0; i <= 160; i += 1) stack.localnet.airdrop(filler, 1_000_000n);
    const first = (await pending).body;
    // What the reads allowed: not known to land (never Success without the chain saying so).
    expect(first).toMatchObject({ status: "Failed", code: -1000 });
    expect(first.error).toContain("unable to confirm transaction");

    lagging.rewrite("getSignatureStatuses", undefined);
    lagging.rewrite("getTransaction", undefined);
    const truth = chainTruth(stack, taker.publicKey, first.signature, lamportsBefore);
    const known = (await stack.post("/swap/v2/execute", { signedTransaction, requestId })).body;
    expect(known).toMatchObject({
      status: "Success",
      code: 0,
      signature: first.signature,
      slot: String(truth.slot),
      inputAmountResult: ONE_SOL.toString(),
      outputAmountResult: truth.usdc.toString(),
    });
    expect((await stack.post("/swap/v2/execute", { signedTransaction, requestId })).body).toEqual(known);
    await expectRecorded(stack, first.signature, truth.slot);
  }, 120_000);
});
