import type { SolanaChain } from "./solana-chain.js";

export interface ChainReadiness {
  readonly ready: boolean;
  /** e.g. `slot 1234 in 12 ms` or the reason it is not ready */
  readonly detail: string;
  /** Ready but impaired: an endpoint slow or with its circuit open (`/readyz` stays 200 and says so). */
  readonly degraded?: string;
}

/**
 * For /readyz. Slow is not dead: when real calls succeeded within `recentMs`, the chain is ready
 * without a probe, however long they took; otherwise `getHealth` + `getSlot` must answer within
 * `timeoutMs` (the readiness probe's own timeout, longer than an ordinary RPC answer). Not ready at
 * once when every endpoint's circuit breaker is open. Never throws.
 */
export async function checkChainReadiness(chain: SolanaChain, timeoutMs = 2_000, recentMs = 0): Promise<ChainReadiness> {
  const endpoints = chain.endpointHealth();
  const inService = endpoints.filter((e) => e.breaker !== "open");
  if (inService.length === 0) {
    const why = endpoints.map((e) => `${e.endpoint}: ${e.lastFailure ?? "failing"}`).join("; ");
    return { ready: false, detail: `chain not reachable: circuit open for every RPC endpoint (${why})` };
  }
  const now = Date.now();
  // Only an endpoint whose breaker is closed vouches with its past answers; a half-open one is probed.
  const lastSuccess = Math.max(0, ...inService.filter((e) => e.breaker === "closed").map((e) => e.lastSuccessAt));
  let detail: string;
  if (recentMs > 0 && lastSuccess > 0 && now - lastSuccess <= recentMs) {
    detail = `last answer ${now - lastSuccess} ms ago`;
  } else {
    const health = await chain.checkHealth(timeoutMs);
    if (!health.ok) return { ready: false, detail: `chain not reachable: ${health.error ?? "unknown error"}` };
    detail = `slot ${health.slot} in ${health.latencyMs} ms`;
  }
  // Read again: the probe above may have changed them.
  const impaired = chain
    .endpointHealth()
    .flatMap((e) => (e.breaker === "open" ? [`${e.endpoint} circuit open`] : e.slow ? [`${e.endpoint} slow (${e.latencyMs} ms)`] : []));
  return { ready: true, detail, ...(impaired.length > 0 ? { degraded: `rpc ${impaired.join(", ")}` } : {}) };
}
