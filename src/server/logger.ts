/** Structured JSON logs (pino), one object per line on stdout. Never log secrets: see `redactUrl`. */
import { pino, type Logger } from "pino";
import type { LogLevel } from "../config.js";

export type { Logger };

export function createLogger(level: LogLevel = "info", destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "swapd" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Belt and braces: these never reach the logs even if someone logs a config or headers.
      redact: {
        paths: [
          "solanaRpcUrl",
          "databaseUrl",
          "config.solanaRpcUrl",
          "config.databaseUrl",
          "headers.authorization",
          "headers.cookie",
          'headers["x-api-key"]',
          "*.password",
        ],
        censor: "***",
      },
    },
    destination,
  );
}
