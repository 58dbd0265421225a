import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { PublicKey } from "@solana/web3.js";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";
import { messageText } from "../chain/websocket-message-text.js";
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
    const client: Client = {
      disposers: new Map(),
      send: (message) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      },
    };
    socket.on("message", (raw) => this.answer(client, messageText(raw)));
    socket.on("close", () => {
      for (const dispose of client.disposers.values()) dispose();
      client.disposers.clear();
    });
    socket.on("error", () => socket.terminate());
  }

  /** One frame: a subscribe or unsubscribe request, answered on the same socket. */
  private answer(client: Client, raw: string): void {
    const req = requestOf(client, raw);
    if (req === undefined || req.id === undefined) return; // undefined id: notifications such as web3.js's "ping"
    const param = req.params?.[0];
    if (req.method === "signatureSubscribe" && typeof param === "string") return this.subscribeSignature(client, req.id, param);
    if (req.method === "accountSubscribe" && typeof param === "string") {
      return this.subscribeAccount(client, req.id, param, req.params?.[1] ?? {});
    }
    if (req.method === "programSubscribe" && typeof param === "string") return this.subscribeProgram(client, req.id, param, req.params?.[1]);
    if (req.method === "slotSubscribe") return this.subscribeSlot(client, req.id);
    if (typeof req.method === "string" && req.method.endsWith("Unsubscribe")) {
      const id = Number(param);
      client.disposers.get(id)?.();
      client.disposers.delete(id);
      client.send({ jsonrpc: "2.0", id: req.id, result: true });
      return;
    }
    client.send({ jsonrpc: "2.0", id: req.id, error: new JsonRpcError(RpcErrorCode.methodNotFound, "Method not found").toJSON() });
  }

  private subscribeSignature(client: Client, id: unknown, signature: string): void {
    const subscription = this.nextId++;
    client.send({ jsonrpc: "2.0", id, result: subscription });
    const notify = (err: unknown, slot: number) => {
      client.disposers.get(subscription)?.();
      client.disposers.delete(subscription);
      client.send({
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
    client.disposers.set(
      subscription,
      this.chain.onTransaction((record) => {
        if (record.signature === signature) notify(record.err, record.slot);
      }),
    );
  }

  private subscribeAccount(client: Client, id: unknown, address: string, config: { encoding?: string }): void {
    let key: PublicKey;
    try {
      key = publicKeyFromBase58(address);
    } catch {
      // The client's bad key, answered as the Solana RPC answers it.
      client.send({ jsonrpc: "2.0", id, error: new JsonRpcError(RpcErrorCode.invalidParams, "Invalid Request: Invalid pubkey provided").toJSON() });
      return;
    }
    const subscription = this.nextId++;
    client.send({ jsonrpc: "2.0", id, result: subscription });
    client.disposers.set(
      subscription,
      this.chain.onAccountsWritten((keys, slot) => {
        if (!keys.some((k) => k.equals(key))) return;
        const value = this.accountValue(key, config.encoding ?? "base64");
        if (value === undefined) return;
        client.send({ jsonrpc: "2.0", method: "accountNotification", params: { result: { context: { slot }, value }, subscription } });
      }),
    );
  }

  /** The account as a notification carries it; a closed one as a validator sends it. */
  private accountValue(key: PublicKey, encoding: string): unknown {
    const account = this.chain.getAccount(key);
    try {
      return account
        ? encodeAccount(account, { encoding })
        : encodeAccount({ address: key, lamports: 0n, data: new Uint8Array(0), owner: SYSTEM_PROGRAM, executable: false }, { encoding: "base64" });
    } catch {
      return undefined; // base58 over the limit: a validator sends nothing either
    }
  }

  private subscribeProgram(client: Client, id: unknown, programText: string, options: unknown): void {
    let program: PublicKey;
    let filters: ReturnType<typeof parseProgramAccountFilters>;
    try {
      program = publicKeyFromBase58(programText);
      filters = parseProgramAccountFilters((options as { filters?: unknown } | undefined)?.filters);
    } catch (error) {
      // The client's bad key or filters, answered as the Solana RPC answers them.
      const message = error instanceof JsonRpcError ? error.message : "Invalid Request: Invalid pubkey provided";
      client.send({ jsonrpc: "2.0", id, error: new JsonRpcError(RpcErrorCode.invalidParams, message).toJSON() });
      return;
    }
    const encoding = (options as { encoding?: string } | undefined)?.encoding ?? "base64";
    const subscription = this.nextId++;
    /** Accounts notified so far: their closing is notified too. */
    const seen = new Set<string>();
    client.send({ jsonrpc: "2.0", id, result: subscription });
    client.disposers.set(
      subscription,
      this.chain.onAccountsWritten((keys, slot) => {
        for (const key of keys) {
          const value = this.programAccountValue(key, program, filters, encoding, seen);
          if (value === undefined) continue;
          const result = { context: { slot }, value: { pubkey: key.toBase58(), account: value } };
          client.send({ jsonrpc: "2.0", method: "programNotification", params: { result, subscription } });
        }
      }),
    );
  }

  /** A written account as a program subscription notifies it: matching, closed after a match, or nothing. */
  private programAccountValue(
    key: PublicKey,
    program: PublicKey,
    filters: ReturnType<typeof parseProgramAccountFilters>,
    encoding: string,
    seen: Set<string>,
  ): unknown {
    const address = key.toBase58();
    const account = this.chain.getAccount(key);
    if (account && account.owner.equals(program) && matchesFilters(account, filters)) {
      seen.add(address);
      try {
        return encodeAccount(account, { encoding });
      } catch {
        return undefined; // base58 over the limit: a validator sends nothing either
      }
    }
    if (!seen.delete(address)) return undefined;
    return encodeAccount({ address: key, lamports: 0n, data: new Uint8Array(0), owner: program, executable: false }, { encoding: "base64" });
  }

  private subscribeSlot(client: Client, id: unknown): void {
    const subscription = this.nextId++;
    client.send({ jsonrpc: "2.0", id, result: subscription });
    client.disposers.set(
      subscription,
      this.chain.onTransaction(() => {
        const slot = this.chain.slot;
        client.send({ jsonrpc: "2.0", method: "slotNotification", params: { result: { slot, parent: slot - 1, root: slot - 1 }, subscription } });
      }),
    );
  }
}

/** One websocket connection: how to answer it, and how to end each of its subscriptions. */
interface Client {
  readonly send: (message: unknown) => void;
  readonly disposers: Map<number, () => void>;
}

interface SubscriptionRequest {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown[];
}

/** The frame as a request object, or undefined after answering the JSON-RPC error it deserves. */
function requestOf(client: Client, raw: string): SubscriptionRequest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // JSON-RPC's answer to a frame that is not JSON; the parser's detail is not part of it.
    client.send({ jsonrpc: "2.0", id: null, error: new JsonRpcError(RpcErrorCode.parseError, "Parse error").toJSON() });
    return undefined;
  }
  // Thrown later, a TypeError would be uncaught and take the whole process down.
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    client.send({ jsonrpc: "2.0", id: null, error: new JsonRpcError(RpcErrorCode.invalidRequest, "Invalid request").toJSON() });
    return undefined;
  }
  return parsed;
}
