/**
 * Child-process entry of the venues quote bench's chain: the real programs of SWAPD_CHAIN_DIR, the
 * bench's SOL/USDC pools (amm-pools.ts: Whirlpool, Raydium CLMM, AMM v4, Meteora DAMM v1 and v2)
 * and the proprietary venues of one date, at their clock (argument `jan-2026`, the default: the
 * Jan-2026 SolFi V2 pool of accounts-2026; `mar-2026`: pmm-2026's SolFi V2, HumidiFi, Tessera V and
 * BisonFi markets with their builds, and manifest-2026's SOL/USDC order book). The same IPC protocol as localnet-child.ts.
 */
import { join } from "node:path";
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "../src/core/solana/programs.js";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import type { Localnet } from "../src/localnet/start-localnet.js";
import { BENCH_ACCOUNTS_DIRS, seedBenchPools } from "./amm-pools.js";

if (!process.send) throw new Error("bench/venues-localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);
const chainDir = process.env["SWAPD_CHAIN_DIR"];
if (!chainDir) throw new Error("SWAPD_CHAIN_DIR is not set");

const march = process.argv[2] === "mar-2026";
const localnet = await startLocalnet({
  port: 0,
  programsDir: march
    ? [join(chainDir, "programs"), join(chainDir, "pmm-2026", "programs"), join(chainDir, "manifest-2026", "programs")]
    : join(chainDir, "programs"),
  accountsDir: [
    join(chainDir, "accounts"),
    ...BENCH_ACCOUNTS_DIRS,
    ...(march ? [join(chainDir, "pmm-2026", "accounts"), join(chainDir, "manifest-2026", "accounts")] : [join(chainDir, "accounts-2026")]),
  ],
  // The clock each snapshot's venues swap at (the chain folder's README); no transaction lands during the bench.
  clock: march ? { slot: 405_896_897, unixTimestamp: 1_773_311_354n } : { slot: 390_838_754, unixTimestamp: 1_767_360_940n },
});
await seedBenchPools(localnet);
if (march) createManifestGlobal(localnet, new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"));

/**
 * The Manifest global account of `mint`, as mainnet has it for USDC (the snapshot lacks it, and Manifest stops
 * a swap at the first global order of a mint without one: 1 SOL would not fill): Manifest's GlobalCreate.
 */
function createManifestGlobal(chain: Localnet, mint: PublicKey): void {
  const program = new PublicKey("MNFSTqtC93rEfYHB6hF82sKdZpUDFWkViLByLd1k1Ms");
  const payer = Keypair.generate();
  chain.airdrop(payer.publicKey, 1_000_000_000n);
  const pda = (seed: string) => PublicKey.findProgramAddressSync([Buffer.from(seed), mint.toBuffer()], program)[0];
  const create = new TransactionInstruction({
    programId: program,
    keys: [
      { pubkey: payer.publicKey, isSigner: true, isWritable: true },
      { pubkey: pda("global"), isSigner: false, isWritable: true },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: pda("global-vault"), isSigner: false, isWritable: true },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([7]),
  });
  const tx = new Transaction({ feePayer: payer.publicKey, ...chain.chain.latestBlockhash() }).add(create);
  tx.sign(payer);
  const { signature } = chain.chain.sendTransaction(tx.serialize(), { skipPreflight: true });
  const err = chain.chain.getRecord(signature)?.err;
  if (err) throw new Error(`Manifest GlobalCreate failed: ${JSON.stringify(err)}`);
}

process.on("message", (message: { type?: string }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
});
process.on("disconnect", () => {
  void localnet.close().finally(() => process.exit(0)); // exits whether or not the close failed
});
send({ type: "ready", url: localnet.url });
