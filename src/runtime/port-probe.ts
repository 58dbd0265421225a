/**
 * Whether the listen address is free, asked before anything else starts: the embedded chain and
 * database take seconds to open, and a port in use should say so at once, naming the setting.
 * (Another process may still take the port in between; the listen itself then fails as before.)
 */
import { createServer } from "node:net";

export class PortInUseError extends Error {
  override readonly name = "PortInUseError";
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`PORT: ${host}:${port} is already in use (another swapd, or another program); stop it, or set PORT to a free port (PORT=0: any free port)`);
  }
}

/** Resolves when `host:port` can be listened on (port 0 always can); rejects with PortInUseError when it is taken. */
export function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      // Anything but "in use" (e.g. an address this machine does not have) is left to the real listen, which says it.
      if (error.code === "EADDRINUSE") reject(new PortInUseError(host, port));
      else resolve();
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}
