/**
 * `npm run bench:program-quote`: what one program quote costs beside a math quote, in one run.
 * SolFi V2 (its real binary and the Jan-2026 SOL/USDC pool, through Jupiter v6's real binary) is
 * quoted by the program quoter at distinct amounts (memo misses) and again at the same amount
 * (memo hits); the 2022 Whirlpool SOL/USDC pool by its math (`adapter.quote`). Each figure is also
 * given as a ratio to a no-op measured by the same loop. Needs SWAPD_CHAIN_DIR (the team's chain folder).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { ProgramQuoter } from "../src/chain/program-quoter.js";
import type { AnyAmmAdapter, QuoteParams } from "../src/core/amm/adapter.js";
import { solFiV2Adapter } from "../src/core/amm/solfi-v2.js";
import { whirlpoolAdapter } from "../src/core/amm/whirlpool.js";
import type { AccountData } from "../src/core/solana/account.js";
import { JUPITER_V6_PROGRAM_ID } from "../src/core/solana/programs.js";
import { percentile } from "./statistics.js";

const CHAIN_DIR = process.env["SWAPD_CHAIN_DIR"];
if (!CHAIN_DIR) {
  console.log("program quote bench skipped: set SWAPD_CHAIN_DIR to the chain folder (programs/, accounts/, accounts-2026/)");
  process.exit(0);
}
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 2_000);

function readFolder(folder: string): Map<string, AccountData | null> {
  const accounts = new Map<string, AccountData | null>();
  for (const file of readdirSync(join(CHAIN_DIR!, folder)).filter((f) => f.endsWith(".json"))) {
    const json = JSON.parse(readFileSync(join(CHAIN_DIR!, folder, file), "utf8"));
    const address = new PublicKey(json.pubkey);
    accounts.set(address.toBase58(), {
      address,
      owner: new PublicKey(json.account.owner),
      lamports: BigInt(json.account.lamports),
      data: new Uint8Array(Buffer.from(json.account.data[0], "base64")),
      executable: false,
    });
  }
  return accounts;
}

/** Microseconds per call of `fn(i)`, sorted ascending. */
function time(fn: (i: number) => unknown): number[] {
  for (let i = 0; i < 200; i++) fn(-1 - i); // warm-up, on inputs the rounds do not repeat
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = process.hrtime.bigint();
    fn(i);
    out.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  return out.sort((a, b) => a - b);
}

function main(): void {
  const accounts = new Map([...readFolder("accounts"), ...readFolder("accounts-2026")]);
  // The native mint, as every chain has it (82 bytes, SPL Token, 9 decimals).
  const nativeMint = new Uint8Array(82);
  nativeMint[44] = 9;
  nativeMint[45] = 1;
  const sol = new PublicKey("So11111111111111111111111111111111111111112");
  accounts.set(sol.toBase58(), {
    address: sol,
    owner: new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
    lamports: 1n,
    data: nativeMint,
    executable: false,
  });

  const quoter = new ProgramQuoter();
  for (const id of [solFiV2Adapter.programId, JUPITER_V6_PROGRAM_ID]) {
    quoter.addProgram(id, new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${id.toBase58()}.so`))));
  }
  const solfi = solFiV2Adapter.decodePool(accounts.get("65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc")!);
  const params = (amount: bigint): QuoteParams => ({ amount, swapMode: "ExactIn", aToB: true });
  for (const key of quoter.accountsNeeded(solFiV2Adapter, solfi, params(1n), accounts)) accounts.set(key.toBase58(), null);
  const clock = { slot: 390_838_755n, unixTimestamp: 1_767_360_941n };

  const whirlpool: AnyAmmAdapter = whirlpoolAdapter;
  const wpool = whirlpool.decodePool(accounts.get("HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ")!);
  const wclock = { slot: 1n, unixTimestamp: 1_659_764_901n };

  let sink = 0n;
  const results = {
    noop: time((i) => (sink += BigInt(i & 1))),
    mathWhirlpool: time((i) => (sink += whirlpool.quote!(wpool, params(1_000_000n + BigInt(i)), accounts, wclock).outAmount)),
    programMiss: time((i) => (sink += quoter.quote(solFiV2Adapter, solfi, params(1_000_000_000n + BigInt(i)), accounts, clock).outAmount)),
    programHit: time(() => (sink += quoter.quote(solFiV2Adapter, solfi, params(1_000_000_000n), accounts, clock).outAmount)),
  };
  const noop50 = percentile(results.noop, 50);
  console.log(`program quote bench: ${ROUNDS} rounds each (µs per quote; ratio = p50 / no-op p50)`);
  for (const [name, samples] of Object.entries(results)) {
    const p50 = percentile(samples, 50);
    console.log(
      `  ${name.padEnd(14)} p50 ${p50.toFixed(1).padStart(8)}  p99 ${percentile(samples, 99).toFixed(1).padStart(8)}  ratio ${(p50 / noop50).toFixed(0)}`,
    );
  }
  if (sink === -1n) console.log("unreachable");
}

main();
