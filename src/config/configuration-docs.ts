/**
 * docs/configuration.md's tables, generated from the schema (`npm run generate:config-docs`
 * rewrites the marked part of the file; test/config holds the file to this output).
 */
import { SETTINGS } from "./settings.js";
import type { Room, Setting } from "./setting-parsers.js";

export const GENERATED_BEGIN = "<!-- generated from src/config/settings*.ts by `npm run generate:config-docs`: edit the schema, not this table -->";
export const GENERATED_END = "<!-- end of the generated tables -->";

const ROOM_TITLES: Readonly<Record<Room, string>> = {
  server: "Listener and connection limits",
  edge: "Access control at the edge (see [operations.md](operations.md#access-control-api-keys-tls-rate-limits-cors))",
  chain: "Chain: RPC endpoints, the embedded chain, program quoting",
  live: "Live chain state (see [operations.md](operations.md#live-chain-state))",
  quote: "Quotes and swaps: markets, routes, swap building",
  store: "Store and background jobs",
  landing: "Landing (`Execute`)",
  trigger:
    "Take-profit, stop-loss, OCO and trailing orders (`/trigger/v2`, see [trigger.md](trigger.md#take-profit-stop-loss-oco-and-trailing-stops-without-custody-triggerv2))",
};

/** The default as the docs show it. */
function defaultText(s: Setting<unknown>): string {
  if (s.defaultDoc !== undefined) return s.defaultDoc;
  const d = s.default;
  if (d === undefined) return "unset";
  if (typeof d === "boolean") return s.parser.accepts === "0 or 1" ? `\`${d ? 1 : 0}\`` : `\`${d}\``;
  if (Array.isArray(d)) return d.length === 0 ? "empty" : d.map((x) => `\`${String(x)}\``).join(", ");
  if (typeof d === "string" || typeof d === "number" || typeof d === "bigint") return `\`${String(d)}\``;
  return `\`${JSON.stringify(d)}\``; // a structured default (none today) as JSON, not [object Object]
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

/** One table per room, in the schema's order: variable, default, accepted values, meaning. */
export function configurationTables(schema: Readonly<Record<string, Setting<unknown>>> = SETTINGS): string {
  const rooms = new Map<Room, string[]>();
  for (const [name, s] of Object.entries(schema)) {
    const rows = rooms.get(s.room) ?? [];
    rows.push(`| \`${name}\` | ${cell(defaultText(s))} | ${cell(s.parser.accepts)} | ${cell(s.doc)} |`);
    rooms.set(s.room, rows);
  }
  const sections = [...rooms].map(([room, rows]) =>
    [`### ${ROOM_TITLES[room]}`, "", "| variable | default | values | meaning |", "|---|---|---|---|", ...rows].join("\n"),
  );
  return [GENERATED_BEGIN, "", sections.join("\n\n"), "", GENERATED_END].join("\n");
}

/** `markdown` with its generated part replaced by the current tables (appended when it has none). */
export function withGeneratedTables(markdown: string): string {
  const begin = markdown.indexOf(GENERATED_BEGIN);
  const end = markdown.indexOf(GENERATED_END);
  if (begin < 0 || end < begin) return `${markdown.trimEnd()}\n\n${configurationTables()}\n`;
  return `${markdown.slice(0, begin)}${configurationTables()}${markdown.slice(end + GENERATED_END.length)}`;
}
