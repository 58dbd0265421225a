// Non-custodial trigger orders on a durable nonce, executed on the real Jupiter v6 and Raydium CP
// programs (SWAPD_CHAIN_DIR) against the demo SOL/USDC pool: another wallet's swaps move the pool
// past a trigger; the keeper's leg lands and pays at least its floor (balances read from the
// chain); the other leg of an OCO is refused by the chain when sent afterwards.
import { afterEach, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { tokenBalance } from "./onchain-stack.js";
import { SOL, USDC, sign, startNonceTriggerStack } from "./nonce-trigger-stack.js";
import type { NonceTriggerStack } from "./nonce-trigger-stack.js";

const stacks: NonceTriggerStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) await s.close();
});

const ONE_SOL = 1_000_000_000n;

function funded(stack: NonceTriggerStack, sol: bigint): Keypair {
  const wallet = Keypair.generate();
  stack.localnet.airdrop(wallet.publicKey, sol * ONE_SOL);
  return wallet;
}

/** What 1 SOL fetches now, in raw USDC (the service's own quote). */
async function solPrice(stack: NonceTriggerStack): Promise<bigint> {
  const q = await stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}`);
  return BigInt(q.body.outAmount);
}

const usdc = (raw: bigint) => (Number(raw) / 1e6).toFixed(6);

async function armed(stack: NonceTriggerStack, taker: Keypair, body: Record<string, unknown>) {
  const nonceAccount = await stack.createNonceAccount(taker);
  const created = await stack.post("/trigger/v2/createOrder", { taker: taker.publicKey.toBase58(), inputMint: SOL, outputMint: USDC, amount: ONE_SOL.toString(), nonceAccount, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const signed = created.body.legs.map((l: any) => Buffer.from(sign(l.transaction, taker)).toString("base64"));
  const arm = await stack.post("/trigger/v2/arm", { orderId: created.body.orderId, signedTransactions: signed });
  expect(arm.status, JSON.stringify(arm.body)).toBe(200);
  expect(arm.body.order.status).toBe("armed");
  return { created: created.body, signed: signed as string[], nonceAccount };
}

describe.skipIf(!hasChainDir())("nonce orders on the real programs", () => {
  test("OCO: the pool rises past the take-profit; the take-profit leg lands and pays at least its floor; the stop-loss leg is refused by the chain", { timeout: 120_000 }, async () => {
    const stack = await startNonceTriggerStack();
    stacks.push(stack);
    const whale = funded(stack, 400n);
    // The whale first sells SOL (to hold USDC to buy back with later).
    await stack.swapAs(whale, SOL, USDC, 100n * ONE_SOL);
    const taker = funded(stack, 5n);
    const p0 = await solPrice(stack);
    const tp = (p0 * 102n) / 100n;
    const sl = (p0 * 90n) / 100n;
    const tpFloor = (tp * 99n) / 100n;
    const slFloor = (sl * 95n) / 100n;
    const { created, signed } = await armed(stack, taker, {
      kind: "oco",
      takeProfit: { price: usdc(tp), minOutAmount: tpFloor.toString() },
      stopLoss: { price: usdc(sl), minOutAmount: slFloor.toString() },
    });
    expect(created.legs.map((l: any) => l.kind)).toEqual(["take_profit", "stop_loss"]);
    const solBefore = stack.localnet.chain.getAccount(taker.publicKey)!.lamports;

    // Another wallet buys SOL back with its USDC: the price rises past the take-profit.
    const whaleUsdc = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), whale.publicKey));
    await stack.swapAs(whale, USDC, SOL, whaleUsdc);
    expect(await solPrice(stack)).toBeGreaterThanOrEqual(tp);

    const done = await stack.waitForOrder(taker.publicKey.toBase58(), created.orderId, (o) => o.status !== "armed" && o.status !== "triggered");
    expect(done.status, JSON.stringify(done)).toBe("landed");
    const landed = done.legs.find((l: any) => l.status === "landed");
    expect(landed.kind).toBe("take_profit");
    const received = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
    expect(received).toBeGreaterThanOrEqual(tpFloor);
    expect(BigInt(landed.outAmount)).toBe(received);
    expect(BigInt(landed.inAmount)).toBe(ONE_SOL);
    const record = stack.localnet.chain.getRecord(landed.signature)!;
    expect(record.err).toBeNull();
    expect(BigInt(landed.slot)).toBe(BigInt(record.slot));
    expect(done.legs.find((l: any) => l.kind === "stop_loss").status).toBe("voided");

    // The stop-loss leg, sent now, is refused by the chain (its nonce moved): nothing more leaves the taker.
    const solAfter = stack.localnet.chain.getAccount(taker.publicKey)!.lamports;
    expect(solBefore - solAfter).toBeGreaterThanOrEqual(ONE_SOL);
    await expect(stack.chain.sendTransaction(Buffer.from(signed[1]!, "base64"))).rejects.toThrow(/Blockhash not found/i);
    await expect(stack.chain.sendTransaction(Buffer.from(signed[1]!, "base64"), { skipPreflight: true })).rejects.toThrow(/Blockhash not found/i);
    expect(stack.localnet.chain.getAccount(taker.publicKey)!.lamports).toBe(solAfter);
    expect(tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey))).toBe(received);
  });
});
