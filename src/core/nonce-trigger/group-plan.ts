/**
 * A CreateOrder as the orders it makes (pure): one for single / OCO / trailing; an entry and an
 * OCO for an OTOCO; one per round for a DCA. Each member has its pair, amount, legs (triggers in
 * raw units of the mint its price is watched in), schedule and predecessor; the API quotes and
 * builds each member's legs on its own nonce account.
 */
import type { ParsedCreateNonceOrder } from "./create-request.js";
import type { GroupKind } from "./group.js";
import type { LegSpec, NonceOrderKind } from "./order.js";
import { triggerOutAmount } from "./price.js";

export interface PlannedOrder {
  readonly kind: NonceOrderKind;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly legs: readonly LegSpec[];
  readonly trailBps: number | null;
  /** The mint the legs' triggers are watched in: the price mint, or the output. */
  readonly watchedMint: string;
  /** The stored price mint (null: the pair's own price). */
  readonly priceMint: string | null;
  /** Index of the member that must finish first. */
  readonly after: number | null;
  readonly notBefore: Date | null;
}

export interface PlannedGroup {
  readonly groupKind: GroupKind | null;
  readonly orders: readonly PlannedOrder[];
}

export type Decimals = (mint: string) => number;

/** The order's amount split in `rounds`: equal shares, the remainder in the last (as Jupiter's DCA). */
export function roundAmounts(amount: bigint, rounds: number): bigint[] {
  const share = amount / BigInt(rounds);
  return Array.from({ length: rounds }, (_, i) => (i === rounds - 1 ? amount - share * BigInt(rounds - 1) : share));
}

function priced(
  kind: LegSpec["kind"],
  leg: ParsedCreateNonceOrder["legs"][number],
  amount: bigint,
  inMint: string,
  watched: string,
  decimals: Decimals,
): LegSpec {
  const roundUp = kind === "take_profit" || kind === "entry";
  return {
    kind,
    triggerOutAmount: leg.price === null ? null : triggerOutAmount(leg.price, amount, decimals(inMint), decimals(watched), roundUp),
    minOutAmount: leg.minOutAmount,
  };
}

export function planOrders(order: ParsedCreateNonceOrder, decimals: Decimals): PlannedGroup {
  const { inputMint, outputMint, amount, priceMint } = order;
  switch (order.kind) {
    case "single":
    case "oco":
    case "trailing": {
      const watched = priceMint ?? outputMint;
      const legs = order.legs.map((l) => priced(l.kind, l, amount, inputMint, watched, decimals));
      return {
        groupKind: null,
        orders: [
          { kind: order.kind, inputMint, outputMint, amount, legs, trailBps: order.trailBps, watchedMint: watched, priceMint, after: null, notBefore: null },
        ],
      };
    }
    case "otoco":
      return planOtoco(order, decimals);
    case "dca":
      return planDca(order, decimals);
  }
}

/** An OTOCO: the entry (in → out), then an OCO selling the entry's floor back (out → in), after it. */
function planOtoco(order: ParsedCreateNonceOrder, decimals: Decimals): PlannedGroup {
  const { inputMint, outputMint, amount, priceMint } = order;
  const entry = order.entry!;
  const bought = entry.minOutAmount;
  const watched = priceMint ?? inputMint;
  return {
    groupKind: "otoco",
    orders: [
      {
        kind: "entry",
        inputMint,
        outputMint,
        amount,
        legs: [priced("entry", entry, amount, inputMint, outputMint, decimals)],
        trailBps: null,
        watchedMint: outputMint,
        priceMint: null,
        after: null,
        notBefore: null,
      },
      {
        kind: "oco",
        inputMint: outputMint,
        outputMint: inputMint,
        amount: bought,
        legs: order.legs.map((l) => priced(l.kind, l, bought, outputMint, watched, decimals)),
        trailBps: null,
        watchedMint: watched,
        priceMint,
        after: 0,
        notBefore: null,
      },
    ],
  };
}

/** A DCA: one order per round, each after the one before and due `intervalSeconds` after it. */
function planDca(order: ParsedCreateNonceOrder, decimals: Decimals): PlannedGroup {
  const { inputMint, outputMint, amount, priceMint } = order;
  const dca = order.dca!;
  const watched = priceMint ?? outputMint;
  const amounts = roundAmounts(amount, dca.rounds);
  const share = amounts[0];
  return {
    groupKind: "dca",
    orders: amounts.map((roundAmount, i) => ({
      kind: "dca_round" as const,
      inputMint,
      outputMint,
      amount: roundAmount,
      legs: [
        {
          kind: "dca_round" as const,
          triggerOutAmount: dca.minPrice === null ? null : triggerOutAmount(dca.minPrice, roundAmount, decimals(inputMint), decimals(watched), true),
          triggerMaxOutAmount: dca.maxPrice === null ? null : triggerOutAmount(dca.maxPrice, roundAmount, decimals(inputMint), decimals(watched), false),
          // The floor asked is for an equal share; the last round (with the remainder) gets it in proportion.
          minOutAmount: (dca.minOutAmount * roundAmount) / share,
        },
      ],
      trailBps: null,
      watchedMint: watched,
      priceMint,
      after: i === 0 ? null : i - 1,
      notBefore: new Date(dca.startAt.getTime() + i * dca.intervalSeconds * 1000),
    })),
  };
}
