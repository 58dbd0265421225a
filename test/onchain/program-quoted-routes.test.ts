// Program-quoted AMMs in swapd's own quotes: the Jan-2026 mainnet SolFi V2 SOL/USDC pool on the
// embedded chain at the pool's slot and time, the program quoter loaded the way the service loads
// it (binaries read over JSON-RPC from the chain's programdata accounts), `GET /swap/v1/quote` with
// `dexes=SolFi V2`, then swap-instructions, signed and sent through the real Jupiter v6 program.
// The wallet must receive at least `otherAmountThreshold`, and exactly `outAmount` here (nothing
// else lands between the quote and the swap, so the program prices both at the same slot).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProgramQuoter } from "../../src/chain/program-quoter-start.js";
import type { RunningProgramQuoter } from "../../src/chain/program-quoter-start.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { SOLFI_V2_PROGRAM_ID } from "../../src/core/amm/solfi-v2.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { NATIVE_MINT } from "./real-programs-stack.js";
import { JUP6, startQuoteStack } from "./quote-stack.js";
import type { QuoteStack } from "./quote-stack.js";

const POOL = "65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc";
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const CLOCK = { slot: 390_838_754, unixTimestamp: 1_767_360_940n };

const available = hasPrograms([JUP6.toBase58(), SOLFI_V2_PROGRAM_ID.toBase58()]);
if (!available) console.warn("program-quoted routes test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and SolFi V2 binaries and accounts-2026/");

describe.skipIf(!available)("quotes through program-quoted AMMs (SolFi V2)", () => {
  let stack: QuoteStack;
  let quoter: RunningProgramQuoter;
  let cacheDir: string;
  const user = Keypair.generate();

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), "swapd-programs-"));
    // The quoter needs the chain before the API: a first stack only to read the binaries would be a
    // second chain, so the API is made with a quoter that loads from this chain's RPC right after.
    let programQuotes: RunningProgramQuoter | undefined;
    stack = await startQuoteStack(
      CHAIN_DIR!,
      {
        programQuotes: {
          canQuote: (adapter) => programQuotes?.quoter.canQuote(adapter) ?? false,
          accountsNeeded: (...args) => programQuotes!.quoter.accountsNeeded(...args),
          quote: (...args) => programQuotes!.quoter.quote(...args),
        },
      },
      { accountFolders: ["accounts", "accounts-2026"], clock: CLOCK },
    );
    programQuotes = await startProgramQuoter({
      chain: new RpcSolanaChain({ url: stack.base.localnet.url }),
      amms: ["SolFi V2"],
      adapters: ammAdapters,
      cacheDir,
      logger: pino({ level: "silent" }),
    });
    quoter = programQuotes!;
    stack.base.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    quoter?.close();
    await stack?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("loads SolFi V2 and Jupiter v6 from the chain", () => {
    expect(quoter.labels).toEqual(["SolFi V2"]);
  });

  for (const [name, inputMint, outputMint, amount] of [
    ["1 SOL → USDC", NATIVE_MINT, USDC, 1_000_000_000n],
    ["250 USDC → SOL", USDC, NATIVE_MINT, 250_000_000n],
  ] as const) {
    it(`${name} with dexes=SolFi V2: quoted by the program, executed through Jupiter, pays outAmount`, async () => {
      const q = await stack.get(
        `/swap/v1/quote?inputMint=${inputMint.toBase58()}&outputMint=${outputMint.toBase58()}&amount=${amount}&slippageBps=10&dexes=${encodeURIComponent("SolFi V2")}`,
      );
      expect(q.status).toBe(200);
      expect(q.body.routePlan.map((s: any) => [s.swapInfo.label, s.swapInfo.ammKey])).toEqual([["SolFi V2", POOL]]);
      expect(BigInt(q.body.contextSlot)).toBeGreaterThanOrEqual(BigInt(CLOCK.slot));
      const source = stack.base.fund(user.publicKey, inputMint, amount);
      const destination = stack.base.fund(user.publicKey, outputMint, 0n);
      await stack.base.swap(user, q.body);
      const received = stack.base.tokenBalance(destination);
      expect(stack.base.tokenBalance(source)).toBe(0n);
      expect(received).toBeGreaterThanOrEqual(BigInt(q.body.otherAmountThreshold));
      expect(received).toBe(BigInt(q.body.outAmount));
      await stack.base.restoreSnapshots();
    });
  }

  it("names SolFi V2 among the labels, and refuses ExactOut through it with no route", async () => {
    const labels = await stack.get("/swap/v1/program-id-to-label");
    expect(labels.body[SOLFI_V2_PROGRAM_ID.toBase58()]).toBe("SolFi V2");
    const q = await stack.get(`/swap/v1/quote?inputMint=${NATIVE_MINT.toBase58()}&outputMint=${USDC.toBase58()}&amount=1000000&swapMode=ExactOut&dexes=${encodeURIComponent("SolFi V2")}`);
    expect(q.status).toBeGreaterThanOrEqual(400);
  });
});
