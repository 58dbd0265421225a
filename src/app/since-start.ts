/** Milliseconds since the process started, for the start-up log lines (`ms`). */
export function sinceStart(): number {
  return Math.round(performance.now());
}
