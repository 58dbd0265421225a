// The on-chain test stack: an embedded chain holding the real mainnet programs (Jupiter v6 and the
// AMMs) and account snapshots of SWAPD_CHAIN_DIR, the real swap API on port 0 in front of it, and
// what a client does with its answers: swap-instructions over REST → v0 transaction → sign → send
// over JSON-RPC → token balances before and after. Options choose the snapshot folders, the clock,
// the demo content and the quote engine's settings; pool creators live in test/onchain/pools/.
import { join } from "node:path";
import { createHash } from "node:crypto";
import { BN } from "@coral-xyz/anchor";
import { Configuration, SwapApi as JupiterSwapApi } from "@jup-ag/api";
import { ACCOUNT_SIZE, NATIVE_MINT, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  AddressLookupTableAccount,
  AddressLookupTableProgram,
  Connection,
  Keypair,
  PublicKey,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import type { SwapApi } from "../../src/api/swap-api.js";
import type { QuoteApiOptions } from "../../src/api/quote/quote-api.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import type { AmmAdapter, PoolQuote, QuoteParams } from "../../src/core/amm/adapter.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { DEMO_WALLET, seedDemo } from "../../src/localnet/demo-seed.js";
import type { DemoSeeder } from "../../src/localnet/demo-seed.js";
import type { LocalChainClock } from "../../src/localnet/local-slot-clock.js";
import { loadAccountsDir } from "../../src/localnet/snapshots.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { TransactionRecord } from "../../src/localnet/transaction-history.js";
import type { RunningServer } from "../../src/server/server.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { jupiterCoder } from "../core/jupiter/anchor-idl.js";
import { startTestServer } from "../server/helpers.js";
import { JUP6, toTransactionInstruction } from "../api/swap-stack.js";
import type { InstructionJson } from "../api/swap-stack.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";

export { JUP6, NATIVE_MINT };
export const TOKEN_PROGRAM = TOKEN_PROGRAM_ID;

// ---- The stack ----------------------------------------------------------------------------------

export interface OnchainStackOptions {
  /** Snapshot folders of SWAPD_CHAIN_DIR to load, in order (a later folder's account wins). Default `["accounts"]`. */
  readonly accountFolders?: readonly string[];
  /** Where the chain's clock starts (snapshots of oracle-priced pools need their slot and time). */
  readonly clock?: LocalChainClock;
  /** Seed the demo content (wallet, USDC-like mint, demo Raydium CP pool), then `seeders`. */
  readonly demo?: boolean;
  /** More content written after the demo (pools, token accounts, lookup tables); implies `demo`. */
  readonly seeders?: readonly DemoSeeder[];
  /** LOOKUP_TABLES, known after seeding. */
  readonly lookupTables?: () => readonly string[];
  /** The quote engine's settings; given, the engine is started (market index, lookup-table and program quoter jobs). */
  readonly quote?: QuoteApiOptions;
}

export interface HttpAnswer {
  readonly status: number;
  readonly body: any;
}

export interface OnchainStack {
  readonly localnet: Localnet;
  /** web3.js over the chain's JSON-RPC, as a client sends. */
  readonly connection: Connection;
  readonly api: SwapApi;
  readonly server: RunningServer;
  /** @jup-ag/api pointed at the service's `/swap/v1`. */
  readonly jupiter: JupiterSwapApi;
  get(path: string): Promise<HttpAnswer>;
  post(path: string, body: unknown): Promise<HttpAnswer>;
  /**
   * POST /swap/v1/swap-instructions for `user` with the user's own token accounts (no SOL wrapping,
   * no shared accounts, unless `extra` says so): the 200 answer's body; throws on any other status.
   */
  swapInstructions(user: Keypair, quoteResponse: Record<string, unknown>, extra?: Record<string, unknown>): Promise<Record<string, any>>;
  /** swapInstructions, then assemble, sign and send as a client does; returns the signature or throws with the logs. */
  swap(user: Keypair, quoteResponse: Record<string, unknown>, extra?: Record<string, unknown>): Promise<string>;
  /** Sends `instructions` as one v0 transaction paid and signed by `payer`; returns the signature or throws with the logs. */
  send(payer: Keypair, instructions: TransactionInstruction[]): Promise<string>;
  /** Signs a base64 transaction (a /swap or /order answer) and sends it; returns the signature or throws with the logs. */
  signAndSend(transaction: string, signer: Keypair): Promise<string>;
  /** Writes the snapshot accounts back (the mainnet pools as they were), keeping everything else. */
  restoreSnapshots(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the stack over SWAPD_CHAIN_DIR's programs and snapshots (guard the suite with hasChainDir()/hasPrograms()). */
export async function startOnchainStack(options: OnchainStackOptions = {}): Promise<OnchainStack> {
  if (!CHAIN_DIR) throw new Error("SWAPD_CHAIN_DIR is not set (guard the suite with hasChainDir())");
  const accountsDirs = (options.accountFolders ?? ["accounts"]).map((folder) => join(CHAIN_DIR!, folder));
  const localnet = await startLocalnet({
    port: 0,
    programsDir: join(CHAIN_DIR, "programs"),
    accountsDir: accountsDirs,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  if (options.demo || options.seeders) await seedDemo(localnet, options.seeders ?? []);
  const api = createSwapApi({
    chain: new RpcSolanaChain({ url: localnet.url }),
    relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS,
    lookupTables: options.lookupTables?.() ?? [],
    random: () => 0.5,
    // No chain-state cache: every request reads the state the test just wrote or a swap just moved.
    chainStateTtlMs: 0,
    ...(options.quote ? { quote: options.quote } : {}),
  });
  if (options.quote) await api.start();
  // As the service runs (main.ts): the hot call's Connect JSON takes its codec path.
  const { server } = await startTestServer({ services: { swap: api.service }, restRoutes: api.restRoutes, jsonCodecs: api.jsonCodecs });
  const connection = new Connection(localnet.url, "confirmed");

  const call = async (path: string, init: RequestInit): Promise<HttpAnswer> => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const land = async (tx: VersionedTransaction): Promise<string> => {
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const record = localnet.chain.getRecord(signature);
    if (record?.err) throw new Error(`transaction failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`);
    return signature;
  };

  const stack: OnchainStack = {
    localnet,
    connection,
    api,
    server,
    jupiter: new JupiterSwapApi(new Configuration({ basePath: `${server.url}/swap/v1` })),
    get: (path) => call(path, {}),
    post: (path, body) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    async swapInstructions(user, quoteResponse, extra = {}) {
      const answer = await stack.post("/swap/v1/swap-instructions", {
        userPublicKey: user.publicKey.toBase58(),
        quoteResponse,
        wrapAndUnwrapSol: false,
        useSharedAccounts: false,
        ...extra,
      });
      if (answer.status !== 200) throw new Error(`swap-instructions answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async swap(user, quoteResponse, extra = {}) {
      return land(swapTransaction(localnet, await stack.swapInstructions(user, quoteResponse, extra), user));
    },
    async send(payer, instructions) {
      const { blockhash } = await connection.getLatestBlockhash();
      const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
      tx.sign([payer]);
      return land(tx);
    },
    async signAndSend(transaction, signer) {
      const tx = VersionedTransaction.deserialize(Buffer.from(transaction, "base64"));
      tx.sign([signer]);
      return land(tx);
    },
    async restoreSnapshots() {
      for (const dir of accountsDirs) await loadAccountsDir(localnet.chain, dir);
    },
    async close() {
      api.close();
      await server.close();
      await localnet.close();
    },
  };
  return stack;
}

// ---- Token accounts -----------------------------------------------------------------------------

/**
 * Writes `owner`'s associated token account for `mint` holding `amount`, in SPL Token's layout under
 * `tokenProgram` (Token-2022 takes the same 165 bytes for a mint without extensions); wSOL holds the
 * lamports too. Returns its address.
 */
export function fundTokenAccount(localnet: Localnet, owner: PublicKey, mint: PublicKey, amount: bigint, tokenProgram: PublicKey = TOKEN_PROGRAM): PublicKey {
  const address = getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
  const rent = localnet.chain.minimumBalanceForRentExemption(ACCOUNT_SIZE);
  const native = mint.equals(NATIVE_MINT);
  localnet.setAccount(address, {
    lamports: rent + (native ? amount : 0n),
    data: encodeTokenAccount(mint, owner, amount, native ? rent : null),
    owner: tokenProgram,
  });
  return address;
}

/** The token amount of an SPL Token / Token-2022 account (0 when it does not exist). */
export function tokenBalance(localnet: Localnet, account: PublicKey): bigint {
  const data = localnet.getAccount(account)?.data;
  if (!data || data.length < 72) return 0n;
  return Buffer.from(data).readBigUInt64LE(64);
}

/** The wallet's balance of `mint`: lamports for SOL (wrapped and unwrapped within the swap), else its ATA's amount. */
export function walletBalance(localnet: Localnet, wallet: PublicKey, mint: PublicKey): bigint {
  if (mint.equals(NATIVE_MINT)) return localnet.getAccount(wallet)?.lamports ?? 0n;
  const tokenProgram = localnet.getAccount(mint)?.owner ?? TOKEN_PROGRAM; // SPL Token or Token-2022
  return tokenBalance(localnet, getAssociatedTokenAddressSync(mint, wallet, true, tokenProgram));
}

// ---- Transactions -------------------------------------------------------------------------------

/** Sends `instructions` signed by `signers` (first = fee payer) as a legacy transaction straight to the chain; throws when it fails. */
export function sendLegacy(localnet: Localnet, instructions: TransactionInstruction[], signers: Keypair[]): TransactionRecord {
  const chain = localnet.chain;
  const tx = new Transaction({ feePayer: signers[0].publicKey, ...chain.latestBlockhash() }).add(...instructions);
  tx.sign(...signers);
  const { signature } = chain.sendTransaction(tx.serialize(), { skipPreflight: false });
  return chain.getRecord(signature)!;
}

/** Creates a lookup table holding `addresses` (real transactions of the lookup-table program, paid by the demo wallet). */
export function createLookupTable(localnet: Localnet, addresses: PublicKey[]): PublicKey {
  const authority = DEMO_WALLET.publicKey;
  const [create, table] = AddressLookupTableProgram.createLookupTable({ authority, payer: authority, recentSlot: localnet.chain.slot });
  sendLegacy(localnet, [create], [DEMO_WALLET]);
  for (let i = 0; i < addresses.length; i += 20) {
    const chunk = addresses.slice(i, i + 20);
    sendLegacy(localnet, [AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority, payer: authority, addresses: chunk })], [DEMO_WALLET]);
  }
  return table;
}

/**
 * A SwapInstructions answer (REST JSON) assembled as a client does — compute budget, setup, swap,
 * cleanup, other — into a v0 transaction with its lookup tables read from the chain, signed by `signer`.
 */
export function swapTransaction(localnet: Localnet, answer: any, signer: Keypair): VersionedTransaction {
  const instructions: InstructionJson[] = [
    ...answer.computeBudgetInstructions,
    ...answer.setupInstructions,
    answer.swapInstruction,
    ...(answer.cleanupInstruction ? [answer.cleanupInstruction] : []),
    ...answer.otherInstructions,
  ];
  const tables = ((answer.addressLookupTableAddresses ?? []) as string[]).map((address) => {
    const key = new PublicKey(address);
    const account = localnet.getAccount(key);
    if (!account) throw new Error(`lookup table ${address} is not on the chain`);
    return new AddressLookupTableAccount({ key, state: AddressLookupTableAccount.deserialize(account.data) });
  });
  const message = new TransactionMessage({
    payerKey: signer.publicKey,
    recentBlockhash: localnet.chain.latestBlockhash().blockhash,
    instructions: instructions.map(toTransactionInstruction),
  }).compileToV0Message(tables);
  const tx = new VersionedTransaction(message);
  tx.sign([signer]);
  return tx;
}

/** What executing a SwapInstructions answer produced. */
export interface ExecutedSwap {
  readonly record: TransactionRecord;
  /** Program ids invoked by CPI (inner instructions), in order. */
  readonly innerPrograms: string[];
  /** The transaction's size on the wire. */
  readonly bytes: number;
}

/** Assembles, signs and sends a SwapInstructions answer (swapTransaction); the record is returned whether it succeeded or failed. */
export function executeSwapAnswer(localnet: Localnet, answer: any, signer: Keypair = DEMO_WALLET): ExecutedSwap {
  const wire = swapTransaction(localnet, answer, signer).serialize();
  const { signature } = localnet.chain.sendTransaction(wire, { skipPreflight: true });
  const record = localnet.chain.getRecord(signature)!;
  const innerPrograms = record.innerInstructions.flatMap((list) => list.instructions.map((ix) => record.accountKeys[ix.programIdIndex].toBase58()));
  return { record, innerPrograms, bytes: wire.length };
}

/** The Jupiter program is the one that invoked `program`: it appears at stack height 2 under the swap instruction. */
export function invokedByJupiter(executed: ExecutedSwap, program: PublicKey): boolean {
  const jup = JUP6.toBase58();
  return executed.record.logs.some((line, i, logs) => {
    if (line !== `Program ${program.toBase58()} invoke [2]`) return false;
    // the nearest enclosing invoke [1] above it is Jupiter's
    for (let j = i - 1; j >= 0; j--) if (logs[j].endsWith("invoke [1]")) return logs[j] === `Program ${jup} invoke [1]`;
    return false;
  });
}

/** What executing a quote through swapd did to the wallet. */
export interface QuoteOutcome extends ExecutedSwap {
  readonly answer: any;
  /** Input spent and output received by the wallet (SOL net of the transaction fee). */
  readonly paid: bigint;
  readonly got: bigint;
}

/**
 * Asks swapd (REST, Jupiter's JSON, every option at its default but no priority fee) for the swap
 * instructions of `quote`, executes them and measures the wallet's input and output balances. Throws
 * if swapd does not answer 200; the record may hold a failed transaction (check `record.err`).
 */
export async function executeQuote(
  stack: OnchainStack,
  quote: Record<string, any>,
  extra: Record<string, unknown> = {},
  signer: Keypair = DEMO_WALLET,
): Promise<QuoteOutcome> {
  const answer = await stack.post("/swap/v1/swap-instructions", {
    userPublicKey: signer.publicKey.toBase58(),
    quoteResponse: quote,
    prioritizationFeeLamports: 0,
    ...extra,
  });
  if (answer.status !== 200) throw new Error(`swapd answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const input = new PublicKey(quote["inputMint"]);
  const output = new PublicKey(quote["outputMint"]);
  const before = [walletBalance(stack.localnet, signer.publicKey, input), walletBalance(stack.localnet, signer.publicKey, output)];
  const executed = executeSwapAnswer(stack.localnet, answer.body, signer);
  const fee = BigInt(executed.record.fee);
  const after = [walletBalance(stack.localnet, signer.publicKey, input), walletBalance(stack.localnet, signer.publicKey, output)];
  const paid = before[0] - after[0] - (input.equals(NATIVE_MINT) ? fee : 0n);
  const got = after[1] - before[1] + (output.equals(NATIVE_MINT) ? fee : 0n);
  return { ...executed, answer: answer.body, paid, got };
}

/** Anchor's instruction discriminator (hex), from the instruction's name. */
export function anchorDiscriminator(name: string): string {
  return createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");
}

/** The Jupiter instruction's name swapd was expected to pick. */
export function jupiterInstructionName(mode: "ExactIn" | "ExactOut", shared: boolean): string {
  return `${shared ? "shared_accounts_" : ""}${mode === "ExactOut" ? "exact_out_" : ""}route`;
}

/**
 * Evidence that Jupiter's `exact_out_route` refuses a step: the step swapd built for an ExactIn
 * answer (its accounts from `ammProgram` on, which execute in `route`), wrapped in an
 * exact_out_route encoded with Anchor's coder over Jupiter's IDL for the given amounts, and sent.
 * Returns the record and the index of Jupiter's instruction in the transaction.
 */
export function executeExactOutAround(
  localnet: Localnet,
  exactInAnswer: any,
  step: { ammProgram: PublicKey; variant: string; inputMint: string; outputMint: string; outAmount: bigint; quotedInAmount: bigint },
): { record: TransactionRecord; index: number } {
  const route = exactInAnswer.swapInstruction;
  const stepAccounts = route.accounts.slice(route.accounts.findIndex((a: InstructionJson["accounts"][number]) => a.pubkey === step.ammProgram.toBase58()));
  const [tokenProgram, user, source, destination] = route.accounts;
  const none = { pubkey: route.programId, isSigner: false, isWritable: false };
  const readonly = (pubkey: string) => ({ pubkey, isSigner: false, isWritable: false });
  const data = jupiterCoder().instruction.encode("exactOutRoute", {
    routePlan: [{ swap: { [step.variant]: {} }, percent: 100, inputIndex: 0, outputIndex: 1 }],
    outAmount: new BN(step.outAmount.toString()),
    quotedInAmount: new BN(step.quotedInAmount.toString()),
    slippageBps: 50,
    platformFeeBps: 0,
  });
  const eventAuthority = PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], new PublicKey(route.programId))[0].toBase58();
  const exactOutRoute = {
    programId: route.programId,
    data: Buffer.from(data).toString("base64"),
    accounts: [
      tokenProgram,
      user,
      source,
      destination,
      none,
      readonly(step.inputMint),
      readonly(step.outputMint),
      none,
      none,
      readonly(eventAuthority),
      readonly(route.programId),
      ...stepAccounts,
    ],
  };
  const { record } = executeSwapAnswer(localnet, { ...exactInAnswer, swapInstruction: exactOutRoute });
  const index = record.transaction.message.compiledInstructions.findIndex((ix) => record.accountKeys[ix.programIdIndex].equals(new PublicKey(route.programId)));
  return { record, index };
}

// ---- Quotes straight from the chain -------------------------------------------------------------

/** The chain's clock as a quote takes it. */
export function clockOf(localnet: Localnet): { slot: bigint; unixTimestamp: bigint } {
  const clock = localnet.chain.svm.getClock();
  return { slot: clock.slot, unixTimestamp: clock.unixTimestamp };
}

/**
 * An adapter's quote for the pool at `address`, reading what its `quoteAccounts` asks for round
 * by round straight from the chain (no service, no cache), at the chain's clock.
 */
export function quoteFromChain<Pool>(localnet: Localnet, adapter: AmmAdapter<Pool>, address: PublicKey, params: QuoteParams): { pool: Pool; quote: PoolQuote } {
  const pool = adapter.decodePool(localnet.getAccount(address)!);
  const accounts = new Map<string, AccountData | null>();
  for (let round = 0; round < 3; round++) {
    const keys = adapter.quoteAccounts!(pool, params, accounts);
    if (keys.length === 0) break;
    for (const key of keys) accounts.set(key.toBase58(), localnet.getAccount(key));
  }
  return { pool, quote: adapter.quote!(pool, params, accounts, clockOf(localnet)) };
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
