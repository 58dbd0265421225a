/**
 * Every variable swapd reads, declared once: its parser (type and range), default, room and doc
 * line. `loadConfig` reads exactly these; docs/configuration.md's tables are generated from them
 * (`npm run generate:config-docs`).
 */
import { CHAIN_SETTINGS, LIVE_SETTINGS } from "./settings-chain.js";
import { EDGE_SETTINGS } from "./settings-edge.js";
import { QUOTE_SETTINGS } from "./settings-quote.js";
import { SERVER_SETTINGS } from "./settings-server.js";
import { LANDING_SETTINGS, STORE_SETTINGS } from "./settings-store.js";
import { TRIGGER_SETTINGS } from "./settings-trigger.js";

export const SETTINGS = {
  ...SERVER_SETTINGS,
  ...EDGE_SETTINGS,
  ...CHAIN_SETTINGS,
  ...LIVE_SETTINGS,
  ...QUOTE_SETTINGS,
  ...STORE_SETTINGS,
  ...LANDING_SETTINGS,
  ...TRIGGER_SETTINGS,
} as const;

export type Settings = typeof SETTINGS;
