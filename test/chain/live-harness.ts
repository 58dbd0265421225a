// Test stack for live chain state: the embedded chain with the real mainnet Whirlpool snapshots
// (SWAPD_CHAIN_DIR/accounts), the real chain layer, a live chain state over one of the three
// sources, the swap API on the real server (port 0), and REST requests with fetch.
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { ParsableWhirlpool, SwapUtils } from "@orca-so/whirlpools-sdk";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import type { LiveChain, LiveSource } from "../../src/chain/live/live-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { jupiterQuote } from "../api/swap-stack.js";
import { startTestServer } from "../server/helpers.js";

export const WHIRLPOOL_PROGRAM = new PublicKey("whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc");
/** Mainnet Whirlpool SOL/USDC (tick spacing 64) and SAMO/USDC, from the chain folder's snapshots. */
export const SOL_USDC = new PublicKey("HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ");
export const SAMO_USDC = new PublicKey("9vqYJjDUFecLL2xPUC4Rc7hyCtZ6iJ4mDiVZX7aFXoAe");
export const SOL = "So11111111111111111111111111111111111111112";
export const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
export const SAMO = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const USER = Keypair.fromSeed(new Uint8Array(32).fill(7)).publicKey.toBase58();

/** 1 SOL → USDC through SOL/USDC (1 hop), or on to SAMO through SAMO/USDC (2 hops). */
export function whirlpoolRequest(hops: 1 | 2): Record<string, unknown> {
  const first = { ammKey: SOL_USDC.toBase58(), label: "Whirlpool", inputMint: SOL, outputMint: USDC, inAmount: "1000000000", outAmount: "40000000" };
  const second = { ammKey: SAMO_USDC.toBase58(), label: "Whirlpool", inputMint: USDC, outputMint: SAMO, inAmount: "40000000", outAmount: "5000000000000" };
  const steps = hops === 1 ? [first] : [first, second];
  const last = steps[steps.length - 1];
  return {
    userPublicKey: USER,
    // The caller knows its token accounts: no user-account reads (they keep a short TTL cache otherwise).
    skipUserAccountsRpcCalls: true,
    quoteResponse: jupiterQuote(steps, { inputMint: SOL, outputMint: last.outputMint, inAmount: first.inAmount, outAmount: last.outAmount }),
  };
}

export interface LiveStack {
  readonly localnet: Localnet;
  readonly chain: RpcSolanaChain;
  readonly live: LiveChain;
  readonly server: RunningServer;
  swap(body: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** `programs`: load the chain folder's program binaries too, so that swaps can be executed. */
export async function startLiveStack(
  source: (localnet: Localnet) => LiveSource | Promise<LiveSource>,
  options: { maxStalenessMs?: number; connectTimeoutMs?: number; programs?: boolean } = {},
): Promise<LiveStack> {
  const localnet = await startLocalnet({
    accountsDir: join(CHAIN_DIR!, "accounts"),
    ...(options.programs ? { programsDir: join(CHAIN_DIR!, "programs") } : {}),
  });
  const chain = new RpcSolanaChain({ url: localnet.url });
  const live = await startLiveChain({
    chain,
    source: await source(localnet),
    maxStalenessMs: options.maxStalenessMs ?? 500,
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
  });
  const api = createSwapApi({ chain, live, relayTipAccounts: [], random: () => 0.5 });
  const { server } = await startTestServer({ services: { swap: api.service }, restRoutes: api.restRoutes });
  return {
    localnet,
    chain,
    live,
    server,
    async swap(body) {
      const res = await fetch(`${server.url}/swap/v1/swap-instructions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await server.close();
      await live.close();
      chain.close();
      await localnet.close();
    },
  };
}

/** The pool as Orca's SDK decodes it from the chain (independent of swapd's decoder). */
export function whirlpoolOnChain(localnet: Localnet, pool: PublicKey) {
  const account = localnet.getAccount(pool)!;
  return ParsableWhirlpool.parse(pool, { ...account, lamports: Number(account.lamports), data: Buffer.from(account.data) })!;
}

/** Writes a new current tick into the pool account on the chain (byte offset of `tick_current_index` in the Whirlpool layout). */
export function writePoolTick(localnet: Localnet, pool: PublicKey, tick: number): void {
  const account = localnet.getAccount(pool)!;
  const data = Buffer.from(account.data);
  data.writeInt32LE(tick, 81);
  localnet.setAccount(pool, { lamports: account.lamports, data, owner: account.owner });
  if (whirlpoolOnChain(localnet, pool).tickCurrentIndex !== tick) throw new Error("tick write did not land where Orca's layout has it");
}

/** The three tick arrays Orca's SDK picks for a swap from the pool's current on-chain state. */
export function expectedTickArrays(localnet: Localnet, pool: PublicKey, aToB: boolean): string[] {
  const state = whirlpoolOnChain(localnet, pool);
  return SwapUtils.getTickArrayPublicKeys(state.tickCurrentIndex, state.tickSpacing, aToB, WHIRLPOOL_PROGRAM, pool).map((k) => k.toBase58());
}

/** Accounts of the swap instruction (REST JSON), as base58. */
export function swapAccounts(body: any): string[] {
  return body.swapInstruction.accounts.map((a: { pubkey: string }) => a.pubkey);
}

export async function waitFor(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
