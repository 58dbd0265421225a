/**
 * The live cache's confirming reads: a read made before its account's subscription was in place
 * could miss an update in between, so once the subscription is confirmed the account is read once
 * more — all such accounts of a turn of the event loop in one background batch, retried after a
 * failure (live-account-cache.ts).
 */

const RETRY_MS = 1_000;

export interface ConfirmingReadsOptions {
  /** Reads the accounts and applies what is not older than the cache. */
  readonly read: (addresses: readonly string[]) => Promise<void>;
  /** Whether the cache still holds the account (one dropped meanwhile needs no read). */
  readonly held: (address: string) => boolean;
  readonly onError: (error: unknown, what: string) => void;
}

export class ConfirmingReads {
  private readonly waiting = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ConfirmingReadsOptions) {}

  /** Reads `address` once more, in the next batch. */
  add(address: string): void {
    this.waiting.add(address);
    this.timer ??= setTimeout(() => void this.readWaiting(), 0);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async readWaiting(): Promise<void> {
    // Confirmations asked for while this read is on its way get a read of their own (left waiting
    // for the next subscription instead, an account whose update fell in the gap stayed stale).
    this.timer = undefined;
    const addresses = [...this.waiting].filter((a) => this.options.held(a));
    this.waiting.clear();
    try {
      await this.options.read(addresses);
    } catch (error) {
      this.options.onError(error, "confirming read");
      for (const a of addresses) this.waiting.add(a);
      if (this.closed || this.timer !== undefined) return;
      this.timer = setTimeout(() => void this.readWaiting(), RETRY_MS);
      this.timer.unref();
    }
  }
}
