// Meteora Dynamic Bonding Curve, a launchpad: pools made on the embedded chain with Meteora's own SDK
// (its config and pool instructions) against the team's build of the program, the service wired as
// `npm start` wires it (SOLANA_RPC_URL only). Buys and sells at five amounts: the service's quote
// equals the SDK's own quote of the chain's accounts and what the swap through the real Jupiter v6
// program pays; a pool made while the service runs is quoted without a restart; a completed curve
// (awaiting migration) is quoted no more.
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dbc from "@meteora-ag/dynamic-bonding-curve-sdk";
import { Connection, Keypair, PublicKey, Transaction } from "@solana/web3.js";
import BN from "bn.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { createLogger } from "../../src/server/logger.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { LogCapture } from "../server/helpers.js";
import { JUP6, NATIVE_MINT, fundTokenAccount, tokenBalance } from "./onchain-stack.js";
import { landQuotedSwap } from "./quoted-swap.js";

const DBC = "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN";
const LABEL = "Dynamic Bonding Curve";
const available = hasPrograms([JUP6.toBase58()]) && CHAIN_DIR !== undefined && existsSync(join(CHAIN_DIR, "launchpads", "programs", `${DBC}.so`));
if (!available) console.warn("Meteora DBC test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 binary and launchpads/programs (Meteora's DBC build)");

/** A launchpad's curve as Meteora's SDK builds one: 1B tokens, 20 % left for migration at 80 SOL, 1 % fee. */
function curveParameters(): dbc.ConfigParameters {
  return dbc.buildCurve({
    token: {
      tokenType: dbc.TokenType.Token2022,
      tokenBaseDecimal: dbc.TokenDecimal.SIX,
      tokenQuoteDecimal: dbc.TokenDecimal.NINE,
      tokenAuthorityOption: dbc.TokenAuthorityOption.Immutable,
      totalTokenSupply: 1_000_000_000,
      leftover: 0,
    },
    fee: {
      baseFeeParams: {
        baseFeeMode: dbc.BaseFeeMode.FeeSchedulerLinear,
        feeSchedulerParam: { startingFeeBps: 100, endingFeeBps: 100, numberOfPeriod: 0, totalDuration: 0 },
      },
      dynamicFeeEnabled: false,
      collectFeeMode: dbc.CollectFeeMode.QuoteToken,
      creatorTradingFeePercentage: 0,
      poolCreationFee: 0,
      enableFirstSwapWithMinFee: false,
    },
    migration: {
      migrationOption: dbc.MigrationOption.MET_DAMM_V2,
      migrationFeeOption: dbc.MigrationFeeOption.FixedBps25,
      migrationFee: { feePercentage: 0, creatorFeePercentage: 0 },
    },
    liquidityDistribution: {
      partnerPermanentLockedLiquidityPercentage: 50,
      partnerLiquidityPercentage: 50,
      creatorPermanentLockedLiquidityPercentage: 0,
      creatorLiquidityPercentage: 0,
    },
    lockedVesting: { totalLockedVestingAmount: 0, numberOfVestingPeriod: 0, cliffUnlockAmount: 0, totalVestingDuration: 0, cliffDurationFromMigrationTime: 0 },
    activationType: dbc.ActivationType.Slot,
    percentageSupplyOnMigration: 20,
    migrationQuoteThreshold: 80,
  });
}

