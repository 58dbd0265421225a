// Meteora DLMM pairs for on-chain tests, created by the DLMM program's own instructions
// (`initialize_lb_pair` with the mainnet preset parameter from SWAPD_CHAIN_DIR's snapshots,
// `initialize_bin_array`, `initialize_position`, `add_liquidity_by_strategy`), built by
// @meteora-ag/dlmm 1.3.x, whose instruction set is that of the Nov 2024 program binary.
import { createRequire } from "node:module";
import { BN } from "@coral-xyz/anchor";
import { ComputeBudgetProgram, Connection, Keypair, PublicKey } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { DEMO_WALLET } from "../../../src/localnet/demo-seed.js";
import type { Localnet } from "../../../src/localnet/start-localnet.js";
import { TOKEN_PROGRAM, fundTokenAccount, sendLegacy } from "../onchain-stack.js";

// The CJS build: the ESM build cannot be loaded by Node (directory import).
export const dlmmV13 = createRequire(import.meta.url)("@meteora-ag/dlmm-v1-3");
const DLMM = dlmmV13.default;

export const METEORA_DLMM_PROGRAM = new PublicKey("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo");
/** Mainnet preset parameter (in the chain folder's accounts): bin step 10, base factor 10000, variable fee control 40000. */
export const DLMM_PRESET_BIN_STEP_10 = new PublicKey("BYQtcDyv2BoFuf5ghsYDGPA8iX5F4WquK7zCzUsDwJ63");
export const DLMM_BINS_PER_ARRAY = 70;

/** A DLMM pair created on the localnet, with the SDK's handle on it (reads over the localnet's JSON-RPC). */
export interface MeteoraDlmmPair {
  readonly address: PublicKey;
  readonly tokenX: PublicKey;
  readonly tokenY: PublicKey;
  /** The 1.3.x SDK's `DLMM` for the pair (`refetchStates()` before quoting). */
  readonly sdk: any;
}

function send(localnet: Localnet, instructions: TransactionInstruction[], signers: Keypair[]): void {
  const record = sendLegacy(localnet, [ComputeBudgetProgram.setComputeUnitLimit({ units: 1_400_000 }), ...instructions], signers);
  if (record.err) throw new Error(`DLMM pool setup failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`);
}

/**
 * Creates a pair of two existing classic-Token mints with the bin-step-10 preset, its active bin
 * at `activeId`, and gives it liquidity in every bin of the bin arrays `activeArray - arraysEachSide`
 * … `activeArray + arraysEachSide`: `amountPerBin` of Y in the bins below the active one, of X
 * above, half of each in the active bin (one position per bin array, spot strategy). The demo
 * wallet (given 10 SOL) pays and provides the liquidity.
 */
