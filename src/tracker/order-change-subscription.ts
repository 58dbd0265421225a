import type { OrderChange, OrderChangeFeed } from "../runtime/order-change-feed.js";

/**
 * A maker's order changes as an async iterable: subscribes at once (so nothing published while
 * the caller does other work is missed), buffers, and ends when `signal` aborts or the consumer
 * stops iterating; either way the listener is removed.
 */
export interface OrderChangeSubscription extends AsyncIterable<OrderChange> {
  /** Removes the listener; pending and later `next()` calls end the iteration. */
  close(): void;
}

export function subscribeOrderChanges(feed: OrderChangeFeed, maker: string, signal: AbortSignal): OrderChangeSubscription {
  const buffered: OrderChange[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const unsubscribe = feed.subscribe(maker, (change) => {
    buffered.push(change);
    wake?.();
  });
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    signal.removeEventListener("abort", close);
    wake?.();
  };
  if (signal.aborted) close();
  else signal.addEventListener("abort", close, { once: true });

  const iterator: AsyncIterator<OrderChange> = {
    async next(): Promise<IteratorResult<OrderChange>> {
      for (;;) {
        if (closed) return { done: true, value: undefined };
        const change = buffered.shift();
        if (change !== undefined) return { done: false, value: change };
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
    async return(): Promise<IteratorResult<OrderChange>> {
      close();
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator, close };
}
