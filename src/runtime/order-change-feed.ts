import { EventEmitter } from "node:events";

/** An order the tracker saw change (fill, completion, cancellation, first sight of its history). */
export interface OrderChange {
  readonly maker: string;
  readonly orderKey: string;
}

export type OrderChangeListener = (change: OrderChange) => void;

/**
 * In-process fan-out from the tracker to WatchTriggerOrders streams, keyed by maker. Listeners
 * run synchronously in publish order; a listener must not throw.
 */
export class OrderChangeFeed {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open stream of a maker: no fixed bound.
    this.emitter.setMaxListeners(0);
  }

  publish(change: OrderChange): void {
    this.emitter.emit(change.maker, change);
  }

  /** Returns the unsubscribe function. */
  subscribe(maker: string, listener: OrderChangeListener): () => void {
    this.emitter.on(maker, listener);
    return () => {
      this.emitter.off(maker, listener);
    };
  }

  listenerCount(maker: string): number {
    return this.emitter.listenerCount(maker);
  }
}
