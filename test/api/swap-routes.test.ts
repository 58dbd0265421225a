// Multi-step routes over the wire (REST): a 2-hop route across two AMMs (Raydium CP, then a real
// mainnet Whirlpool account written on the localnet) and a split route (two Raydium CP pools for
// one hop). Indices, intermediate accounts and setup are checked with Anchor's BorshCoder over the
// Jupiter IDL, the IDL's per-AMM account names and the AMMs' own SDKs.
import { ParsableWhirlpool } from "@orca-so/whirlpools-sdk";
import { CpmmPoolInfoLayout } from "@raydium-io/raydium-sdk-v2";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoRaydiumCpmmPool } from "../../src/localnet/raydium-cpmm-demo-pool.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { carbonAccount } from "../core/amm/reference-fixtures.js";
import { jupiterCoder, jupiterIdl, plain } from "../core/jupiter/anchor-idl.js";
import { DEMO_POOL, SOL, USDC, WALLET, jupiterQuote, programAuthority, startSwapStack } from "./swap-stack.js";
import type { InstructionJson, SwapStack } from "./swap-stack.js";
import { encodeMintAccount } from "../../src/core/solana/token-accounts.js";

const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
const coder = jupiterCoder();
const idl = (jupiterIdl() as any).instructions as { name: string; accounts: { name: string }[] }[];
const namesOf = (ix: string) => idl.find((i) => i.name === ix)!.accounts.map((a) => a.name);

// A real mainnet Whirlpool (SOL / DzkKG…) from the carbon fixtures, and its second mint.
const WHIRLPOOL = new PublicKey("CGGNcohZdLdeDBdhmQRGmUH1Viv1p4d1ds2aPLoiVWaR");
const whirlpoolAccount = carbonAccount("orca-whirlpool-decoder/whirlpool_account.json", WHIRLPOOL);
const whirlpool = ParsableWhirlpool.parse(WHIRLPOOL, {
  data: Buffer.from(whirlpoolAccount.data),
  owner: whirlpoolAccount.owner,
  lamports: 0,
  executable: false,
})!;
const DZK = whirlpool.tokenMintB.toBase58();
// A second Raydium CP pool SOL/USDC (config index 1) for the split.
const [mA, mB] = [new PublicKey(SOL), new PublicKey(USDC)].sort((x, y) => Buffer.compare(x.toBuffer(), y.toBuffer()));
const secondPool = demoRaydiumCpmmPool({
  mintA: mA,
  mintB: mB,
  decimalsA: mA.toBase58() === SOL ? 9 : 6,
  decimalsB: mB.toBase58() === SOL ? 9 : 6,
  reserveA: 10n ** 12n,
  reserveB: 10n ** 12n,
  configIndex: 1,
});

function seedRoutes(localnet: Localnet): void {
  localnet.setAccount(WHIRLPOOL, { lamports: whirlpoolAccount.lamports, data: whirlpoolAccount.data, owner: whirlpoolAccount.owner });
  const mint = encodeMintAccount(6, null, 0n);
  localnet.setAccount(new PublicKey(DZK), { lamports: 1_461_600n, data: mint, owner: new PublicKey(TOKEN) });
  for (const a of [secondPool.pool, secondPool.config, secondPool.vaultA, secondPool.vaultB, secondPool.observation, secondPool.lpMint]) {
    localnet.setAccount(a.address, { lamports: a.lamports, data: a.data, owner: a.owner });
  }
}

let stack: SwapStack;
beforeAll(async () => {
  stack = await startSwapStack({ extraSeeders: [seedRoutes], random: () => 0.5 }); // program authority id 4
});
afterAll(async () => {
  await stack?.close();
});

const user = new PublicKey(WALLET);
const PA = programAuthority(4);
const ata = (owner: PublicKey, mint: string) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true).toBase58();

/** Decodes the swap instruction and names every account by the IDL (fixed, then each step's layout). */
function decode(ix: InstructionJson, layouts: string[]) {
  const decoded = plain(coder.instruction.decode(Buffer.from(ix.data, "base64")));
  const fixedNames = namesOf(decoded.name);
  const fixed = Object.fromEntries(fixedNames.map((n, i) => [n, ix.accounts[i].pubkey]));
  let at = fixedNames.length;
  const steps = layouts.map((layout) => {
    const names = namesOf(layout);
    const step = Object.fromEntries(names.map((n, i) => [n, ix.accounts[at + i].pubkey]));
    at += names.length;
    return step;
  });
  expect(at).toBe(ix.accounts.length);
  return { name: decoded.name as string, args: decoded.data, fixed, steps };
}

