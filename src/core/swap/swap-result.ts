/**
 * What a landed swap transaction actually moved, for Execute's answer (Jupiter's
 * `inputAmountResult`, `outputAmountResult`, `swapEvents`):
 * - `swapEvents`: the Jupiter v6 program's own events, emitted by self-CPI (Anchor's EVENT_IX_TAG +
 *   event discriminator + Borsh): `SwapEvent {amm, input_mint, input_amount, output_mint,
 *   output_amount}` per step (v1 routes) or `SwapsEvent {swap_events: Vec<{input_mint,
 *   input_amount, output_mint, output_amount}>}` (v2 routes). Layouts: the program's IDL.
 * - the amounts: the taker's token balance change of the input / output mint (pre/post token
 *   balances of accounts it owns). For native SOL (wrapped and unwrapped within the transaction,
 *   so no token balance shows it): the lamport change of the taker's SOL — its own account and
 *   its wrapped-SOL token accounts — net of the transaction fee, the rent of the accounts the
 *   transaction created and the tips it transferred (when the taker paid them). Where neither
 *   tells, the route's events: what the steps taking the input mint took, and what the steps
 *   paying the output mint paid.
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

/** A landed transaction's lamports, as the JSON-RPC reports them (`meta` and the message). */
export interface LandedLamports {
  /** Every account key in index order (static keys, then the lookup tables' writable and read-only ones). */
  readonly accountKeys: readonly string[];
  readonly preBalances: readonly number[];
  readonly postBalances: readonly number[];
  /** The fee the fee payer (`accountKeys[0]`) paid. */
  readonly fee: number;
  /** The top-level instructions: program id, account indexes, data. */
  readonly instructions: readonly { readonly programId: string; readonly accounts: readonly number[]; readonly data: Uint8Array }[];
}

export interface LandedSwap {
  /** Program id of every inner instruction (by CPI), with its data. */
  readonly innerInstructions: readonly { readonly programId: string; readonly data: Uint8Array }[];
  readonly preTokenBalances: readonly TokenBalanceEntry[];
  readonly postTokenBalances: readonly TokenBalanceEntry[];
  /** Needed for native SOL in or out; without it SOL amounts come from the events. */
  readonly lamports?: LandedLamports;
}

export interface SwapAmounts {
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  readonly swapEvents: SwapStepAmounts[];
}

const NATIVE_MINT = "So11111111111111111111111111111111111111112";
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
/** System program `Transfer`: u32 LE instruction index 2, then the lamports (u64 LE). */
const SYSTEM_TRANSFER = 2;

function systemTransferLamports(data: Uint8Array): bigint | undefined {
  if (data.length !== 12) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return view.getUint32(0, true) === SYSTEM_TRANSFER ? view.getBigUint64(4, true) : undefined;
}

/**
 * The lamports the taker's SOL (its account and its wrapped-SOL token accounts) gave to (< 0) or
 * took from (> 0) the swap: their change, plus what the taker paid besides the swap — the fee and
 * the rent of the accounts created here when it is the fee payer, and its system transfers to
 * accounts that existed before (tips). Undefined when the taker is not in the transaction.
 */
export function nativeSwapChange(landed: LandedSwap & { readonly lamports: LandedLamports }, taker: string): bigint | undefined {
  const { accountKeys, preBalances, postBalances, fee, instructions } = landed.lamports;
  const takerIndex = accountKeys.indexOf(taker);
  if (takerIndex < 0) return undefined;
  const holdings = new Set([takerIndex]);
  for (const b of [...landed.preTokenBalances, ...landed.postTokenBalances]) {
    if (b.owner === taker && b.mint === NATIVE_MINT) holdings.add(b.accountIndex);
  }
  const pre = (i: number) => BigInt(preBalances[i] ?? 0);
  const post = (i: number) => BigInt(postBalances[i] ?? 0);
  let change = 0n;
  for (const i of holdings) change += post(i) - pre(i);
  const takerPays = takerIndex === 0;
  let paidBesides = takerPays ? BigInt(fee) : 0n;
  if (takerPays) {
    for (let i = 0; i < accountKeys.length; i += 1) if (!holdings.has(i) && pre(i) === 0n && post(i) > 0n) paidBesides += post(i);
  }
  for (const ix of instructions) {
    const [from, to] = ix.accounts;
    if (ix.programId !== SYSTEM_PROGRAM || from !== takerIndex || to === undefined || holdings.has(to) || pre(to) === 0n) continue;
    paidBesides += systemTransferLamports(ix.data) ?? 0n;
  }
  return change + paidBesides;
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
  const swapEvents = landed.innerInstructions.filter((ix) => ix.programId === order.jupiterProgramId).flatMap((ix) => decodeSwapEvents(ix.data));
  const change = (mint: string): bigint | undefined => {
    const pre = ownedTotal(landed.preTokenBalances, order.taker, mint);
    const post = ownedTotal(landed.postTokenBalances, order.taker, mint);
    return pre === undefined && post === undefined ? undefined : (post ?? 0n) - (pre ?? 0n);
  };
  const native = landed.lamports === undefined ? undefined : nativeSwapChange({ ...landed, lamports: landed.lamports }, order.taker);
  const spent = order.inputMint === NATIVE_MINT && native !== undefined ? native : change(order.inputMint);
  const received = order.outputMint === NATIVE_MINT && native !== undefined ? native : change(order.outputMint);
  const fromEvents = (pick: (e: SwapStepAmounts) => bigint) => swapEvents.reduce((sum, e) => sum + pick(e), 0n);
  return {
    inputAmount: spent !== undefined && spent < 0n ? -spent : fromEvents((e) => (e.inputMint === order.inputMint ? e.inputAmount : 0n)),
    outputAmount: received !== undefined && received > 0n ? received : fromEvents((e) => (e.outputMint === order.outputMint ? e.outputAmount : 0n)),
    swapEvents,
  };
}
