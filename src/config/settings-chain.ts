/** The chain: the RPC endpoints and their fault handling, the embedded chain, the program quoter, live chain state. */
import { DEFAULT_LIVE_ACCOUNTS_MAX, DEFAULT_LIVE_POOLS_MAX } from "../chain/live/live-account-cache.js";
import { decimal, directories, directory, flag, integer, oneOf, setting, text, url, urlList, type Parser } from "./setting-parsers.js";

export type LiveSourceSetting = "auto" | "websocket" | "yellowstone" | "polling" | "off";
const LIVE_SOURCES: readonly LiveSourceSetting[] = ["auto", "websocket", "yellowstone", "polling", "off"];

export interface LocalnetClock {
  readonly slot: number;
  readonly unixTimestamp: bigint;
}

const localnetClock: Parser<LocalnetClock> = {
  accepts: "`<slot>:<unix seconds>`",
  parse(raw, refuse) {
    const match = /^(\d{1,15}):(\d{1,12})$/.exec(raw);
    if (match) return { slot: Number(match[1]), unixTimestamp: BigInt(match[2]) };
    refuse(`must be <slot>:<unix seconds>, e.g. 390838754:1767360940 (got ${JSON.stringify(raw)})`);
    return undefined;
  },
};

/** `auto`, `none` (no AMM) or a list of labels. */
const programQuotedAmms: Parser<readonly string[] | "auto"> = {
  accepts: "`auto`, `none` or comma-separated AMM labels",
  parse(raw) {
    if (raw.toLowerCase() === "auto") return "auto";
    if (raw.toLowerCase() === "none") return [];
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  },
};

const ms = (min: number, max: number) => integer(min, max, "ms");
const httpUrl = ["http:", "https:"];

/** Typed as the settings' values, so the schema infers the union rather than "auto". */
const AUTO_AMMS: readonly string[] | "auto" = "auto";
const AUTO_LIVE_SOURCE: LiveSourceSetting = "auto";

export const CHAIN_SETTINGS = {
  SOLANA_RPC_URL: setting({
    room: "chain",
    parser: url(httpUrl),
    defaultDoc: "unset → embedded local chain",
    doc: "a Solana JSON-RPC endpoint for production; credentials and API keys in it are redacted in logs",
  }),
  SOLANA_RPC_URLS: setting({
    room: "chain",
    parser: urlList(httpUrl),
    default: [] as readonly string[],
    defaultDoc: "unset",
    doc:
      "several endpoints instead, in order of preference: calls go to the first that is neither failing (circuit open) nor slow, and fail over to the next " +
      "(see [operations.md](operations.md#limits-faults-and-replicas)). Set this or `SOLANA_RPC_URL`, not both: either means the same. The websocket is derived from the first. " +
      "Execute reads signature statuses from every one of them",
  }),
  SWAPD_DEMO: setting({
    room: "chain",
    parser: flag("0 or 1"),
    default: true,
    defaultDoc: "`1` (the Docker image: `0`)",
    doc: "`1`: without `SOLANA_RPC_URL`, run the embedded demo chain. `0`: `SOLANA_RPC_URL` (or `SOLANA_RPC_URLS`) is required",
  }),
  RPC_TIMEOUT_MS: setting({ room: "chain", parser: ms(1, 600_000), default: 10_000, doc: "timeout of one Solana RPC call, retries and failovers included" }),
  RPC_SLOW_MS: setting({
    room: "chain",
    parser: ms(1, 600_000),
    default: 1_000,
    doc: "an RPC endpoint answering slower than this on average is *slow*: still ready and used, behind faster endpoints",
  }),
  RPC_READINESS_TIMEOUT_MS: setting({
    room: "chain",
    parser: ms(100, 600_000),
    default: 5_000,
    doc: "the `/readyz` probe of the RPC, run only when no real call got an answer in the last 10 s",
  }),
  RPC_BREAKER_HALF_OPEN_MS: setting({
    room: "chain",
    parser: ms(100, 600_000),
    default: 2_000,
    doc: "how long an endpoint's open circuit breaker waits before one trial call",
  }),
  RPC_RETRY_BUDGET_PERCENT: setting({ room: "chain", parser: integer(0, 100, "percent of calls"), default: 10, doc: "retries to the RPC as a share of calls" }),
  LOCALNET_PROGRAMS_DIR: setting({ room: "chain", parser: directory(), doc: "directory of `<programId>.so` files loaded into the embedded chain" }),
  LOCALNET_ACCOUNTS_DIR: setting({
    room: "chain",
    parser: directories(),
    doc: "directories of account snapshots (`solana account --output json`) loaded into the embedded chain; a later folder's file wins",
  }),
  LOCALNET_CLOCK: setting({
    room: "chain",
    parser: localnetClock,
    defaultDoc: "unset (slot 1, now)",
    doc: "where the embedded chain's clock starts, for snapshots of oracle-priced pools (SolFi V2's Jan-2026 pool: `390838754:1767360940`); time then runs with the wall clock",
  }),
  PROGRAM_QUOTED_AMMS: setting({
    room: "chain",
    parser: programQuotedAmms,
    default: AUTO_AMMS,
    defaultDoc: "`auto`, with any chain",
    doc:
      "AMMs quoted by executing their own programs (see [amms.md](amms.md#proprietary-amms-quoted-by-their-own-programs)): labels (`SolFi V2`, `HumidiFi`), " +
      "`auto` (those whose program and Jupiter v6's the chain has; one the RPC cannot serve is left out, said in `/readyz`, and read again until it loads) or `none`",
  }),
  PROGRAM_QUOTE_REFRESH_MS: setting({
    room: "chain",
    parser: integer(0, 86_400_000, "ms; 0 = never"),
    default: 600_000,
    doc: "how often the program quoter looks for upgraded programs (a new programdata deploy slot) and reloads them",
  }),
  QUOTE_SHADOW_RATE: setting({
    room: "chain",
    parser: decimal(0, 1, { rule: "must be a number from 0 to 1 (the share of quotes checked; 0 = none)" }),
    default: 0,
    doc: "share of quotes whose legs through AMMs with math are quoted again, in the background, by the AMM's own program; above 0 the program quoter also loads those AMMs' binaries",
  }),
} as const;

