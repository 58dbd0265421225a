/**
 * What a landed swap transaction actually moved, for Execute's answer (Jupiter's
 * `inputAmountResult`, `outputAmountResult`, `swapEvents`):
 * - `swapEvents`: the Jupiter v6 program's own events, emitted by self-CPI (Anchor's EVENT_IX_TAG +
 *   event discriminator + Borsh): `SwapEvent {amm, input_mint, input_amount, output_mint,
 *   output_amount}` per step (v1 routes) or `SwapsEvent {swap_events: Vec<{input_mint,
 *   input_amount, output_mint, output_amount}>}` (v2 routes). Layouts: the program's IDL.
 * - the amounts: the taker's token balance change of the input / output mint (pre/post token
 *   balances of accounts it owns); where the taker holds no such account before and after (native
 *   SOL wrapped and unwrapped within the transaction), the route's events: what the steps taking
 *   the input mint took, and what the steps paying the output mint paid.
 */
import { getArrayDecoder, getStructDecoder, getU64Decoder } from "@solana/kit";
import type { Decoder } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";
import { hasDiscriminator } from "../solana/discriminator.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { base58Of } from "../solana/base58-strings.js";
import { EVENT_IX_TAG } from "../trigger/events.js";

export const SWAP_EVENT_DISCRIMINATOR = new Uint8Array([64, 198, 205, 232, 38, 8, 113, 226]);
export const SWAPS_EVENT_DISCRIMINATOR = new Uint8Array([152, 47, 78, 235, 192, 96, 110, 106]);

export interface SwapStepAmounts {
  readonly inputMint: string;
  readonly inputAmount: bigint;
  readonly outputMint: string;
  readonly outputAmount: bigint;
}

interface SwapEventData {
  readonly amm: PublicKey;
  readonly inputMint: PublicKey;
  readonly inputAmount: bigint;
  readonly outputMint: PublicKey;
  readonly outputAmount: bigint;
}

interface SwapEventV2Data {
  readonly inputMint: PublicKey;
  readonly inputAmount: bigint;
  readonly outputMint: PublicKey;
  readonly outputAmount: bigint;
}

let swapEventDecoder: Decoder<SwapEventData> | undefined;
let swapsEventDecoder: Decoder<{ swapEvents: SwapEventV2Data[] }> | undefined;

function decoders() {
  const key = getPublicKeyCodec();
  swapEventDecoder ??= getStructDecoder([
    ["amm", key],
    ["inputMint", key],
    ["inputAmount", getU64Decoder()],
    ["outputMint", key],
    ["outputAmount", getU64Decoder()],
  ]) as Decoder<SwapEventData>;
  swapsEventDecoder ??= getStructDecoder([
    [
      "swapEvents",
      getArrayDecoder(
        getStructDecoder([
          ["inputMint", key],
          ["inputAmount", getU64Decoder()],
          ["outputMint", key],
          ["outputAmount", getU64Decoder()],
        ]),
      ),
    ],
  ]) as Decoder<{ swapEvents: SwapEventV2Data[] }>;
  return { swapEventDecoder, swapsEventDecoder };
}

/** The steps' amounts of one event instruction of the Jupiter program (none if it is not a swap event). */
export function decodeSwapEvents(data: Uint8Array): SwapStepAmounts[] {
  if (!hasDiscriminator(data, EVENT_IX_TAG)) return [];
  const { swapEventDecoder, swapsEventDecoder } = decoders();
  const step = (e: SwapEventV2Data): SwapStepAmounts => ({
    inputMint: base58Of(e.inputMint),
    inputAmount: e.inputAmount,
    outputMint: base58Of(e.outputMint),
    outputAmount: e.outputAmount,
  });
  if (hasDiscriminator(data, SWAP_EVENT_DISCRIMINATOR, 8)) return [step(swapEventDecoder.decode(data, 16))];
  if (hasDiscriminator(data, SWAPS_EVENT_DISCRIMINATOR, 8)) return swapsEventDecoder.decode(data, 16).swapEvents.map(step);
  return [];
}

/** A token balance as the JSON-RPC reports it (pre/postTokenBalances). */
export interface TokenBalanceEntry {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner?: string | undefined;
  readonly uiTokenAmount: { readonly amount: string };
}

export interface LandedSwap {
  /** Program id of every inner instruction (by CPI), with its data. */
  readonly innerInstructions: readonly { readonly programId: string; readonly data: Uint8Array }[];
  readonly preTokenBalances: readonly TokenBalanceEntry[];
  readonly postTokenBalances: readonly TokenBalanceEntry[];
}

export interface SwapAmounts {
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  readonly swapEvents: SwapStepAmounts[];
}

function ownedTotal(balances: readonly TokenBalanceEntry[], owner: string, mint: string): bigint | undefined {
  let total: bigint | undefined;
  for (const b of balances) if (b.owner === owner && b.mint === mint) total = (total ?? 0n) + BigInt(b.uiTokenAmount.amount);
  return total;
}

export function swapAmounts(
  landed: LandedSwap,
  order: { readonly taker: string; readonly inputMint: string; readonly outputMint: string; readonly jupiterProgramId: string },
): SwapAmounts {
  const swapEvents = landed.innerInstructions
    .filter((ix) => ix.programId === order.jupiterProgramId)
    .flatMap((ix) => decodeSwapEvents(ix.data));
  const change = (mint: string): bigint | undefined => {
    const pre = ownedTotal(landed.preTokenBalances, order.taker, mint);
    const post = ownedTotal(landed.postTokenBalances, order.taker, mint);
    return pre === undefined && post === undefined ? undefined : (post ?? 0n) - (pre ?? 0n);
  };
  const spent = change(order.inputMint);
  const received = change(order.outputMint);
  const fromEvents = (pick: (e: SwapStepAmounts) => bigint) => swapEvents.reduce((sum, e) => sum + pick(e), 0n);
  return {
    inputAmount: spent !== undefined && spent < 0n ? -spent : fromEvents((e) => (e.inputMint === order.inputMint ? e.inputAmount : 0n)),
    outputAmount:
      received !== undefined && received > 0n ? received : fromEvents((e) => (e.outputMint === order.outputMint ? e.outputAmount : 0n)),
    swapEvents,
  };
}
