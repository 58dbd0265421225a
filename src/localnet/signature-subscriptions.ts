import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { PublicKey } from "@solana/web3.js";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { encodeAccount } from "./account-encoding.js";
import { JsonRpcError, RpcErrorCode } from "./json-rpc-error.js";
import { matchesFilters, parseProgramAccountFilters } from "./program-account-filter.js";
import type { LocalChain } from "./local-chain.js";

/**
 * The validator's PubSub websocket, the parts clients use: `signatureSubscribe` (what web3.js
 * needs to confirm transactions; transactions execute synchronously here, so a subscription to a
 * landed signature is notified at once), `accountSubscribe` (base64 / base58 data, notified when
 * a landed transaction or `setAccount` writes the account; a closed account comes as 0 lamports,
 * no data, owned by the System program, as a validator sends it), `programSubscribe` (accounts
 * of a program matching `dataSize` / `memcmp` filters, notified when written; an account it
 * notified before that is closed comes once with 0 lamports and no data), `slotSubscribe` (one
 * notification per new slot), and `*Unsubscribe`.
 */
const SYSTEM_PROGRAM = new PublicKey("11111111111111111111111111111111");

export class SignatureSubscriptions {
  private readonly wss = new WebSocketServer({ noServer: true });
  private nextId = 1;
  private refusing = false;

  constructor(private readonly chain: LocalChain) {
    this.wss.on("connection", (socket) => this.serve(socket));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.refusing) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
  }

  /** Drops every websocket connection and refuses new ones while `down` (a websocket outage, for tests). */
  setDown(down: boolean): void {
    this.refusing = down;
    if (down) for (const client of this.wss.clients) client.terminate();
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
      if (req.method === "accountSubscribe" && typeof req.params?.[0] === "string") {
        let key;
        try {
          key = publicKeyFromBase58(req.params[0]);
        } catch {
          send({ jsonrpc: "2.0", id: req.id, error: new JsonRpcError(RpcErrorCode.invalidParams, "Invalid Request: Invalid pubkey provided").toJSON() });
          return;
        }
        const config = (req.params[1] ?? {}) as { encoding?: string };
        const address = key.toBase58();
        const subscription = this.nextId++;
        send({ jsonrpc: "2.0", id: req.id, result: subscription });
        disposers.set(
          subscription,
          this.chain.onAccountsWritten((keys, slot) => {
            if (!keys.some((k) => k.toBase58() === address)) return;
            const account = this.chain.getAccount(key);
            let value;
            try {
              value = account
                ? encodeAccount(account, { encoding: config.encoding ?? "base64" })
                : encodeAccount({ address: key, lamports: 0n, data: new Uint8Array(0), owner: SYSTEM_PROGRAM, executable: false }, { encoding: "base64" });
            } catch {
              return; // base58 over the limit: a validator sends nothing either
            }
            send({ jsonrpc: "2.0", method: "accountNotification", params: { result: { context: { slot }, value }, subscription } });
          }),
        );
        return;
      }
      if (req.method === "programSubscribe" && typeof req.params?.[0] === "string") {
        let program;
        let filters;
        try {
          program = publicKeyFromBase58(req.params[0]);
          filters = parseProgramAccountFilters((req.params[1] as { filters?: unknown } | undefined)?.filters);
        } catch (error) {
          const message = error instanceof JsonRpcError ? error.message : "Invalid Request: Invalid pubkey provided";
          send({ jsonrpc: "2.0", id: req.id, error: new JsonRpcError(RpcErrorCode.invalidParams, message).toJSON() });
          return;
        }
        const config = (req.params[1] ?? {}) as { encoding?: string };
        const subscription = this.nextId++;
        /** Accounts notified so far: their closing is notified too. */
        const seen = new Set<string>();
        send({ jsonrpc: "2.0", id: req.id, result: subscription });
        disposers.set(
          subscription,
          this.chain.onAccountsWritten((keys, slot) => {
            for (const key of keys) {
              const address = key.toBase58();
              const account = this.chain.getAccount(key);
              let value;
              if (account && account.owner.equals(program) && matchesFilters(account, filters)) {
                seen.add(address);
                try {
                  value = encodeAccount(account, { encoding: config.encoding ?? "base64" });
                } catch {
                  continue; // base58 over the limit: a validator sends nothing either
                }
              } else if (seen.delete(address)) {
                value = encodeAccount({ address: key, lamports: 0n, data: new Uint8Array(0), owner: program, executable: false }, { encoding: "base64" });
              } else continue;
              send({ jsonrpc: "2.0", method: "programNotification", params: { result: { context: { slot }, value: { pubkey: address, account: value } }, subscription } });
            }
          }),
        );
        return;
      }
      if (req.method === "slotSubscribe") {
        const subscription = this.nextId++;
        send({ jsonrpc: "2.0", id: req.id, result: subscription });
        disposers.set(
          subscription,
          this.chain.onTransaction(() => {
            const slot = this.chain.slot;
            send({ jsonrpc: "2.0", method: "slotNotification", params: { result: { slot, parent: slot - 1, root: slot - 1 }, subscription } });
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