/** The ATAs the setup creates (CreateIdempotent: data [1]), as `owner mint` pairs with their address. */
function createdAtas(setup: InstructionJson[]) {
  return setup
    .filter((ix) => ix.programId === ATA_PROGRAM)
    .map((ix) => {
      expect(Buffer.from(ix.data, "base64")).toEqual(Buffer.from([1]));
      return { ata: ix.accounts[1].pubkey, owner: ix.accounts[2].pubkey, mint: ix.accounts[3].pubkey };
    });
}

const twoHop = (extra: Record<string, unknown> = {}) => ({
  userPublicKey: WALLET,
  quoteResponse: jupiterQuote(
    [
      { ammKey: DEMO_POOL, inputMint: USDC, outputMint: SOL, inAmount: "150000000", outAmount: "990000000" },
      { ammKey: WHIRLPOOL.toBase58(), label: "Whirlpool", inputMint: SOL, outputMint: DZK, inAmount: "990000000", outAmount: "5000000" },
    ],
    { inputMint: USDC, outputMint: DZK, inAmount: "150000000", outAmount: "5000000" },
  ),
  ...extra,
});

describe("2-hop route across two AMMs (Raydium CP, then Whirlpool)", () => {
  test("shared accounts (the default for several steps): program authority accounts in between", async () => {
    const { status, body } = await stack.rest(twoHop());
    expect(status, JSON.stringify(body)).toBe(200);
    const swap = decode(body.swapInstruction, ["raydiumCpSwap", "whirlpoolSwap"]);
    expect(swap.name).toBe("sharedAccountsRoute");
    expect(swap.args.id).toBe(4);
    expect(swap.args.inAmount).toBe("150000000");
    expect(swap.args.quotedOutAmount).toBe("5000000");
    expect(swap.args.routePlan).toEqual([
      { swap: { RaydiumCP: {} }, percent: 100, inputIndex: 0, outputIndex: 1 },
      { swap: { Whirlpool: { aToB: true } }, percent: 100, inputIndex: 1, outputIndex: 2 }, // SOL is the Whirlpool's mint A
    ]);
    expect(swap.fixed).toMatchObject({
      programAuthority: PA.toBase58(),
      userTransferAuthority: WALLET,
      sourceTokenAccount: ata(user, USDC),
      programSourceTokenAccount: ata(PA, USDC),
      programDestinationTokenAccount: ata(PA, DZK),
      destinationTokenAccount: ata(user, DZK),
      sourceMint: USDC,
      destinationMint: DZK,
    });
    const [cp, wp] = swap.steps;
    expect(cp).toMatchObject({ poolState: DEMO_POOL, payer: PA.toBase58(), inputTokenAccount: ata(PA, USDC), outputTokenAccount: ata(PA, SOL) });
    expect(wp).toMatchObject({
      whirlpool: WHIRLPOOL.toBase58(),
      tokenAuthority: PA.toBase58(),
      tokenOwnerAccountA: ata(PA, SOL), // the intermediate account: step 1's output is step 2's input
      tokenVaultA: whirlpool.tokenVaultA.toBase58(),
      tokenOwnerAccountB: ata(PA, DZK),
      tokenVaultB: whirlpool.tokenVaultB.toBase58(),
    });
    // Setup: only the user's output ATA (the user has USDC; intermediates are the program's).
    expect(createdAtas(body.setupInstructions)).toEqual([{ ata: ata(user, DZK), owner: WALLET, mint: DZK }]);
    expect(body.cleanupInstruction).toBeNull();
  });

  test("without shared accounts: the user's own intermediate account, created in setup", async () => {
    const { status, body } = await stack.rest(twoHop({ useSharedAccounts: false }));
    expect(status, JSON.stringify(body)).toBe(200);
    const swap = decode(body.swapInstruction, ["raydiumCpSwap", "whirlpoolSwap"]);
    expect(swap.name).toBe("route");
    expect(swap.args.routePlan.map((s: any) => [s.inputIndex, s.outputIndex, s.percent])).toEqual([
      [0, 1, 100],
      [1, 2, 100],
    ]);
    expect(swap.fixed).toMatchObject({ userSourceTokenAccount: ata(user, USDC), userDestinationTokenAccount: ata(user, DZK) });
    const [cp, wp] = swap.steps;
    expect(cp).toMatchObject({ payer: WALLET, inputTokenAccount: ata(user, USDC), outputTokenAccount: ata(user, SOL) });
    expect(wp).toMatchObject({ tokenAuthority: WALLET, tokenOwnerAccountA: ata(user, SOL), tokenOwnerAccountB: ata(user, DZK) });
    expect(new Set(createdAtas(body.setupInstructions).map((c) => `${c.owner} ${c.mint} ${c.ata}`))).toEqual(
      new Set([`${WALLET} ${DZK} ${ata(user, DZK)}`, `${WALLET} ${SOL} ${ata(user, SOL)}`]),
    );
  });
});

