/**
 * Every variable swapd reads, declared once: its parser (type and range), default, room and doc
 * line. `loadConfig` reads exactly these; docs/configuration.md's tables are generated from them
 * (`npm run generate:config-docs`).
 */
import { CHAIN_SETTINGS, LIVE_SETTINGS } from "./chain-settings.js";
import { EDGE_SETTINGS } from "./edge-settings-schema.js";
import { QUOTE_SETTINGS } from "./quote-settings.js";
import { SERVER_SETTINGS } from "./server-settings.js";
import { LANDING_SETTINGS, STORE_SETTINGS } from "./store-settings.js";

export const SETTINGS = {
  ...SERVER_SETTINGS,
  ...EDGE_SETTINGS,
  ...CHAIN_SETTINGS,
  ...LIVE_SETTINGS,
  ...QUOTE_SETTINGS,
  ...STORE_SETTINGS,
  ...LANDING_SETTINGS,
} as const;

export type Settings = typeof SETTINGS;
