// Orca Whirlpool pools for on-chain tests: the mainnet SOL/USDC whirlpool from SWAPD_CHAIN_DIR's
// account snapshots (no creation needed), and the Orca SDK's own quote for a swap through it.
import { BN } from "@coral-xyz/anchor";
import { Percentage } from "@orca-so/common-sdk";
import {
  NO_TOKEN_EXTENSION_CONTEXT,
  ParsableTickArray,
  ParsableWhirlpool,
  SwapUtils,
  swapQuoteWithParams,
} from "@orca-so/whirlpools-sdk";
import type { WhirlpoolData } from "@orca-so/whirlpools-sdk";
import { PublicKey } from "@solana/web3.js";
import type { Localnet } from "../../../src/localnet/start-localnet.js";

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
