/**
 * Retries as a share of calls: each call earns `ratio` of a retry, each retry spends one, and up to
 * `reserve` retries can be saved (so a healthy service can retry a short burst of failures). Over
 * any period, retries ≤ ratio × calls + reserve: a failing upstream sees at most about (1 + ratio)
 * times the calls, not (1 + maxRetries) times.
 */
export class RetryBudget {
  private tokens: number;

  constructor(
    private readonly ratio: number,
    private readonly reserve: number,
  ) {
    this.tokens = reserve;
  }

  /** A new call (its first attempt). */
  earn(): void {
    this.tokens = Math.min(this.reserve, this.tokens + this.ratio);
  }

  /** Whether a retry may be sent now (and spends it). */
  spend(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
