/**
 * A loopback HTTP proxy in front of the bench chain that makes it look remote: every HTTP request
 * (a JSON-RPC call or batch) is held for a fixed delay before it is forwarded, so each round trip
 * the service makes costs what it costs against a hosted RPC (~50 ms). Websocket upgrades (the
 * PubSub stream) are delayed once, when they connect, and then piped untouched: a notification
 * arriving later does not slow a request down, a request waiting for a read does. `observe` sees
 * each HTTP request's body as it arrives (the trigger bench timestamps sends with it).
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";

export interface RpcDelayProxy {
  /** `http://127.0.0.1:<port>`: use as SOLANA_RPC_URL. */
  readonly url: string;
  /** `ws://127.0.0.1:<port>`: use as SOLANA_WS_URL. */
  readonly websocketUrl: string;
  readonly delayMs: number;
  /** HTTP requests forwarded so far. */
  readonly forwarded: number;
  close(): Promise<void>;
}

const wait = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** `httpTarget` / `websocketTarget`: the chain's JSON-RPC and PubSub URLs (loopback). */
export async function startRpcDelayProxy(
  httpTarget: string,
  websocketTarget: string,
  delayMs: number,
  observe?: (body: Buffer) => void,
): Promise<RpcDelayProxy> {
  const http = new URL(httpTarget);
  const ws = new URL(websocketTarget);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Duplex>();
  let forwarded = 0;

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    observe?.(body);
    await wait(delayMs);
    forwarded++;
    const upstream = request(
      { agent, host: http.hostname, port: http.port, method: req.method, path: req.url, headers: { ...req.headers, host: http.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`rpc delay proxy: ${e.message}`);
    });
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 60_000;
  server.on("upgrade", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => undefined);
    void wait(delayMs).then(() => {
      if (client.destroyed) return;
      const upstream = net.connect(Number(ws.port), ws.hostname, () => {
        // Replay the upgrade request as received, then pipe both ways.
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on("close", () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    websocketUrl: `ws://127.0.0.1:${port}`,
    delayMs,
    get forwarded() {
      return forwarded;
    },
    close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
