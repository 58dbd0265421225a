// The on-chain test stack: the swap API in front of an embedded chain that holds the real mainnet
// programs (Jupiter v6 and the AMMs) and account snapshots from SWAPD_CHAIN_DIR. A test asks the
// real API for swap instructions, signs them as a wallet would, sends them to the chain and reads
// what the programs did. Reusable by any test that needs executed swaps (pool creators live in
// test/onchain/pools/).
import { AccountLayout, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  AddressLookupTableAccount,
  AddressLookupTableProgram,
  Keypair,
  PublicKey,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import type { DemoSeeder } from "../../src/localnet/demo-seed.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { TransactionRecord } from "../../src/localnet/transaction-history.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { jupiterCoder } from "../core/jupiter/anchor-idl.js";
import { BN } from "@coral-xyz/anchor";
import { JUP6, startSwapStack } from "../api/swap-stack.js";
import { toTransactionInstruction } from "../api/swap-stack.js";
import type { InstructionJson, SwapStack } from "../api/swap-stack.js";

export const TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const NATIVE_MINT = new PublicKey("So11111111111111111111111111111111111111112");

/**
 * Starts the swap API over an embedded chain loaded with every program and account snapshot of
 * SWAPD_CHAIN_DIR (once per test file), then the demo seed and `seeders` (pools, lookup tables).
 */
export async function startOnchainStack(options: { seeders?: readonly DemoSeeder[]; lookupTables?: () => readonly string[] } = {}): Promise<SwapStack> {
  if (!CHAIN_DIR) throw new Error("SWAPD_CHAIN_DIR is not set (guard the suite with hasChainDir())");
  return startSwapStack({
    localnet: { programsDir: join(CHAIN_DIR, "programs"), accountsDir: join(CHAIN_DIR, "accounts") },
    extraSeeders: options.seeders ?? [],
    ...(options.lookupTables ? { lookupTables: options.lookupTables } : {}),
    chainStateTtlMs: 0,
  });
}

/** Sends `instructions` signed by `signers` (first = fee payer) as a legacy transaction; throws when it fails. */
export function sendLegacy(localnet: Localnet, instructions: TransactionInstruction[], signers: Keypair[]): TransactionRecord {
  const chain = localnet.chain;
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, ...chain.latestBlockhash() }).add(...instructions);
  tx.sign(...signers);
  const { signature } = chain.sendTransaction(tx.serialize(), { skipPreflight: false });
  return chain.getRecord(signature)!;
}

/** Writes an SPL Token account holding `amount` of `mint` for `owner` at its associated address. */
export function giveTokens(localnet: Localnet, owner: PublicKey, mint: PublicKey, amount: bigint): PublicKey {
  const address = getAssociatedTokenAddressSync(mint, owner, true);
  const data = Buffer.alloc(AccountLayout.span);
  const native = mint.equals(NATIVE_MINT);
  AccountLayout.encode(
    {
      mint, owner, amount, delegateOption: 0, delegate: PublicKey.default, state: 1,
      isNativeOption: native ? 1 : 0, isNative: native ? 2_039_280n : 0n,
      delegatedAmount: 0n, closeAuthorityOption: 0, closeAuthority: PublicKey.default,
    },
    data,
  );
  localnet.setAccount(address, { lamports: 2_039_280n + (native ? amount : 0n), data, owner: TOKEN_PROGRAM });
  return address;
}

/** The token amount of an SPL Token / Token-2022 account (0 when it does not exist). */
export function tokenAmount(localnet: Localnet, account: PublicKey): bigint {
  const acc = localnet.getAccount(account);
  if (!acc || acc.data.length < 72) return 0n;
  return Buffer.from(acc.data).readBigUInt64LE(64);
}

/** Creates a lookup table holding `addresses` (real transactions of the lookup-table program). */
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

/** What executing a SwapInstructions answer produced. */
export interface ExecutedSwap {
  readonly record: TransactionRecord;
  /** Program ids invoked by CPI (inner instructions), in order. */
  readonly innerPrograms: string[];
  /** The transaction's size on the wire. */
  readonly bytes: number;
}

/**
 * Assembles a SwapInstructions answer (REST JSON) into a v0 transaction as a client does —
 * compute budget, setup, swap, cleanup, other — with its lookup tables read from the chain,
 * signs it and sends it. The record is returned whether it succeeded or failed.
 */
