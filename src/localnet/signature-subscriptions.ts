import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";
import { JsonRpcError, RpcErrorCode } from "./json-rpc-error.js";
import type { LocalChain } from "./local-chain.js";

/**
 * The part of the validator's PubSub websocket that web3.js needs to confirm transactions
 * (`confirmTransaction`, `sendAndConfirmTransaction`): `signatureSubscribe`/`signatureUnsubscribe`.
 * Transactions execute synchronously here, so a subscription to a landed signature is notified at once.
 */
export class SignatureSubscriptions {
  private readonly wss = new WebSocketServer({ noServer: true });
  private nextId = 1;

  constructor(private readonly chain: LocalChain) {
    this.wss.on("connection", (socket) => this.serve(socket));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private serve(socket: WebSocket): void {
    const disposers = new Map<number, () => void>();
    const send = (message: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.on("message", (raw) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(raw));
      } catch {
        send({ jsonrpc: "2.0", id: null, error: new JsonRpcError(RpcErrorCode.parseError, "Parse error").toJSON() });
        return;
      }
      // Thrown from here, a TypeError would be uncaught and take the whole process down.
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        send({ jsonrpc: "2.0", id: null, error: new JsonRpcError(RpcErrorCode.invalidRequest, "Invalid request").toJSON() });
        return;
      }
      const req = parsed as { id?: unknown; method?: unknown; params?: unknown[] };
      if (req.id === undefined) return; // notifications such as web3.js's "ping"
      if (req.method === "signatureSubscribe" && typeof req.params?.[0] === "string") {
        const signature = req.params[0];
        const subscription = this.nextId++;
        send({ jsonrpc: "2.0", id: req.id, result: subscription });
        const notify = (err: unknown, slot: number) => {
          disposers.get(subscription)?.();
          disposers.delete(subscription);
          send({
            jsonrpc: "2.0",
            method: "signatureNotification",
            params: { result: { context: { slot }, value: { err } }, subscription },
          });
        };
        const landed = this.chain.getRecord(signature);
        if (landed) {
          notify(landed.err, landed.slot);
          return;
        }
        disposers.set(
          subscription,
          this.chain.onTransaction((record) => {
            if (record.signature === signature) notify(record.err, record.slot);
          }),
        );
        return;
      }
      if (typeof req.method === "string" && req.method.endsWith("Unsubscribe")) {
        const id = Number(req.params?.[0]);
        disposers.get(id)?.();
        disposers.delete(id);
        send({ jsonrpc: "2.0", id: req.id, result: true });
        return;
      }
      send({ jsonrpc: "2.0", id: req.id, error: new JsonRpcError(RpcErrorCode.methodNotFound, "Method not found").toJSON() });
    });
    socket.on("close", () => {
      for (const dispose of disposers.values()) dispose();
      disposers.clear();
    });
    socket.on("error", () => socket.terminate());
  }
}