export async function createMeteoraDlmmPair(
  localnet: Localnet,
  params: { tokenX: PublicKey; tokenY: PublicKey; activeId: number; arraysEachSide: number; amountXPerBin: bigint; amountYPerBin: bigint },
): Promise<MeteoraDlmmPair> {
  const connection = new Connection(localnet.url, "confirmed");
  const opt = { programId: METEORA_DLMM_PROGRAM };
  const funder = DEMO_WALLET;
  localnet.airdrop(funder.publicKey, 10_000_000_000n); // rent of the pair, its arrays and positions
  const activeId = new BN(params.activeId);
  const createPair = await DLMM.createLbPair(
    connection,
    funder.publicKey,
    params.tokenX,
    params.tokenY,
    new BN(10),
    new BN(10000),
    DLMM_PRESET_BIN_STEP_10,
    activeId,
    opt,
  );
  send(localnet, createPair.instructions, [funder]);
  const [address] = dlmmV13.deriveLbPair2(params.tokenX, params.tokenY, new BN(10), new BN(10000), METEORA_DLMM_PROGRAM);
  const sdk = await DLMM.create(connection, address, opt);
  const program = sdk.program;

  const activeArray = Math.floor(params.activeId / DLMM_BINS_PER_ARRAY);
  const arrays: number[] = [];
  for (let i = activeArray - params.arraysEachSide; i <= activeArray + params.arraysEachSide + 1; i++) arrays.push(i);
  // add_liquidity takes a lower and an upper bin array; a position within one array names the next one as upper.
  for (const index of arrays) {
    const [binArray] = dlmmV13.deriveBinArray(address, new BN(index), METEORA_DLMM_PROGRAM);
    send(
      localnet,
      [await program.methods.initializeBinArray(new BN(index)).accounts({ binArray, funder: funder.publicKey, lbPair: address }).instruction()],
      [funder],
    );
  }

  const userX = fundTokenAccount(localnet, funder.publicKey, params.tokenX, 2n ** 62n);
  const userY = fundTokenAccount(localnet, funder.publicKey, params.tokenY, 2n ** 62n);
  for (const index of arrays.slice(0, -1)) {
    const lower = index * DLMM_BINS_PER_ARRAY;
    const upper = lower + DLMM_BINS_PER_ARRAY - 1;
    const binsAbove = Math.max(0, upper - Math.max(lower - 1, params.activeId));
    const binsBelow = Math.max(0, Math.min(upper + 1, params.activeId) - lower);
    const hasActive = params.activeId >= lower && params.activeId <= upper;
    // X sits in the bins above the active one, Y below, half of each in the active bin (spot: the same in every bin).
    const amountX = params.amountXPerBin * BigInt(binsAbove) + (hasActive ? params.amountXPerBin / 2n : 0n);
    const amountY = params.amountYPerBin * BigInt(binsBelow) + (hasActive ? params.amountYPerBin / 2n : 0n);
    const position = Keypair.generate();
    const [binArrayLower] = dlmmV13.deriveBinArray(address, new BN(index), METEORA_DLMM_PROGRAM);
    const [binArrayUpper] = dlmmV13.deriveBinArray(address, new BN(index + 1), METEORA_DLMM_PROGRAM);
    const init = await program.methods
      .initializePosition(lower, DLMM_BINS_PER_ARRAY)
      .accounts({ payer: funder.publicKey, position: position.publicKey, lbPair: address, owner: funder.publicKey })
      .instruction();
    const add = await program.methods
      .addLiquidityByStrategy({
        amountX: new BN(amountX.toString()),
        amountY: new BN(amountY.toString()),
        activeId: params.activeId,
        maxActiveBinSlippage: 0,
        strategyParameters: { minBinId: lower, maxBinId: upper, strategyType: { spotBalanced: {} }, parameteres: new Array(64).fill(0) },
      })
      .accounts({
        position: position.publicKey,
        lbPair: address,
        binArrayBitmapExtension: null,
        userTokenX: userX,
        userTokenY: userY,
        reserveX: sdk.lbPair.reserveX,
        reserveY: sdk.lbPair.reserveY,
        tokenXMint: params.tokenX,
        tokenYMint: params.tokenY,
        binArrayLower,
        binArrayUpper,
        sender: funder.publicKey,
        tokenXProgram: TOKEN_PROGRAM,
        tokenYProgram: TOKEN_PROGRAM,
      })
      .instruction();
    send(localnet, [init, add], [funder, position]);
  }
  await sdk.refetchStates();
  return { address, tokenX: params.tokenX, tokenY: params.tokenY, sdk };
}

/**
 * The 1.3.x SDK's own quote through `pair` from `inputMint` over the bin arrays a swap step passes
 * (the first three with liquidity from the active bin): ExactIn (`amount` in → out) or ExactOut
 * (`amount` out → in). The SDK takes its clock from `Date.now()`; it is pinned to the chain's
 * clock, which the program reads, for the call.
 */
export async function meteoraDlmmSdkQuote(
  localnet: Localnet,
  pair: MeteoraDlmmPair,
  inputMint: PublicKey,
  amount: bigint,
  mode: "ExactIn" | "ExactOut",
): Promise<{ inAmount: bigint; outAmount: bigint; fee: bigint }> {
  const swapForY = inputMint.equals(pair.tokenX);
  const binArrays = await pair.sdk.getBinArrayForSwap(swapForY, 3);
  const wallClock = Date.now;
  const chainMs = Number(localnet.chain.svm.getClock().unixTimestamp) * 1000;
  Date.now = () => chainMs;
  try {
    if (mode === "ExactIn") {
      const q = pair.sdk.swapQuote(new BN(amount.toString()), swapForY, new BN(0), binArrays, false);
      return { inAmount: BigInt(q.consumedInAmount.toString()), outAmount: BigInt(q.outAmount.toString()), fee: BigInt(q.fee.toString()) };
    }
    const q = pair.sdk.swapQuoteExactOut(new BN(amount.toString()), swapForY, new BN(0), binArrays);
    return { inAmount: BigInt(q.inAmount.toString()), outAmount: BigInt(q.outAmount.toString()), fee: BigInt(q.fee.toString()) };
  } finally {
    Date.now = wallClock;
  }
}
