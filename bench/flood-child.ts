/**
 * Child-process entry of the flood bench's attackers (`tsx bench/flood-child.ts <port> <clients>`):
 * the rapid-reset clients run in their own process, so that their busy loop does not delay the
 * health probe's own event loop (the probe measures the service, not the attackers). Floods until
 * the parent sends `stop`, then sends its report and exits.
 */
import { rapidResetFlood } from "./floods.js";

if (!process.send) throw new Error("bench/flood-child.ts must be started with an IPC channel (child_process.fork)");
const [port, clients] = process.argv.slice(2).map(Number);
let stop = false;
process.on("message", (m: { type?: string }) => {
  if (m?.type === "stop") stop = true;
});
const report = await rapidResetFlood(port, clients, () => stop);
process.send({ type: "report", report }, () => process.exit(0));