describe("split route: two Raydium CP pools for one hop", () => {
  test("SOL → USDC 70/30: both steps 0 → 1, program accounts, the wSOL wrap in setup", async () => {
    const request = {
      userPublicKey: WALLET,
      quoteResponse: jupiterQuote(
        [
          { ammKey: DEMO_POOL, inputMint: SOL, outputMint: USDC, inAmount: "700000000", outAmount: "104000000", percent: 70 },
          { ammKey: secondPool.pool.address.toBase58(), inputMint: SOL, outputMint: USDC, inAmount: "300000000", outAmount: "44000000", percent: 30 },
        ],
        { inputMint: SOL, outputMint: USDC, inAmount: "1000000000", outAmount: "148000000" },
      ),
    };
    const { status, body } = await stack.rest(request);
    expect(status, JSON.stringify(body)).toBe(200);
    const swap = decode(body.swapInstruction, ["raydiumCpSwap", "raydiumCpSwap"]);
    expect(swap.name).toBe("sharedAccountsRoute");
    expect(swap.args.routePlan).toEqual([
      { swap: { RaydiumCP: {} }, percent: 70, inputIndex: 0, outputIndex: 1 },
      { swap: { RaydiumCP: {} }, percent: 30, inputIndex: 0, outputIndex: 1 },
    ]);
    const sdkSecond = CpmmPoolInfoLayout.decode(Buffer.from(secondPool.pool.data));
    expect(swap.steps.map((s) => [s.poolState, s.inputTokenAccount, s.outputTokenAccount, s.ammConfig])).toEqual([
      [DEMO_POOL, ata(PA, SOL), ata(PA, USDC), expect.any(String)],
      [secondPool.pool.address.toBase58(), ata(PA, SOL), ata(PA, USDC), sdkSecond.configId.toBase58()],
    ]);
    expect(swap.fixed).toMatchObject({ sourceTokenAccount: ata(user, SOL), destinationTokenAccount: ata(user, USDC) });

    // Setup: create the user's wSOL ATA, move 1 SOL into it, SyncNative; the USDC ATA exists.
    const setup = body.setupInstructions as InstructionJson[];
    expect(createdAtas(setup)).toEqual([{ ata: ata(user, SOL), owner: WALLET, mint: SOL }]);
    const transfer = setup.find((ix) => ix.programId === "11111111111111111111111111111111")!;
    const data = Buffer.from(transfer.data, "base64");
    expect([data.readUInt32LE(0), data.readBigUInt64LE(4)]).toEqual([2, 1_000_000_000n]); // System Transfer
    expect(transfer.accounts.map((a) => a.pubkey)).toEqual([WALLET, ata(user, SOL)]);
    const sync = setup.find((ix) => ix.programId === TOKEN)!;
    expect([Buffer.from(sync.data, "base64")[0], sync.accounts[0].pubkey]).toEqual([17, ata(user, SOL)]); // SyncNative
    expect(setup.map((ix) => ix.programId)).toEqual([ATA_PROGRAM, "11111111111111111111111111111111", TOKEN]);
    // And the wSOL account is closed afterwards.
    expect(body.cleanupInstruction.accounts[0].pubkey).toBe(ata(user, SOL));
  });
});
