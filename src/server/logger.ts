/**
 * Logs (pino): JSON, one object per line on stdout, or with `LOG_FORMAT=pretty` one human-readable line
 * per entry (pino-pretty) for a terminal. Never log secrets: see `redactUrl`.
 */
import { createRequire } from "node:module";
import { pino, type Logger } from "pino";
import type { LogFormat, LogLevel } from "../config.js";

export type { Logger };

const require = createRequire(import.meta.url);

export function createLogger(level: LogLevel = "info", destination?: pino.DestinationStream, format: LogFormat = "json"): Logger {
  return pino(
    {
      level,
      base: { service: "swapd" },
      timestamp: pino.stdTimeFunctions.isoTime,
      // pino-pretty names levels by their numbers; JSON lines carry the name.
      ...(format === "json" ? { formatters: { level: (label: string) => ({ level: label }) } } : {}),
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
    format === "pretty" ? prettyStream(destination) : destination,
  );
}

/**
 * Each entry formatted by pino-pretty as pino writes it, in this thread and at once: pino-pretty's own
 * stream formats on later ticks, and loses the last lines (shutdown's) when the process exits. Loaded
 * only for `pretty`.
 */
function prettyStream(destination: pino.DestinationStream | undefined): pino.DestinationStream {
  const { prettyFactory } = require("pino-pretty") as typeof import("pino-pretty");
  const out = destination ?? process.stdout;
  const prettify = prettyFactory({
    // Colours only where a terminal shows them.
    colorize: "isTTY" in out && out.isTTY === true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,service",
    singleLine: true,
  });
  return { write: (line: string) => out.write(prettify(line)) };
}
