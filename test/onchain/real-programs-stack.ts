// A localnet running the real mainnet programs and account snapshots of SWAPD_CHAIN_DIR (Jupiter v6,
// Whirlpool, Raydium CP/CLMM, Meteora DLMM), the real swap API on port 0 in front of it, and the
// steps of a trade as a client makes them: swap-instructions over REST → v0 transaction → sign →
// send over JSON-RPC → token balances before and after.
import { join } from "node:path";
import { AccountLayout, ACCOUNT_SIZE, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  Connection,
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import type { AccountData } from "../../src/core/solana/account.js";
import type { AmmAdapter, PoolQuote, QuoteParams } from "../../src/core/amm/adapter.js";
import { TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { loadAccountsDir } from "../../src/localnet/snapshots.js";
import type { LocalChainClock } from "../../src/localnet/local-chain.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "../server/helpers.js";
import { toTransactionInstruction } from "../api/swap-stack.js";

export const NATIVE_MINT = new PublicKey("So11111111111111111111111111111111111111112");

/** The chain's clock as a quote takes it. */
export function clockOf(localnet: Localnet): { slot: bigint; unixTimestamp: bigint } {
  const clock = localnet.chain.svm.getClock();
  return { slot: clock.slot, unixTimestamp: clock.unixTimestamp };
}

/**
 * An adapter's quote for the pool at `address`, reading what its `quoteAccounts` asks for round
 * by round straight from the chain (no service, no cache), at the chain's clock.
 */
export function quoteFromChain<Pool>(
  stack: Pick<RealProgramsStack, "account" | "localnet">,
  adapter: AmmAdapter<Pool>,
  address: PublicKey,
  params: QuoteParams,
): { pool: Pool; quote: PoolQuote } {
  const pool = adapter.decodePool(stack.account(address)!);
  const accounts = new Map<string, AccountData | null>();
  for (let round = 0; round < 3; round++) {
    const keys = adapter.quoteAccounts!(pool, params, accounts);
    if (keys.length === 0) break;
    for (const key of keys) accounts.set(key.toBase58(), stack.account(key));
  }
  return { pool, quote: adapter.quote!(pool, params, accounts, clockOf(stack.localnet)) };
}

/** A one-step Jupiter `QuoteResponse` for a pool quote, with no slippage allowed (the threshold is the quote itself). */
export function quoteResponseOf(step: {
  ammKey: PublicKey;
  label: string;
  inputMint: PublicKey;
  outputMint: PublicKey;
  swapMode: "ExactIn" | "ExactOut";
  inAmount: bigint;
  outAmount: bigint;
  feeAmount: bigint;
  feeMint: PublicKey;
}): Record<string, unknown> {
  const amounts = { inAmount: String(step.inAmount), outAmount: String(step.outAmount) };
  return {
    inputMint: step.inputMint.toBase58(),
    outputMint: step.outputMint.toBase58(),
    ...amounts,
    otherAmountThreshold: step.swapMode === "ExactIn" ? amounts.outAmount : amounts.inAmount,
    swapMode: step.swapMode,
    slippageBps: 0,
    platformFee: null,
    priceImpactPct: "0",
    routePlan: [
      {
        swapInfo: {
          ammKey: step.ammKey.toBase58(),
          label: step.label,
          inputMint: step.inputMint.toBase58(),
          outputMint: step.outputMint.toBase58(),
          ...amounts,
          feeAmount: String(step.feeAmount),
          feeMint: step.feeMint.toBase58(),
        },
        percent: 100,
        bps: 10000,
      },
    ],
    contextSlot: 0,
    timeTaken: 0,
  };
}

export interface RealProgramsStack {
  readonly localnet: Localnet;
  readonly connection: Connection;
  readonly server: RunningServer;
  /** Reads an account straight from the chain (what a quote is computed from). */
  account(key: PublicKey): AccountData | null;
  /**
   * Gives `owner` an associated token account for `mint` holding `amount`, written in SPL Token's
   * layout under `tokenProgram` (Token-2022 takes the same 165 bytes for a mint without extensions).
   */
  fund(owner: PublicKey, mint: PublicKey, amount: bigint, tokenProgram?: PublicKey): PublicKey;
  tokenBalance(account: PublicKey): bigint;
  /** Signs and sends instructions as `user`; returns the signature or throws with the logs. */
  send(user: Keypair, instructions: TransactionInstruction[]): Promise<string>;
  /** POST /swap/v1/swap-instructions, then assemble, sign and send; returns the signature or throws with the logs. */
  /** Writes the snapshot accounts back (the mainnet pools as they were), keeping everything else. */
  restoreSnapshots(): Promise<void>;
  swap(user: Keypair, quoteResponse: Record<string, unknown>, extra?: Record<string, unknown>): Promise<string>;
  /** POST /swap/v1/swap-instructions only: the 200 answer's body (throws on any other status). */
  swapInstructions(user: Keypair, quoteResponse: Record<string, unknown>, extra?: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

/** A token account's data in SPL Token's layout (165 bytes). */
export function tokenAccountData(mint: PublicKey, owner: PublicKey, amount: bigint, nativeReserve: bigint | null): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1,
      isNativeOption: nativeReserve === null ? 0 : 1,
      isNative: nativeReserve ?? 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

/** Which snapshot folders of the chain folder to load (default `accounts`), and where the clock starts. */
export interface RealProgramsStackOptions {
  readonly accountFolders?: readonly string[];
  readonly clock?: LocalChainClock;
}

export async function startRealProgramsStack(chainDir: string, options: RealProgramsStackOptions = {}): Promise<RealProgramsStack> {
  const accountsDirs = (options.accountFolders ?? ["accounts"]).map((folder) => join(chainDir, folder));
  const localnet = await startLocalnet({
    port: 0,
    programsDir: join(chainDir, "programs"),
    accountsDir: accountsDirs,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const chain = new RpcSolanaChain({ url: localnet.url });
  // No chain-state cache: every request reads the state the quote was made from.
  const api = createSwapApi({ chain, relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS, lookupTables: [], random: () => 0.5, chainStateTtlMs: 0 });
  const { server } = await startTestServer({ services: { swap: api.service }, restRoutes: api.restRoutes });
  const connection = new Connection(localnet.url, "confirmed");
  const rent = localnet.chain.minimumBalanceForRentExemption(ACCOUNT_SIZE);

  const stack: RealProgramsStack = {
    localnet,
    connection,
    server,
    account: (key) => localnet.getAccount(key),
    fund(owner, mint, amount, tokenProgram = TOKEN_PROGRAM_ID) {
      const address = getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
      const native = mint.equals(NATIVE_MINT);
      localnet.setAccount(address, {
        lamports: rent + (native ? amount : 0n),
        data: tokenAccountData(mint, owner, amount, native ? rent : null),
        owner: tokenProgram,
      });
      return address;
    },
    tokenBalance(account) {
      const data = localnet.getAccount(account)?.data;
      return data ? AccountLayout.decode(data).amount : 0n;
    },
    restoreSnapshots: async () => {
      for (const dir of accountsDirs) await loadAccountsDir(localnet.chain, dir);
    },
    async swapInstructions(user, quoteResponse, extra = {}) {
      const res = await fetch(`${server.url}/swap/v1/swap-instructions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userPublicKey: user.publicKey.toBase58(), quoteResponse, wrapAndUnwrapSol: false, useSharedAccounts: false, ...extra }),
      });
      const body = (await res.json()) as Record<string, any>;
      if (res.status !== 200) throw new Error(`swap-instructions answered ${res.status}: ${JSON.stringify(body)}`);
      return body;
    },
    async swap(user, quoteResponse, extra = {}) {
      const body = await stack.swapInstructions(user, quoteResponse, extra);
      const instructions = [
        ...body.computeBudgetInstructions,
        ...body.setupInstructions,
        body.swapInstruction,
        ...(body.cleanupInstruction ? [body.cleanupInstruction] : []),
        ...body.otherInstructions,
      ].map(toTransactionInstruction);
      return stack.send(user, instructions);
    },
    async send(user, instructions) {
      const { blockhash } = await connection.getLatestBlockhash();
      const message = new TransactionMessage({ payerKey: user.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message();
      const tx = new VersionedTransaction(message);
      tx.sign([user]);
      const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      const record = localnet.chain.getRecord(signature);
      if (record?.err) {
        throw new Error(`swap failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`);
      }
      return signature;
    },
    async close() {
      await server.close();
      await localnet.close();
    },
  };
  return stack;
}
