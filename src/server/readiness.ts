/** A readiness check of `GET /readyz`: resolves when ready, throws (with a reason) when not. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves `{degraded}` when serving but impaired: `/readyz` stays 200 and says "degraded". */
  check(signal: AbortSignal): Promise<void | { degraded: string } | undefined>;
  /** Default 2000 ms. */
  readonly timeoutMs?: number;
}

/** One check's outcome as `/readyz` reports it. */
type CheckOutcome = { ok: boolean; ms: number; error?: string; degraded?: string };

/** Runs every check in parallel, each within its timeout (then aborted); never throws. */
export async function runReadiness(checks: readonly ReadinessCheck[]): Promise<Record<string, CheckOutcome>> {
  const entries = await Promise.all(
    checks.map(async (c) => {
      const t0 = Date.now();
      const ac = new AbortController();
      const timeoutMs = c.timeoutMs ?? 2000;
      let timer: NodeJS.Timeout | undefined;
      try {
        const result = await Promise.race([
          c.check(ac.signal),
          new Promise((_, reject) => {
            timer = setTimeout(() => {
              ac.abort();
              reject(new Error(`timed out after ${timeoutMs} ms`));
            }, timeoutMs);
          }),
        ]);
        const degraded = (result as { degraded?: unknown } | undefined)?.degraded;
        return [c.name, { ok: true, ms: Date.now() - t0, ...(typeof degraded === "string" ? { degraded } : {}) }] as const;
      } catch (e) {
        return [c.name, { ok: false, ms: Date.now() - t0, error: (e as Error).message ?? String(e) }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries<CheckOutcome>(entries);
}
