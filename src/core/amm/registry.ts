import type { PublicKey } from "@solana/web3.js";
import type { AmmAdapter } from "./adapter.js";

/** Every supported AMM, one adapter per file; adding an AMM = one file + one line here. */
const adapters: AmmAdapter<any>[] = [
  // registered adapters go here, one line each
];

const byProgram = new Map(adapters.map((a) => [a.programId.toBase58(), a]));

/** The adapter for a pool account's owner program, if supported. */
export function adapterForOwner(owner: PublicKey): AmmAdapter<unknown> | undefined {
  return byProgram.get(owner.toBase58());
}

export function supportedAdapters(): readonly AmmAdapter<unknown>[] {
  return adapters;
}
