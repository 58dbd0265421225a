/**
 * A refresh that runs every `intervalMs`, at once when nudged, never two at a time: a nudge during
 * a refresh runs another right after it (what the first read may predate). A refresh may ask to
 * run sooner than the interval (a time something falls due).
 */
export class RefreshLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    /** One refresh; resolves with when the next is wanted at the latest (null: the interval). */
    private readonly refresh: () => Promise<Date | null>,
    private readonly intervalMs: number,
    /** A refresh that failed (the loop goes on at the interval). */
    private readonly onError: (err: unknown) => void,
  ) {}

  nudge(): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.refresh()
      .catch((err: unknown) => {
        this.onError(err);
        return null;
      })
      .then((wakeAt) => {
        this.running = undefined;
        if (this.closed) return;
        const again = this.again;
        this.again = false;
        const dueIn = wakeAt === null ? this.intervalMs : Math.max(0, Math.min(this.intervalMs, wakeAt.getTime() - Date.now()));
        this.timer = setTimeout(() => this.nudge(), again ? 0 : dueIn);
        this.timer.unref();
      });
  }

  /** Stops the loop; resolves once a refresh under way ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
