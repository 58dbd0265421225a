// The quote engine through the real programs (SWAPD_CHAIN_DIR: Jupiter v6, Whirlpool and the
// mainnet Whirlpool pools SOL/USDC and SAMO/USDC): markets found on chain, `/quote` through the
// unchanged @jup-ag/api client, `/swap` transactions deserialized with web3.js, signed and sent —
// the user receives exactly the quoted `outAmount`. A 2-hop shared-accounts route (SOL → USDC →
// SAMO) is over the size limit without lookup tables (a clear 400 naming the size) and fits once
// a table owned by a LOOKUP_TABLE_AUTHORITIES key exists on chain.
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAltArgs, runAlt } from "../../src/alt/alt-command.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const SOL = NATIVE_MINT.toBase58();
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SAMO = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const ORCA = "orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE"; // a mint with no pool here
const WHIRLPOOL_SOL_USDC = "HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ";
const WHIRLPOOL_SAMO_USDC = "9vqYJjDUFecLL2xPUC4Rc7hyCtZ6iJ4mDiVZX7aFXoAe";

/** Jupiter's program authority `["authority", [id]]`; the API under test picks id 4 (random 0.5). */
const programAuthority = (id: number) => PublicKey.findProgramAddressSync([Buffer.from("authority"), Buffer.from([id])], JUP6)[0];

