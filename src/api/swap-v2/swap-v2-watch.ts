/**
 * ExecuteAndWatch: swap Execute, streaming its progress — `sent` (once, when this call sends; a
 * repeated call of a landed transaction has nothing to send), then `confirmed` (or `failed`) with
 * the result, then `finalized` once the chain says so (within `finalityWaitMs`; the stream ends
 * after `confirmed` otherwise).
 */
import { create } from "@bufbuild/protobuf";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { ExecuteAndWatchResponseSchema } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { ExecuteAndWatchRequest, ExecuteAndWatchResponse } from "../../gen/swapd/swap/v1/swap_pb.js";
import { executeSwap } from "./swap-execute.js";
import type { SwapExecuteDeps } from "./swap-execute.js";
import { executeResultToProto } from "./swap-v2-proto.js";

/** A queue of stream messages that a producer fills and the handler's generator drains. */
function channel<T>() {
  const items: T[] = [];
  let wake: (() => void) | undefined;
  return {
    push(item: T) {
      items.push(item);
      wake?.();
    },
    async next(until: Promise<unknown>): Promise<T | undefined> {
      if (items.length === 0)
        await Promise.race([
          new Promise<void>((r) => (wake = r)),
          until.then(
            () => undefined,
            () => undefined,
          ),
        ]);
      wake = undefined;
      return items.shift();
    },
  };
}

/** Resolves true when the signature is finalized, false when the wait ends first. */
async function finalized(
  chain: Pick<SolanaChain, "getSignatureStatuses">,
  signature: string,
  signal: AbortSignal,
  pollMs: number,
  waitMs: number,
): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (!signal.aborted && Date.now() < deadline) {
    const status = (await chain.getSignatureStatuses([signature]))[0] ?? null;
    if (status?.confirmationStatus === "finalized") return true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return false;
}

export async function* watchExecution(
  deps: SwapExecuteDeps & { readonly finalityPollMs?: number; readonly finalityWaitMs?: number },
  req: ExecuteAndWatchRequest,
  signal: AbortSignal,
): AsyncGenerator<ExecuteAndWatchResponse> {
  const progress = channel<ExecuteAndWatchResponse>();
  let stopWatching: (() => void) | undefined;
  let sentSaid = false;
  const done = executeSwap(deps, req, {
    requireRequestId: true,
    onRecord: (record) => {
      stopWatching = deps.confirmations.watch(record.signature, () => {
        if (sentSaid) return; // re-broadcasts are not news
        sentSaid = true;
        progress.push(create(ExecuteAndWatchResponseSchema, { stage: "sent", signature: record.signature }));
      });
    },
  });
  try {
    for (;;) {
      const item = await progress.next(done);
      if (item === undefined) break;
      yield item;
    }
    const result = await done;
    const proto = executeResultToProto(result);
    yield create(ExecuteAndWatchResponseSchema, { stage: result.status === "Success" ? "confirmed" : "failed", signature: result.signature, result: proto });
    if (result.status === "Success" && (await finalized(deps.chain, result.signature, signal, deps.finalityPollMs ?? 400, deps.finalityWaitMs ?? 60_000))) {
      yield create(ExecuteAndWatchResponseSchema, { stage: "finalized", signature: result.signature, result: proto });
    }
  } finally {
    stopWatching?.();
  }
}
