/** The container's HEALTHCHECK (Dockerfile): exits with the health probe's result (src/server/health-probe.ts). */
import { probeHealth } from "./server/health-probe.js";

process.exit(await probeHealth(process.env, (line) => process.stderr.write(`${line}\n`)));
