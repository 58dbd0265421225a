import type { SolanaChain } from "./solana-chain.js";

export interface ChainReadiness {
  readonly ready: boolean;
  /** e.g. `slot 1234 in 12 ms` or the reason it is not ready */
  readonly detail: string;
}

/** For /readyz: the chain answers `getHealth` and `getSlot` within `timeoutMs`. Never throws. */
export async function checkChainReadiness(chain: SolanaChain, timeoutMs = 2_000): Promise<ChainReadiness> {
  const health = await chain.checkHealth(timeoutMs);
  return health.ok
    ? { ready: true, detail: `slot ${health.slot} in ${health.latencyMs} ms` }
    : { ready: false, detail: `chain not reachable: ${health.error ?? "unknown error"}` };
}
