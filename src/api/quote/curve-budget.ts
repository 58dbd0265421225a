/**
 * The curve store's work queue on the event loop: one job at a time, each running in slices
 * (`turn` between them yields to requests) within `budgetMs` of the loop per second.
 */
export class BudgetedQueue<T> {
  private readonly queue: T[] = [];
  private running = false;
  private closed = false;
  private windowStart = performance.now();
  private windowMs = 0;

  constructor(
    private readonly run: (item: T) => Promise<void>,
    readonly sliceMs: number,
    private readonly budgetMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Whether a job is running (or queued to). */
  get busy(): boolean {
    return this.running;
  }

  push(item: T): void {
    this.queue.push(item);
    this.kick();
  }

  close(): void {
    this.closed = true;
  }

  /** Waits until the budget allows `sliceMs` more, then yields to requests. */
  async turn(): Promise<void> {
    for (;;) {
      const now = performance.now();
      if (now - this.windowStart >= 1_000) {
        this.windowStart = now;
        this.windowMs = 0;
      }
      if (this.windowMs + this.sliceMs <= this.budgetMs) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000 - (now - this.windowStart)).unref());
    }
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Event-loop time a job took (counted against the budget). */
  spent(ms: number): void {
    this.windowMs += ms;
  }

  private kick(): void {
    if (this.running || this.closed || this.queue.length === 0) return;
    this.running = true;
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (!this.closed && this.queue.length > 0) {
        try {
          await this.run(this.queue.shift()!);
        } catch (error) {
          this.onError(error);
        }
      }
    } finally {
      this.running = false;
    }
    this.kick();
  }
}
