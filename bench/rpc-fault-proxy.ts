/**
 * A loopback HTTP proxy in front of the chain's JSON-RPC port for the soak's fault schedule: it
 * forwards every request untouched, or, while `failing`, answers each with HTTP 500 (what a hosted
 * RPC's load balancer sends when its backends are down) without forwarding it. Counts both.
 */
import { Agent, createServer, request } from "node:http";

export interface RpcFaultProxy {
  /** `http://127.0.0.1:<port>`: use as SOLANA_RPC_URL. */
  readonly url: string;
  failing: boolean;
  readonly forwarded: number;
  readonly failed: number;
  close(): Promise<void>;
}

export async function startRpcFaultProxy(target: string): Promise<RpcFaultProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const state = { failing: false, forwarded: 0, failed: 0 };
  const server = createServer((req, res) => {
    if (state.failing) {
      state.failed++;
      req.resume();
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal Server Error");
      return;
    }
    state.forwarded++;
    const forward = request(
      { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get failing() {
      return state.failing;
    },
    set failing(on: boolean) {
      state.failing = on;
    },
    get forwarded() {
      return state.forwarded;
    },
    get failed() {
      return state.failed;
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
