/**
 * A real TCP proxy in front of a server (PostgreSQL, the chain's websocket or Geyser port in the fault
 * tests and the soak), whose link the test breaks:
 * - `cut()`: every open connection is reset and new ones are reset on arrival (the server "gone");
 * - `blackhole()`: connections stay open but nothing passes either way (a silent network);
 * - `stallAfterReply()`: existing connections pass; each new one gets the server's first reply
 *   (e.g. a websocket's 101 Switching Protocols) and then nothing passes either way;
 * - `jitter(maxMs)`: the server's replies reach each client connection late by a random 0..maxMs
 *   per chunk (in order on a connection, out of order across connections), as on a busy network;
 * - `restore()`: new connections pass again; connections broken before stay broken (a blackholed one
 *   keeps swallowing bytes until its owner gives up on it), as after a real network fault.
 */
import net from "node:net";

export type ProxyMode = "pass" | "cut" | "blackhole" | "stall-after-reply";

export interface TcpProxy {
  readonly port: number;
  readonly mode: ProxyMode;
  /** Client connections accepted so far. */
  readonly accepted: number;
  cut(): void;
  blackhole(): void;
  stallAfterReply(): void;
  jitter(maxMs: number): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = "pass";
  let accepted = 0;
  let jitterMs = 0;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; dead: boolean }>();
  const server = net.createServer((client) => {
    accepted++;
    client.on("error", () => undefined);
    if (mode === "cut") {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    const pair = { client, upstream, dead: mode === "blackhole" };
    const stallAfterReply = mode === "stall-after-reply";
    pairs.add(pair);
    let replies = Promise.resolve();
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on("data", (chunk: Buffer) => {
        // A blackholed link swallows bytes; a cut one is gone already.
        const write = () => {
          if (!pair.dead && !to.destroyed) to.write(chunk);
        };
        if (from === upstream && jitterMs > 0) {
          const delay = Math.random() * jitterMs;
          replies = replies.then(() => new Promise<void>((r) => setTimeout(r, delay))).then(write);
        } else write();
        if (stallAfterReply && from === upstream) pair.dead = true;
      });
      from.on("close", () => {
        pairs.delete(pair);
        if (!pair.dead) to.destroy();
      });
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    cut() {
      mode = "cut";
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    blackhole() {
      mode = "blackhole";
      for (const pair of pairs) pair.dead = true;
    },
    stallAfterReply() {
      mode = "stall-after-reply";
    },
    jitter(maxMs) {
      jitterMs = maxMs;
    },
    restore() {
      mode = "pass";
      jitterMs = 0;
    },
    close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
