/**
 * The trigger bench's trigger → send trials (trigger-bench.ts, part 3): per probe, the chain raises
 * its pool's TRIG-i vault by `moveBps` (one account write) and the recording proxy timestamps the
 * probe leg's `sendTransaction` as it arrives; slots and ms from the write, both read in the chain's
 * process (one clock). Then the order must be reported landed (the chain's verdict).
 */
import type { LocalnetProcess } from "./localnet-process.js";
import type { ArmedOrder } from "./trigger-orders.js";

export interface Trial {
  readonly pair: number;
  readonly probe: number;
  /** Head: among the first orders of its pair in the keeper's loop; tail: behind all of them. */
  readonly position: "head" | "tail";
  readonly orderId: string;
  readonly writeSlot: number;
  readonly sendSlot: number;
  readonly slots: number;
  readonly ms: number;
  readonly status: string;
}

type Send = { signature: string; slot: number; atMs: number };

async function orderStatus(serviceUrl: string, probe: ArmedOrder): Promise<string> {
  const res = await fetch(`${serviceUrl}/trigger/v2/orders?taker=${probe.taker}`);
  const body = (await res.json()) as { orders?: { orderId: string; status: string }[] };
  return body.orders?.find((o) => o.orderId === probe.orderId)?.status ?? "missing";
}

/** Moves the probe's pool past its take-profit and times the probe leg's send at the chain. */
export async function trial(chain: LocalnetProcess, serviceUrl: string, probe: ArmedOrder, moveBps: number): Promise<Trial> {
  const moved = await chain.ask<{ slot: number; atMs: number }>({ type: "move", pair: probe.pair, bps: moveBps } as { type: string }, "moved");
  const deadline = Date.now() + 40_000;
  let sent: Send | undefined;
  while (sent === undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const { sends } = await chain.ask<{ sends: Send[] }>({ type: "sends" }, "sends");
    sent = sends.find((s) => probe.legSignatures.includes(s.signature) && s.atMs >= moved.atMs);
  }
  if (sent === undefined)
    throw new Error(`pair ${probe.pair}: probe ${probe.probe}'s leg was not sent within 40 s of the move (order ${await orderStatus(serviceUrl, probe)})`);
  let status = await orderStatus(serviceUrl, probe);
  while ((status === "armed" || status === "triggered") && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    status = await orderStatus(serviceUrl, probe);
  }
  return {
    pair: probe.pair,
    probe: probe.probe!,
    position: probe.probe! % 2 === 0 ? "head" : "tail",
    orderId: probe.orderId,
    writeSlot: moved.slot,
    sendSlot: sent.slot,
    slots: sent.slot - moved.slot,
    ms: sent.atMs - moved.atMs,
    status,
  };
}