describe.skipIf(!hasChainDir())("quotes and swaps through the real programs", () => {
  let stack: OnchainStack;
  const user = Keypair.generate();
  const tableAuthority = Keypair.generate();

  beforeAll(async () => {
    stack = await startOnchainStack({ quote: { lookupTableAuthorities: [tableAuthority.publicKey.toBase58()] } });
    stack.localnet.airdrop(user.publicKey, 100_000_000_000n);
    stack.localnet.airdrop(tableAuthority.publicKey, 10_000_000_000n);
    // The snapshots have no token accounts of Jupiter's program authorities (mainnet has them).
    for (const mint of [SOL, USDC, SAMO]) fundTokenAccount(stack.localnet, programAuthority(4), new PublicKey(mint), 0n);
    // Tip accounts exist on mainnet; a tip into a missing account would be under rent exemption.
    for (const tip of DEFAULT_RELAY_TIP_ACCOUNTS) stack.localnet.airdrop(new PublicKey(tip), 1_000_000_000n);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const balance = (owner: PublicKey, mint: string) => tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(mint), owner, true));

  it("SOL → USDC: the Whirlpool found on chain, quoted with @jup-ag/api quoteGet, /swap transaction pays exactly outAmount", async () => {
    await stack.restoreSnapshots();
    const quote = await stack.jupiter.quoteGet({ inputMint: SOL, outputMint: USDC, amount: 1_000_000_000, slippageBps: 50 });
    expect(quote.routePlan).toHaveLength(1);
    expect(quote.routePlan[0].swapInfo.ammKey).toBe(WHIRLPOOL_SOL_USDC);
    expect(quote.routePlan[0].swapInfo.label).toBe("Whirlpool");
    expect(quote.routePlan[0].percent).toBe(100);
    expect(quote.inAmount).toBe("1000000000");
    expect(BigInt(quote.otherAmountThreshold)).toBe((BigInt(quote.outAmount) * 9950n) / 10000n);
    expect(quote.contextSlot).toBeGreaterThan(0);

    const swap = await stack.jupiter.swapPost({ swapRequest: { userPublicKey: user.publicKey.toBase58(), quoteResponse: quote } });
    const tx = VersionedTransaction.deserialize(Buffer.from(swap.swapTransaction, "base64"));
    expect(tx.serialize().length).toBeLessThanOrEqual(1232);
    expect(tx.message.staticAccountKeys[0].toBase58()).toBe(user.publicKey.toBase58());
    expect(swap.lastValidBlockHeight).toBeGreaterThan(0);
    const before = balance(user.publicKey, USDC);
    await stack.signAndSend(swap.swapTransaction, user);
    expect(balance(user.publicKey, USDC) - before).toBe(BigInt(quote.outAmount));
  });

  it("SOL → SAMO goes through USDC (2 hops, shared accounts); with a relay tip it is too big without lookup tables, fits with the table `npm run alt -- create` made for its markets (found by authority), and pays exactly", async () => {
    await stack.restoreSnapshots();
    const quote = await stack.jupiter.quoteGet({ inputMint: SOL, outputMint: SAMO, amount: 100_000_000 });
    expect(quote.routePlan.map((s) => [s.swapInfo.ammKey, s.swapInfo.inputMint, s.swapInfo.outputMint, s.percent])).toEqual([
      [WHIRLPOOL_SOL_USDC, SOL, USDC, 100],
      [WHIRLPOOL_SAMO_USDC, USDC, SAMO, 100],
    ]);
    expect(quote.routePlan[0].swapInfo.outAmount).toBe(quote.routePlan[1].swapInfo.inAmount);
    expect(quote.outAmount).toBe(quote.routePlan[1].swapInfo.outAmount);

    // Plain, this route is 1,215 bytes; a relay tip adds an instruction and the tip account.
    const plain = await stack.post("/swap/v1/swap", { userPublicKey: user.publicKey.toBase58(), quoteResponse: quote });
    expect(plain.status).toBe(200);
    const request = { userPublicKey: user.publicKey.toBase58(), quoteResponse: quote, prioritizationFeeLamports: { jitoTipLamports: 1000 } };
    const tooBig = await stack.post("/swap/v1/swap", request);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errorCode).toBe("TRANSACTION_TOO_LARGE");
    expect(tooBig.body.error).toMatch(/the swap transaction is \d{4} bytes, over Solana's 1232-byte limit/);

    // `npm run alt -- create` with the two pools as the markets: a table owned by the configured authority.
    const dir = mkdtempSync(join(tmpdir(), "swapd-alt-"));
    writeFileSync(join(dir, "authority.json"), JSON.stringify([...tableAuthority.secretKey]));
    writeFileSync(join(dir, "markets.json"), JSON.stringify([WHIRLPOOL_SOL_USDC, WHIRLPOOL_SAMO_USDC]));
    const created = await runAlt(
      parseAltArgs(["create", "--keypair", join(dir, "authority.json"), "--markets", join(dir, "markets.json"), "--rpc", stack.localnet.url], {}),
    );
    rmSync(dir, { recursive: true, force: true });
    const table = created.table;
    expect(created.left).toBe(0);
    const found = await stack.api.quote.lookupTables.refresh();
    expect(found.map((t) => t.key.toBase58())).toEqual([table.toBase58()]);

    const swap = (await stack.post("/swap/v1/swap", request)).body;
    expect(swap.prioritizationType).toEqual({ jito: { lamports: 1000 } });
    const tx = VersionedTransaction.deserialize(Buffer.from(swap.swapTransaction, "base64"));
    expect(tx.message.addressTableLookups.map((l) => l.accountKey.toBase58())).toEqual([table.toBase58()]);
    expect(tx.serialize().length).toBeLessThanOrEqual(1232);
    const before = balance(user.publicKey, SAMO);
    await stack.signAndSend(swap.swapTransaction, user);
    expect(balance(user.publicKey, SAMO) - before).toBe(BigInt(quote.outAmount));
  });

  it("ExactOut USDC from SOL: the Whirlpool quote's inAmount is exactly what the swap takes, the output exactly the amount asked", async () => {
    await stack.restoreSnapshots();
    const quote = await stack.jupiter.quoteGet({ inputMint: SOL, outputMint: USDC, amount: 25_000_000, swapMode: "ExactOut" });
    expect(quote.swapMode).toBe("ExactOut");
    expect(quote.outAmount).toBe("25000000");
    expect(BigInt(quote.otherAmountThreshold)).toBe((BigInt(quote.inAmount) * 10050n) / 10000n);
    const wsol = fundTokenAccount(stack.localnet, user.publicKey, NATIVE_MINT, 10n ** 12n);
    const usdcBefore = balance(user.publicKey, USDC);
    const swap = await stack.jupiter.swapPost({ swapRequest: { userPublicKey: user.publicKey.toBase58(), quoteResponse: quote, wrapAndUnwrapSol: false } });
    await stack.signAndSend(swap.swapTransaction, user);
    expect(10n ** 12n - tokenBalance(stack.localnet, wsol)).toBe(BigInt(quote.inAmount));
    expect(balance(user.publicKey, USDC) - usdcBefore).toBe(25_000_000n);
  });

  it("onlyDirectRoutes, dexes, excludeDexes and maxAccounts narrow the routes; nothing left is COULD_NOT_FIND_ANY_ROUTE", async () => {
    const q = (params: string) => stack.get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${SAMO}&amount=100000000&${params}`);
    expect((await q("")).status).toBe(200);
    const noRoute = { errorCode: "COULD_NOT_FIND_ANY_ROUTE", code: 400 };
    expect((await q("onlyDirectRoutes=true")).body).toMatchObject(noRoute);
    expect((await q("excludeDexes=Whirlpool")).body).toMatchObject(noRoute);
    expect((await q("dexes=Raydium%20CP")).body).toMatchObject(noRoute);
    expect((await q("dexes=Whirlpool,Raydium%20CP")).status).toBe(200);
    const twoHop = (await q("")).body;
    // What a 2-hop Whirlpool route needs: 13 fixed + two steps; one account less is refused.
    const { status } = await q("maxAccounts=30");
    expect(status).toBe(400);
    expect(twoHop.routePlan).toHaveLength(2);
    expect((await q("maxAccounts=64")).status).toBe(200);
  });

  it("bad input is INVALID_ARGUMENT / 400 naming the field; no pool is COULD_NOT_FIND_ANY_ROUTE", async () => {
    const q = (params: string) => stack.get(`/swap/v1/quote?${params}`);
    const unknown = Keypair.generate().publicKey.toBase58();
    expect((await q(`inputMint=${unknown}&outputMint=${USDC}&amount=1`)).body).toMatchObject({
      code: 400,
      error: expect.stringMatching(/^inputMint: no mint account/),
    });
    expect((await q(`inputMint=${SOL}&outputMint=${USDC}&amount=0`)).body).toMatchObject({ code: 400, error: "amount: must be greater than 0" });
    expect((await q(`inputMint=${SOL}&outputMint=${USDC}&amount=18446744073709551616`)).body.error).toMatch(/^amount: must fit in an unsigned 64-bit integer/);
    expect((await q(`inputMint=${SOL}&outputMint=${SOL}&amount=5`)).body.error).toMatch(/^outputMint: must differ from inputMint/);
    expect((await q(`inputMint=${SOL}&outputMint=${USDC}&amount=5&swapMode=exactin`)).body.error).toMatch(/^swapMode:/);
    expect((await q(`inputMint=${SOL}&outputMint=${USDC}&amount=5&dexes=Nope`)).body.error).toMatch(/^dexes: unknown DEX label "Nope"/);
    expect((await q(`inputMint=${ORCA}&outputMint=${USDC}&amount=5`)).body).toMatchObject({ code: 400, errorCode: "COULD_NOT_FIND_ANY_ROUTE" });
  });
});
