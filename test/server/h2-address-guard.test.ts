// The per-address HTTP/2 guard's arithmetic, on its own clock: session and reset buckets (burst 10×
// the rate), the penalty, and its doubling for an address that floods again soon after.
import { describe, expect, test } from "vitest";
import { H2AddressGuard } from "../../src/runtime/h2-address-guard.js";

describe("H2AddressGuard", () => {
  const limits = { h2MaxSessionsPerSecond: 2, h2MaxResetsPerSecond: 5, h2PenaltyMs: 1_000 };

  test("sessions: a burst of 10× the rate, then penalized; other addresses unaffected; admitted again after the penalty", () => {
    let now = 0;
    const guard = new H2AddressGuard(limits, () => now);
    const verdicts = Array.from({ length: 21 }, () => guard.admitSession("a"));
    expect(verdicts.slice(0, 20)).toEqual(Array(20).fill("ok"));
    expect(verdicts[20]).toBe("too many sessions");
    expect(guard.admitSession("a")).toBe("penalized");
    expect(guard.admitSession("b")).toBe("ok");
    now = 1_000;
    expect(guard.admitSession("a")).toBe("ok"); // 2 tokens refilled in that second
  });

  test("resets over all sessions of an address: 50 pass, the 51st penalizes; a repeat within 10 penalties doubles it", () => {
    let now = 0;
    const guard = new H2AddressGuard(limits, () => now);
    for (let i = 0; i < 50; i++) expect(guard.reset("a")).toBe(true);
    expect(guard.reset("a")).toBe(false);
    expect(guard.admitSession("a")).toBe("penalized");
    now = 1_000; // the first penalty (1 s) is over
    expect(guard.admitSession("a")).toBe("ok");
    // Back with an empty reset bucket: it refills at 5 per second from the penalty's end.
    now = 1_999;
    for (let i = 0; i < 4; i++) expect(guard.reset("a")).toBe(true);
    now = 2_000;
    expect(guard.reset("a")).toBe(true);
    expect(guard.reset("a")).toBe(false); // again, 1 s after the first penalty ended: 2 s now
    now = 3_999;
    expect(guard.admitSession("a")).toBe("penalized");
    now = 4_000;
    expect(guard.admitSession("a")).toBe("ok");
    // Quiet for more than 10 penalties: the next one is the base again.
    now = 20_000;
    for (let i = 0; i < 50; i++) guard.reset("a");
    expect(guard.reset("a")).toBe(false);
    now = 21_000;
    expect(guard.admitSession("a")).toBe("ok");
  });
});
