/**
 * The latest blockhash, kept at most `maxAgeMs` (≤ 1 s): concurrent callers share one request, and
 * an answer never replaces one requested later.
 */
import type { LatestBlockhash } from "./solana-chain.js";
import { contextValue } from "./account-json.js";
import { parseAnswer, parseBlockhash } from "./rpc-context.js";
import type { RpcContext } from "./rpc-context.js";

export class BlockhashCache {
  private cached: { value: LatestBlockhash; at: number } | undefined;
  private inFlight: Promise<LatestBlockhash> | undefined;

  constructor(
    private readonly rpc: RpcContext,
    private readonly maxAgeMs: number,
  ) {}

  fresh(): LatestBlockhash | undefined {
    const cached = this.cached;
    return cached && Date.now() - cached.at < this.maxAgeMs ? cached.value : undefined;
  }

  remember(value: LatestBlockhash, requestedAt: number): LatestBlockhash {
    if (!this.cached || this.cached.at <= requestedAt) this.cached = { value, at: requestedAt };
    return value;
  }

  async get(): Promise<LatestBlockhash> {
    const fresh = this.fresh();
    if (fresh) return fresh;
    // Concurrent callers share one request.
    this.inFlight ??= (async () => {
      const requestedAt = Date.now();
      try {
        const answer = await this.rpc.transport.call("getLatestBlockhash", [{ commitment: this.rpc.commitment }], { retry: true });
        return this.remember(
          parseAnswer("getLatestBlockhash", () => parseBlockhash(contextValue(answer))),
          requestedAt,
        );
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }
}
