// `npm run demo` on the real programs: the README's swap flow lands on the embedded chain.
import { describe, expect, it } from "vitest";
import { runDemo } from "../../scripts/demo.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";

describe.skipIf(!hasChainDir())("npm run demo (SWAPD_CHAIN_DIR)", () => {
  it("quotes, builds, signs and sends a 1 SOL → USDC swap that lands and pays at least the quoted minimum", async () => {
    process.env["SWAPD_CHAIN_DIR"] = CHAIN_DIR!;
    const lines: string[] = [];
    await runDemo((line) => lines.push(line));
    const quoted = /at least ([\d.]+)\)/.exec(lines.find((l) => l.startsWith("4. "))!)![1];
    const received = /\(\+([\d.]+)\)$/.exec(lines.find((l) => l.startsWith("8. "))!)![1];
    expect(Number(received)).toBeGreaterThanOrEqual(Number(quoted));
    expect(lines.find((l) => l.startsWith("7. "))).toMatch(/landed in slot \d+/);
  }, 120_000);
});