export function executeSwapAnswer(localnet: Localnet, answer: any, signer: Keypair = DEMO_WALLET): ExecutedSwap {
  const ixs: InstructionJson[] = [
    ...answer.computeBudgetInstructions,
    ...answer.setupInstructions,
    answer.swapInstruction,
    ...(answer.cleanupInstruction ? [answer.cleanupInstruction] : []),
    ...answer.otherInstructions,
  ];
  const tables = (answer.addressLookupTableAddresses as string[]).map((address) => {
    const key = new PublicKey(address);
    const acc = localnet.getAccount(key);
    if (!acc) throw new Error(`lookup table ${address} is not on the chain`);
    return new AddressLookupTableAccount({ key, state: AddressLookupTableAccount.deserialize(acc.data) });
  });
  const message = new TransactionMessage({
    payerKey: signer.publicKey,
    recentBlockhash: localnet.chain.latestBlockhash().blockhash,
    instructions: ixs.map(toTransactionInstruction),
  }).compileToV0Message(tables);
  const tx = new VersionedTransaction(message);
  tx.sign([signer]);
  const wire = tx.serialize();
  const { signature } = localnet.chain.sendTransaction(wire, { skipPreflight: true });
  const record = localnet.chain.getRecord(signature)!;
  const innerPrograms = record.innerInstructions.flatMap((list) =>
    list.instructions.map((ix) => record.accountKeys[ix.programIdIndex]!.toBase58()),
  );
  return { record, innerPrograms, bytes: wire.length };
}

/** The Jupiter program is the one that invoked `program`: it appears at stack height 2 under the swap instruction. */
export function invokedByJupiter(executed: ExecutedSwap, program: PublicKey): boolean {
  const jup = JUP6.toBase58();
  return executed.record.logs.some((line, i, logs) => {
    if (line !== `Program ${program.toBase58()} invoke [2]`) return false;
    // the nearest enclosing invoke [1] above it is Jupiter's
    for (let j = i - 1; j >= 0; j--) if (logs[j]!.endsWith("invoke [1]")) return logs[j] === `Program ${jup} invoke [1]`;
    return false;
  });
}

/** The wallet's balance of `mint`: lamports for SOL (wrapped and unwrapped within the swap), else its ATA's amount. */
export function walletBalance(localnet: Localnet, wallet: PublicKey, mint: PublicKey): bigint {
  if (mint.equals(NATIVE_MINT)) return localnet.getAccount(wallet)?.lamports ?? 0n;
  const tokenProgram = localnet.getAccount(mint)?.owner ?? TOKEN_PROGRAM; // SPL Token or Token-2022
  return tokenAmount(localnet, getAssociatedTokenAddressSync(mint, wallet, true, tokenProgram));
}

/** What executing a quote through swapd did to the wallet. */
export interface QuoteOutcome extends ExecutedSwap {
  readonly answer: any;
  /** Input spent and output received by the wallet (SOL net of the transaction fee). */
  readonly paid: bigint;
  readonly got: bigint;
}

/**
 * Asks swapd (REST, Jupiter's JSON) for the swap instructions of `quote`, executes them and
 * measures the wallet's input and output balances. Throws if swapd does not answer 200; the
 * record may hold a failed transaction (check `record.err`).
 */
export async function executeQuote(
  stack: SwapStack,
  quote: Record<string, any>,
  extra: Record<string, unknown> = {},
  signer: Keypair = DEMO_WALLET,
): Promise<QuoteOutcome> {
  const answer = await stack.rest({ userPublicKey: signer.publicKey.toBase58(), quoteResponse: quote, prioritizationFeeLamports: 0, ...extra });
  if (answer.status !== 200) throw new Error(`swapd answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const input = new PublicKey(quote["inputMint"]);
  const output = new PublicKey(quote["outputMint"]);
  const before = [walletBalance(stack.localnet, signer.publicKey, input), walletBalance(stack.localnet, signer.publicKey, output)];
  const executed = executeSwapAnswer(stack.localnet, answer.body, signer);
  const fee = BigInt(executed.record.fee);
  const after = [walletBalance(stack.localnet, signer.publicKey, input), walletBalance(stack.localnet, signer.publicKey, output)];
  const paid = before[0]! - after[0]! - (input.equals(NATIVE_MINT) ? fee : 0n);
  const got = after[1]! - before[1]! + (output.equals(NATIVE_MINT) ? fee : 0n);
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
    accounts: [tokenProgram, user, source, destination, none, readonly(step.inputMint), readonly(step.outputMint), none, none, readonly(eventAuthority), readonly(route.programId), ...stepAccounts],
  };
  const { record } = executeSwapAnswer(localnet, { ...exactInAnswer, swapInstruction: exactOutRoute });
  const index = record.transaction.message.compiledInstructions.findIndex((ix) => record.accountKeys[ix.programIdIndex]!.equals(new PublicKey(route.programId)));
  return { record, index };
}
