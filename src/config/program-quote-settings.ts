/**
 * Settings of the program quoter and of the embedded chain's clock, read from the environment.
 * Pure: `loadProgramQuoteSettings(env, problems)` only reads `env` and appends each problem as
 * `NAME: rule`, like the rest of src/config.ts.
 */

export interface ProgramQuoteSettings {
  /**
   * `PROGRAM_QUOTED_AMMS`: labels of the AMMs to quote by executing their programs (`SolFi V2`),
   * `auto` (every program-quoted AMM whose program the chain has), or none (`none`). Default
   * `auto` with any chain — embedded, SOLANA_RPC_URL or SOLANA_RPC_URLS alike: proprietary AMMs
   * carry much of the spot volume, and the quoter costs a few MB of binaries next to the process.
   */
  readonly amms: readonly string[] | "auto";
  /** `PROGRAM_QUOTE_REFRESH_MS`: how often upgraded programs are looked for. */
  readonly refreshMs: number;
  /**
   * `QUOTE_SHADOW_RATE`: the share of quotes (0–1) whose math-quoted legs are quoted again by their
   * own programs in the background, mismatches counted (`swapd_quote_shadow_checks_total`). Above 0
   * the program quoter also loads the binaries of the AMMs with math that the chain has. Default 0.
   */
  readonly shadowRate: number;
  /** `LOCALNET_CLOCK=<slot>:<unix seconds>`: where the embedded chain's clock starts. */
  readonly localnetClock: { readonly slot: number; readonly unixTimestamp: bigint } | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

export function loadProgramQuoteSettings(env: Env, problems: string[]): ProgramQuoteSettings {
  const raw = env["PROGRAM_QUOTED_AMMS"]?.trim();
  let amms: readonly string[] | "auto";
  if (raw === undefined || raw === "" || raw.toLowerCase() === "auto") amms = "auto";
  else if (raw.toLowerCase() === "none") amms = [];
  else amms = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");

  const refreshRaw = env["PROGRAM_QUOTE_REFRESH_MS"]?.trim();
  let refreshMs = 600_000;
  if (refreshRaw !== undefined && refreshRaw !== "") {
    if (/^\d+$/.test(refreshRaw) && Number(refreshRaw) <= 86_400_000) refreshMs = Number(refreshRaw);
    else problems.push(`PROGRAM_QUOTE_REFRESH_MS: must be an integer 0–86400000 (ms; 0 = never) (got ${JSON.stringify(refreshRaw)})`);
  }

  const shadowRaw = env["QUOTE_SHADOW_RATE"]?.trim();
  let shadowRate = 0;
  if (shadowRaw !== undefined && shadowRaw !== "") {
    const rate = Number(shadowRaw);
    if (/^(\d+(\.\d*)?|\.\d+)$/.test(shadowRaw) && rate <= 1) shadowRate = rate;
    else problems.push(`QUOTE_SHADOW_RATE: must be a number from 0 to 1 (the share of quotes checked; 0 = none) (got ${JSON.stringify(shadowRaw)})`);
  }

  const clockRaw = env["LOCALNET_CLOCK"]?.trim();
  let localnetClock: ProgramQuoteSettings["localnetClock"];
  if (clockRaw !== undefined && clockRaw !== "") {
    const match = /^(\d{1,15}):(\d{1,12})$/.exec(clockRaw);
    if (match) localnetClock = { slot: Number(match[1]), unixTimestamp: BigInt(match[2]!) };
    else problems.push(`LOCALNET_CLOCK: must be <slot>:<unix seconds>, e.g. 390838754:1767360940 (got ${JSON.stringify(clockRaw)})`);
  }
  return { amms, refreshMs, shadowRate, localnetClock };
}