export const LIVE_SETTINGS = {
  LIVE_SOURCE: setting({
    room: "live",
    parser: oneOf(LIVE_SOURCES),
    default: AUTO_LIVE_SOURCE,
    doc: "live chain state (see [operations.md](operations.md#live-chain-state)): `auto` = Yellowstone when `YELLOWSTONE_GRPC_URL` is set, else the PubSub websocket; `off`: every request reads",
  }),
  SOLANA_WS_URL: setting({
    room: "live",
    parser: url(["ws:", "wss:"]),
    defaultDoc: "derived from the RPC URL as web3.js does (`ws`/`wss`, port + 1 when a port is given); the embedded chain's own",
    doc: "PubSub websocket of the `websocket` source",
  }),
  YELLOWSTONE_GRPC_URL: setting({ room: "live", parser: url(httpUrl), doc: "Yellowstone gRPC Geyser endpoint" }),
  YELLOWSTONE_GRPC_TOKEN: setting({ room: "live", parser: text("a token"), doc: "Yellowstone's `x-token`" }),
  LIVE_POLL_MS: setting({
    room: "live",
    parser: ms(50, 600_000),
    default: 1_000,
    doc: "period of the `polling` source (one batched getMultipleAccounts per round)",
  }),
  LIVE_POOLS_MAX: setting({
    room: "live",
    parser: integer(1, 1_000_000),
    default: DEFAULT_LIVE_POOLS_MAX,
    doc: "most pools the live cache holds and subscribes, each with the accounts its quotes and swaps need; the least recently used pool leaves first, with its accounts",
  }),
  LIVE_ACCOUNTS_MAX: setting({
    room: "live",
    parser: integer(1, 10_000_000),
    default: DEFAULT_LIVE_ACCOUNTS_MAX,
    doc: "a ceiling on the accounts the live cache holds over all its pools (past it, least recently used pools leave too); not an alias of `LIVE_POOLS_MAX`",
  }),
  LIVE_MAX_STALENESS_MS: setting({
    room: "live",
    parser: ms(100, 600_000),
    default: 1_000,
    doc: "the oldest live state memory answers with; past it (stream frozen, down, or resyncing) requests read the RPC and `/readyz` says `degraded` (with `polling`: `LIVE_POLL_MS` + this)",
  }),
  LIVE_CONNECT_TIMEOUT_MS: setting({
    room: "live",
    parser: ms(100, 600_000),
    default: 5_000,
    doc: "a live stream (re)connect must finish within this, else it is dropped and retried with backoff",
  }),
} as const;
