/**
 * `npm run demo`: the README's swap flow, end to end, on the embedded chain with the real programs.
 * Starts the embedded chain (demo wallet, USDC-like mint, demo Raydium CP pool) with the programs of
 * LOCALNET_PROGRAMS_DIR (or SWAPD_CHAIN_DIR/programs), starts swapd against it, then as a client:
 * quote 1 SOL → USDC, swap-instructions, assemble and sign with the demo wallet, send, and compare
 * the wallet's balances before and after. Prints each step; exits 1 if any step fails.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AddressLookupTableAccount, Connection, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { loadConfig } from "../src/config.js";
import { startEmbeddedChain } from "../src/localnet/embedded-chain.js";
import { DEMO, DEMO_WALLET } from "../src/localnet/demo-accounts.js";
import { buildApp } from "../src/app/build-app.js";
import { createLogger } from "../src/server/logger.js";

const SOL = "So11111111111111111111111111111111111111112";
const NEEDED = ["JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4", "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C"];

function programsDir(): string | undefined {
  const given = process.env["LOCALNET_PROGRAMS_DIR"] ?? (process.env["SWAPD_CHAIN_DIR"] && join(process.env["SWAPD_CHAIN_DIR"], "programs"));
  return given ? resolve(given) : undefined;
}

interface InstructionJson {
  programId: string;
  accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  data: string;
}

function instruction(ix: InstructionJson): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(ix.programId),
    keys: ix.accounts.map((a) => ({ pubkey: new PublicKey(a.pubkey), isSigner: a.isSigner, isWritable: a.isWritable })),
    data: Buffer.from(ix.data, "base64"),
  });
}

async function json(res: Response, what: string): Promise<any> {
  const body = await res.json();
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function usdcBalance(connection: Connection): Promise<bigint> {
  const balance = await connection.getTokenAccountBalance(DEMO.walletUsdcAccount);
  return BigInt(balance.value.amount);
}

export async function runDemo(print: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<void> {
  const dir = programsDir();
  const missing = dir === undefined ? NEEDED : NEEDED.filter((id) => !existsSync(join(dir, `${id}.so`)));
  if (missing.length > 0) {
    throw new Error(
      `the demo needs the real programs ${missing.join(", ")}: set LOCALNET_PROGRAMS_DIR (or SWAPD_CHAIN_DIR) to a folder ` +
        "with <programId>.so files, e.g. from `npm run fetch-programs -- --url <mainnet rpc>` or `solana program dump <id> <id>.so`",
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), "swapd-demo-"));
  const embedded = await startEmbeddedChain({ programsDir: dir!, port: 0 });
  print(`1. embedded chain ${embedded.localnet.url} with ${NEEDED.length} real programs from ${dir}, demo wallet and pool seeded`);
  const logger = createLogger("error");
  const service = await buildApp(loadConfig({ PORT: "0", SOLANA_RPC_URL: embedded.localnet.url, DATA_DIR: dataDir, LOG_LEVEL: "error" }), { logger });
  const api = service.server.url;
  print(`2. swapd listening on ${api}`);
  try {
    const connection = new Connection(embedded.localnet.url, "confirmed");
    const wallet = DEMO.wallet.toBase58();
    const before = { sol: await connection.getBalance(DEMO.wallet), usdc: await usdcBalance(connection) };
    print(`3. demo wallet ${wallet}: ${before.sol / 1e9} SOL, ${Number(before.usdc) / 1e6} USDC`);

    const query = new URLSearchParams({ inputMint: SOL, outputMint: DEMO.usdcMint.toBase58(), amount: "1000000000", slippageBps: "50" });
    const quote = await json(await fetch(`${api}/swap/v1/quote?${query}`), "quote");
    const route = quote.routePlan.map((s: any) => `${s.swapInfo.label} ${s.swapInfo.ammKey}`).join(" → ");
    print(`4. GET /swap/v1/quote: 1 SOL → ${Number(quote.outAmount) / 1e6} USDC (at least ${Number(quote.otherAmountThreshold) / 1e6}) via ${route}`);

    const answer = await json(
      await fetch(`${api}/swap/v1/swap-instructions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userPublicKey: wallet, quoteResponse: quote }),
      }),
      "swap-instructions",
    );
    const instructions: TransactionInstruction[] = [
      ...answer.computeBudgetInstructions,
      ...answer.setupInstructions,
      answer.swapInstruction,
      ...(answer.cleanupInstruction ? [answer.cleanupInstruction] : []),
      ...answer.otherInstructions,
    ].map(instruction);
    print(`5. POST /swap/v1/swap-instructions: ${instructions.length} instructions, the swap to ${answer.swapInstruction.programId}`);

    const tables: AddressLookupTableAccount[] = [];
    for (const key of answer.addressLookupTableAddresses as string[]) {
      const table = (await connection.getAddressLookupTable(new PublicKey(key))).value;
      if (table) tables.push(table);
    }
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({ payerKey: DEMO.wallet, recentBlockhash: blockhash, instructions }).compileToV0Message(tables);
    const tx = new VersionedTransaction(message);
    tx.sign([DEMO_WALLET]);
    print(`6. assembled a v0 transaction (${tx.serialize().length} bytes) and signed it with the demo wallet`);

    const signature = await connection.sendTransaction(tx);
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, "confirmed");
    if (confirmation.value.err) throw new Error(`the swap failed on chain: ${JSON.stringify(confirmation.value.err)}`);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
    print(
      `7. sent ${signature}: landed in slot ${landed?.slot}, ${landed?.meta?.computeUnitsConsumed ?? "?"} compute units, fee ${landed?.meta?.fee} lamports`,
    );

    const after = { sol: await connection.getBalance(DEMO.wallet), usdc: await usdcBalance(connection) };
    const gotUsdc = after.usdc - before.usdc;
    print(`8. demo wallet now: ${after.sol / 1e9} SOL (${(after.sol - before.sol) / 1e9}), ${Number(after.usdc) / 1e6} USDC (+${Number(gotUsdc) / 1e6})`);
    if (gotUsdc < BigInt(quote.otherAmountThreshold)) {
      throw new Error(`received ${gotUsdc} USDC base units, less than the quote's minimum ${quote.otherAmountThreshold}`);
    }
    print("done: the quote's swap executed on the real Jupiter and Raydium CP programs and paid at least the quoted minimum");
  } finally {
    await service.shutdown.run("demo finished");
    await embedded.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("scripts/demo.ts")) {
  runDemo().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`demo: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
