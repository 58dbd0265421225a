// Orca Whirlpool pools for on-chain tests: the mainnet SOL/USDC whirlpool from SWAPD_CHAIN_DIR's
// account snapshots (no creation needed), and the Orca SDK's own quote for a swap through it.
import { BN } from "@coral-xyz/anchor";
import { Percentage } from "@orca-so/common-sdk";
import {
  AccountName,
  NO_TOKEN_EXTENSION_CONTEXT,
  PDAUtil,
  WHIRLPOOL_CODER,
  ParsableTickArray,
  ParsableWhirlpool,
  SwapUtils,
  swapQuoteWithParams,
} from "@orca-so/whirlpools-sdk";
import type { WhirlpoolData } from "@orca-so/whirlpools-sdk";
import { PublicKey } from "@solana/web3.js";
import type { Localnet } from "../../../src/localnet/start-localnet.js";
import { fundTokenAccount } from "../onchain-stack.js";

export const WHIRLPOOL_PROGRAM = new PublicKey("whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc");
/** Mainnet Whirlpool SOL/USDC (tick spacing 64), in the chain folder's account snapshots. */
export const WHIRLPOOL_SOL_USDC = new PublicKey("HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ");
export const MAINNET_USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");

function parse<T>(parser: { parse(address: PublicKey, info: any): T | null }, localnet: Localnet, address: PublicKey): T {
  const acc = localnet.getAccount(address);
  if (!acc) throw new Error(`${address.toBase58()} is not on the chain`);
  const parsed = parser.parse(address, { data: Buffer.from(acc.data), owner: acc.owner, lamports: Number(acc.lamports), executable: false });
  if (!parsed) throw new Error(`${address.toBase58()} does not parse`);
  return parsed;
}

export function whirlpoolState(localnet: Localnet, pool: PublicKey): WhirlpoolData {
  return parse(ParsableWhirlpool, localnet, pool);
}

/**
 * The Orca SDK's quote for swapping through `pool` from `inputMint`: ExactIn (`amount` in →
 * estimated out) or ExactOut (`amount` out → estimated in).
 */
export function whirlpoolQuote(
  localnet: Localnet,
  pool: PublicKey,
  inputMint: PublicKey,
  amount: bigint,
  mode: "ExactIn" | "ExactOut",
): { inAmount: bigint; outAmount: bigint } {
  const data = whirlpoolState(localnet, pool);
  const aToB = data.tokenMintA.equals(inputMint);
  const addresses = SwapUtils.getTickArrayPublicKeys(data.tickCurrentIndex, data.tickSpacing, aToB, WHIRLPOOL_PROGRAM, pool);
  const tickArrays = addresses.map((address) => {
    const parsed = localnet.getAccount(address) ? parse(ParsableTickArray, localnet, address) : null;
    return { address, startTickIndex: parsed?.startTickIndex ?? 0, data: parsed };
  });
  const quote = swapQuoteWithParams(
    {
      whirlpoolData: data,
      tokenAmount: new BN(amount.toString()),
      otherAmountThreshold: SwapUtils.getDefaultOtherAmountThreshold(mode === "ExactIn"),
      sqrtPriceLimit: SwapUtils.getDefaultSqrtPriceLimit(aToB),
      aToB,
      amountSpecifiedIsInput: mode === "ExactIn",
      tickArrays,
      oracleData: null,
      tokenExtensionCtx: NO_TOKEN_EXTENSION_CONTEXT,
      timestampInSeconds: new BN(Math.floor(Date.now() / 1000)),
    },
    Percentage.fromFraction(0, 100),
  );
  return { inAmount: BigInt(quote.estimatedAmountIn.toString()), outAmount: BigInt(quote.estimatedAmountOut.toString()) };
}

/** The tick arrays of the mainnet SOL/USDC snapshot (tick spacing 64: 88 × 64 ticks each). */
const SOL_USDC_TICK_ARRAY_STARTS = [-50688, -45056, -39424, -33792, -28160, -22528, -16896];

/**
 * The mainnet SOL/USDC whirlpool again, for other mints: same config, price, liquidity and tick
 * arrays, at the PDA the program derives for `mintA`/`mintB` (its vault transfers are signed with
 * those seeds), with vaults (the pool's associated token accounts, written under each mint's
 * token program) holding `vaultAmounts`. Pool and tick arrays go through the Orca SDK's account
 * coder; the mints must be on the chain.
 */
export async function copySolUsdcWhirlpool(
  localnet: Localnet,
  mints: { mintA: PublicKey; mintB: PublicKey },
  vaultAmounts: [bigint, bigint],
): Promise<PublicKey> {
  const source = whirlpoolState(localnet, WHIRLPOOL_SOL_USDC);
  const tickSpacingSeed = Buffer.from(source.feeTierIndexSeed).readUInt16LE(0);
  const pda = PDAUtil.getWhirlpool(WHIRLPOOL_PROGRAM, source.whirlpoolsConfig, mints.mintA, mints.mintB, tickSpacingSeed);
  const tokenProgram = (mint: PublicKey) => localnet.getAccount(mint)!.owner;
  const tokenVaultA = fundTokenAccount(localnet, pda.publicKey, mints.mintA, vaultAmounts[0], tokenProgram(mints.mintA));
  const tokenVaultB = fundTokenAccount(localnet, pda.publicKey, mints.mintB, vaultAmounts[1], tokenProgram(mints.mintB));
  const pool = { ...source, whirlpoolBump: [pda.bump], tokenMintA: mints.mintA, tokenMintB: mints.mintB, tokenVaultA, tokenVaultB };
  const sourceAccount = localnet.getAccount(WHIRLPOOL_SOL_USDC)!;
  localnet.setAccount(pda.publicKey, { ...sourceAccount, data: await WHIRLPOOL_CODER.encode(AccountName.Whirlpool, pool) });
  for (const start of SOL_USDC_TICK_ARRAY_STARTS) {
    const from = PDAUtil.getTickArray(WHIRLPOOL_PROGRAM, WHIRLPOOL_SOL_USDC, start).publicKey;
    const account = localnet.getAccount(from)!;
    // `whirlpool` is the array's last field (Anchor's coder cannot encode a 10 kB account).
    const data = Buffer.from(account.data);
    pda.publicKey.toBuffer().copy(data, data.length - 32);
    const copied = WHIRLPOOL_CODER.decode(AccountName.TickArray, data);
    if (!copied.whirlpool.equals(pda.publicKey) || copied.startTickIndex !== start) throw new Error(`tick array ${start} did not copy`);
    localnet.setAccount(PDAUtil.getTickArray(WHIRLPOOL_PROGRAM, pda.publicKey, start).publicKey, { ...account, data });
  }
  return pda.publicKey;
}
