import type { IncomingMessage, ServerResponse } from "node:http";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Geyser } from "../gen/geyser_pb.js";
import { createSinglePortServer } from "../runtime/single-port.js";
import type { SinglePortServer } from "../runtime/single-port.js";
import { createGeyserService } from "./geyser-service.js";
import { dispatchBody } from "./json-rpc-dispatch.js";
import type { LocalChain } from "./local-chain.js";
import { createRpcMethods } from "./rpc-methods.js";
import type { RpcMethod } from "./rpc-methods.js";
import { SignatureSubscriptions } from "./signature-subscriptions.js";

const MAX_BODY_BYTES = 50 * 1024 * 1024;

/** What the server received: HTTP requests (round trips) and JSON-RPC calls by method. */
export interface LocalnetRpcStats {
  readonly httpRequests: number;
  readonly calls: Readonly<Record<string, number>>;
}

export interface LocalnetRpcServer {
  readonly port: number;
  /** The websocket port web3.js derives from the HTTP URL (port + 1); `undefined` if it was taken. */
  readonly websocketPort: number | undefined;
  stats(): LocalnetRpcStats;
  resetStats(): void;
  /** Drops every streaming connection (websocket) and refuses new ones while `down`: an outage for tests. */
  setStreamsDown(down: boolean): void;
  close(): Promise<void>;
}

async function listen(server: SinglePortServer, port: number, host: string): Promise<number> {
  return (await server.listen(port, host)).port;
}

async function closeServer(server: SinglePortServer): Promise<void> {
  server.stopAccepting();
  server.destroyAll();
  await server.drained();
}

/**
 * Serves the chain's JSON-RPC over HTTP/1.1 (POST, single or batch) on `host:port`, the PubSub
 * websocket on the same port (upgrade) and on port + 1, where an unmodified web3.js `Connection`
 * looks for it, and the Yellowstone gRPC Geyser service over HTTP/2 (h2c) on both ports. With
 * port 0, a free pair of adjacent ports is chosen.
 */
export async function startRpcServer(chain: LocalChain, port: number, host: string): Promise<LocalnetRpcServer> {
  const subscriptions = new SignatureSubscriptions(chain);
  const geyser = createGeyserService(chain);
  const geyserHandler = connectNodeAdapter({ routes: (router) => router.service(Geyser, geyser.impl) });
  const stats: { httpRequests: number; calls: Record<string, number> } = { httpRequests: 0, calls: {} };
  const handleJsonRpc = jsonRpcHandler(createRpcMethods(chain), stats);

  const makeServer = () => {
    const server = createSinglePortServer((req, res) => {
      // HTTP/2 is gRPC (Geyser); HTTP/1.1 is JSON-RPC.
      if (req.httpVersionMajor === 2) geyserHandler(req, res);
      else handleJsonRpc(req as IncomingMessage, res as ServerResponse);
    });
    server.h1.on("upgrade", (req, socket, head) => subscriptions.handleUpgrade(req, socket, head));
    return server;
  };
  const { main, alias, boundPort } = await listenOnAdjacentPorts(makeServer, port, host);

  return {
    port: boundPort,
    websocketPort: alias ? boundPort + 1 : undefined,
    stats: () => ({ httpRequests: stats.httpRequests, calls: { ...stats.calls } }),
    setStreamsDown: (down) => {
      subscriptions.setDown(down);
      geyser.setDown(down);
    },
    resetStats: () => {
      stats.httpRequests = 0;
      stats.calls = {};
    },
    close: async () => {
      subscriptions.close();
      geyser.setDown(true);
      await Promise.all([closeServer(main), alias ? closeServer(alias) : Promise.resolve()]);
    },
  };
}

/** JSON-RPC over HTTP/1.1: `GET /health`, and POST bodies (single or batch) up to `MAX_BODY_BYTES`. */
function jsonRpcHandler(
  methods: Record<string, RpcMethod>,
  stats: { httpRequests: number; calls: Record<string, number> },
): (req: IncomingMessage, res: ServerResponse) => void {
  const onCall = (method: string) => {
    stats.calls[method] = (stats.calls[method] ?? 0) + 1;
  };
  return (req, res) => {
    if (req.method === "GET" && req.url === "/health") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    stats.httpRequests += 1;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (res.headersSent) return;
      const answer = dispatchBody(methods, Buffer.concat(chunks).toString("utf8"), onCall);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
    req.on("error", () => res.destroy());
  };
}

/**
 * The main server on `port` and an alias on the next port (web3.js's websocket port). With port 0,
 * pairs are tried until both are free (20 attempts); an explicit port keeps the alias only if free.
 */
async function listenOnAdjacentPorts(
  makeServer: () => SinglePortServer,
  port: number,
  host: string,
): Promise<{ main: SinglePortServer; alias: SinglePortServer | undefined; boundPort: number }> {
  const main = makeServer();
  let boundPort = 0;
  for (let attempt = 0; ; attempt += 1) {
    boundPort = await listen(main, port, host);
    const candidate = makeServer();
    try {
      await listen(candidate, boundPort + 1, host);
      return { main, alias: candidate, boundPort };
    } catch {
      if (port !== 0 || attempt >= 20) break; // explicit port: websocket stays reachable on the main port
      await closeServer(main);
    }
  }
  return { main, alias: undefined, boundPort };
}