describe.skipIf(!available)("Meteora Dynamic Bonding Curve pools made with Meteora's SDK", () => {
  let localnet: Localnet;
  let service: Service;
  let client: dbc.DynamicBondingCurveClient;
  let dataDir: string;
  let config: PublicKey;
  const logs = new LogCapture();
  const partner = Keypair.generate();

  function send(tx: Transaction, signers: Keypair[]): void {
    tx.recentBlockhash = localnet.chain.latestBlockhash().blockhash;
    tx.feePayer = signers[0].publicKey;
    tx.sign(...signers);
    const { signature } = localnet.chain.sendTransaction(tx.serialize(), { skipPreflight: true });
    const record = localnet.chain.getRecord(signature)!;
    expect(record.err, record.logs.join("\n")).toBeNull();
  }

  /** A new token's pool on the test's config, made by the SDK's createPool; its base mint. */
  async function makePool(): Promise<PublicKey> {
    const creator = Keypair.generate();
    localnet.airdrop(creator.publicKey, 10_000_000_000n);
    const baseMint = Keypair.generate();
    const tx = await client.creator.createPool({
      name: "Launch",
      symbol: "LNCH",
      uri: "https://example.invalid/launch.json",
      payer: creator.publicKey,
      poolCreator: creator.publicKey,
      config,
      baseMint: baseMint.publicKey,
    });
    send(tx, [creator, baseMint]);
    return baseMint.publicKey;
  }

  /** The SDK's own quote of the pool's accounts as the chain holds them now. */
  async function sdkQuote(baseMint: PublicKey, baseToQuote: boolean, amount: bigint): Promise<bigint> {
    const pool = dbc.deriveDbcPoolAddress(NATIVE_MINT, baseMint, config);
    const state = await client.state.getPool(pool);
    const poolConfig = await client.state.getPoolConfig(config);
    const quote = dbc.swapQuote(state!, poolConfig!, baseToQuote, new BN(amount.toString()), 0, false, new BN(localnet.chain.slot), false);
    return BigInt(quote.outputAmount.toString());
  }

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0, programsDir: [join(CHAIN_DIR!, "programs"), join(CHAIN_DIR!, "launchpads", "programs")] });
    client = new dbc.DynamicBondingCurveClient(new Connection(localnet.url, "confirmed"), "confirmed");
    localnet.airdrop(partner.publicKey, 10_000_000_000n);
    const configKey = Keypair.generate();
    const tx = await client.partner.createConfig({
      ...curveParameters(),
      config: configKey.publicKey,
      feeClaimer: partner.publicKey,
      leftoverReceiver: partner.publicKey,
      quoteMint: NATIVE_MINT,
      payer: partner.publicKey,
    });
    send(tx, [partner, configKey]);
    config = configKey.publicKey;
    dataDir = await mkdtemp(join(tmpdir(), "swapd-dbc-"));
    const settings = loadConfig({ HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", SOLANA_RPC_URL: localnet.url, DATA_DIR: dataDir });
    service = await buildApp(settings, { logger: createLogger("info", logs) });
  }, 120_000);
  afterAll(async () => {
    await service?.shutdown.run("test done");
    await localnet?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function quote(inputMint: PublicKey, outputMint: PublicKey, amount: bigint) {
    const res = await fetch(
      `${service.server.url}/swap/v1/quote?inputMint=${inputMint.toBase58()}&outputMint=${outputMint.toBase58()}&amount=${amount}&slippageBps=50&dexes=${encodeURIComponent(LABEL)}`,
    );
    return { status: res.status, body: await res.json() };
  }

  /** swap-instructions for `quoteResponse`, signed by `user` and sent; what `user`'s output account received. */
  async function execute(user: Keypair, quoteResponse: any, baseMint: PublicKey): Promise<bigint> {
    const input = new PublicKey(quoteResponse.inputMint);
    const output = new PublicKey(quoteResponse.outputMint);
    const programOf = (mint: PublicKey) => (mint.equals(baseMint) ? TOKEN_2022_PROGRAM_ID : undefined);
    const source = input.equals(baseMint) ? undefined : fundTokenAccount(localnet, user.publicKey, input, BigInt(quoteResponse.inAmount));
    // The output account as it is (made, or kept with what it holds: a sell's wSOL account, a buy's token account).
    const held = tokenBalance(localnet, ataOf(user.publicKey, output, programOf(output)));
    const destination = fundTokenAccount(localnet, user.publicKey, output, held, programOf(output));
    const before = tokenBalance(localnet, destination);
    await landQuotedSwap(localnet, service.server.url, user, quoteResponse);
    if (source) expect(tokenBalance(localnet, source)).toBe(0n);
    return tokenBalance(localnet, destination) - before;
  }

  const ataOf = (owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey = TOKEN_PROGRAM_ID) =>
    getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);

  it("a pool made while the service runs: buys and sells at five amounts each equal the SDK's quote and what Jupiter's swap pays", async () => {
    const baseMint = await makePool();
    const user = Keypair.generate();
    localnet.airdrop(user.publicKey, 10_000_000_000n);
    for (const lamports of [1_000_000n, 37_000_000n, 500_000_000n, 2_345_678_901n, 10_000_000_000n]) {
      const q = await quote(NATIVE_MINT, baseMint, lamports);
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      expect(q.body.routePlan.map((s: any) => s.swapInfo.label)).toEqual([LABEL]);
      const sdk = await sdkQuote(baseMint, false, lamports);
      const received = await execute(user, q.body, baseMint);
      console.log(`DBC buy ${lamports} lamports: quote ${q.body.outAmount}, SDK ${sdk}, received ${received}`);
      expect(BigInt(q.body.outAmount)).toBe(sdk);
      expect(received).toBe(sdk);
    }
    const held = tokenBalance(localnet, ataOf(user.publicKey, baseMint, TOKEN_2022_PROGRAM_ID));
    for (const share of [1n, 7n, 50n, 111n, 300n]) {
      const amount = (held * share) / 1_000n;
      const q = await quote(baseMint, NATIVE_MINT, amount);
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const sdk = await sdkQuote(baseMint, true, amount);
      const received = await execute(user, q.body, baseMint);
      console.log(`DBC sell ${amount} tokens: quote ${q.body.outAmount}, SDK ${sdk}, received ${received}`);
      expect(BigInt(q.body.outAmount)).toBe(sdk);
      expect(received).toBe(sdk);
    }
  }, 120_000);

  it("a completed curve (awaiting migration) is quoted no more", async () => {
    const baseMint = await makePool();
    const whale = Keypair.generate();
    localnet.airdrop(whale.publicKey, 200_000_000_000n);
    const pool = dbc.deriveDbcPoolAddress(NATIVE_MINT, baseMint, config);
    const threshold = (await client.state.getPoolConfig(config))!.migrationQuoteThreshold;
    const reserve = async () => (await client.state.getPool(pool))!.poolState.quoteReserve;
    // Buy the curve up in shrinking steps (a buy past its end is refused whole), as the last buyers of a launch do.
    for (let step = 40_000_000_000n; step >= 1_000_000n && (await reserve()).lt(threshold);) {
      const q = await quote(NATIVE_MINT, baseMint, step);
      if (q.status === 200) await execute(whale, q.body, baseMint);
      else step /= 2n;
    }
    // The last buy, past the curve's end, fills partly: Meteora's own client sends it (swap2, PartialFill).
    const last = await client.pool.swap2({
      owner: whale.publicKey,
      pool,
      swapBaseForQuote: false,
      referralTokenAccount: null,
      swapMode: dbc.SwapMode.PartialFill,
      amountIn: new BN(1_000_000_000),
      minimumAmountOut: new BN(0),
    });
    send(last, [whale]);
    console.log(`DBC curve: quote reserve ${(await reserve()).toString()}, migration threshold ${threshold.toString()}`);
    expect((await reserve()).gte(threshold)).toBe(true);
    const after = await quote(NATIVE_MINT, baseMint, 1_000_000n);
    expect(after.status, JSON.stringify(after.body)).toBe(400);
    expect(after.body.errorCode).toBe("COULD_NOT_FIND_ANY_ROUTE");
  }, 120_000);
});
