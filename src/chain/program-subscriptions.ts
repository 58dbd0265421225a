/**
 * New and closed pools as they happen: one `programSubscribe` per AMM program over the Solana
 * PubSub websocket (base64, `confirmed`, the pool account's size as a filter), so the market index
 * learns of pools without polling. Reconnects with backoff and subscribes again; pools created
 * while disconnected are found by discovery's refresh. A ping every few seconds detects a dead
 * connection that never closed.
 */
import WebSocket from "ws";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { accountFromJson } from "./account-json.js";

const PING_INTERVAL_MS = 5_000;
const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 5_000;

export interface ProgramFilter {
  readonly programId: PublicKey;
  /** Size of the program's pool accounts. */
  readonly dataSize: number;
}

export interface ProgramSubscriptionEvents {
  /** An account of a subscribed program was written (`account`), or closed (`null`). */
  account(address: string, account: AccountData | null): void;
  /** Subscriptions are (re)established on a new connection. */
  connected?(): void;
  /** The connection dropped or failed; it is retried with backoff. */
  disconnected?(reason: string): void;
}

export class ProgramSubscriptions {
  private socket: WebSocket | undefined;
  private closed = false;
  private attempt = 0;
  private nextId = 1;
  /** Request id → the program it subscribes; subscription id → nothing more needed (the value names the account). */
  private readonly requests = new Map<number, string>();
  private readonly subscriptions = new Set<number>();
  private pingTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly programs: readonly ProgramFilter[],
    private readonly events: ProgramSubscriptionEvents,
  ) {}

  start(): void {
    this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.socket?.terminate();
  }

  private connect(): void {
    if (this.closed) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    let alive = true;
    let confirmed = 0;
    socket.on("open", () => {
      this.attempt = 0;
      this.pingTimer = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_INTERVAL_MS);
      this.pingTimer.unref();
      for (const program of this.programs) {
        const id = this.nextId++;
        this.requests.set(id, base58Of(program.programId));
        const config = { encoding: "base64", commitment: "confirmed", filters: [{ dataSize: program.dataSize }] };
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, method: "programSubscribe", params: [base58Of(program.programId), config] }));
      }
    });
    socket.on("pong", () => {
      alive = true;
    });
    socket.on("message", (raw) => {
      alive = true;
      const message = parse(String(raw));
      if (!message) return;
      if (typeof message.id === "number" && this.requests.has(message.id)) {
        this.requests.delete(message.id);
        if (typeof message.result === "number") {
          this.subscriptions.add(message.result);
          confirmed += 1;
          if (confirmed === this.programs.length) this.events.connected?.();
        } else this.events.disconnected?.(`programSubscribe refused: ${message.error?.message ?? "no subscription id"}`);
        return;
      }
      const params = message.params;
      if (message.method !== "programNotification" || params?.subscription === undefined || !this.subscriptions.has(params.subscription)) return;
      const value = params.result?.value as { pubkey?: unknown; account?: unknown } | undefined;
      if (typeof value?.pubkey !== "string") return;
      let account;
      try {
        account = accountFromJson(publicKeyFromBase58(value.pubkey), value.account ?? null);
      } catch {
        return; // a malformed notification is dropped: discovery's refresh brings the pool
      }
      this.events.account(value.pubkey, account && account.lamports > 0n ? account : null);
    });
    socket.on("error", () => {
      // "close" follows and handles the reconnect.
    });
    socket.on("close", () => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      this.subscriptions.clear();
      this.requests.clear();
      this.events.disconnected?.("websocket closed");
      if (this.closed) return;
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
      this.attempt += 1;
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
      this.reconnectTimer.unref();
    });
  }
}

interface Message {
  id?: number;
  result?: unknown;
  error?: { message?: string };
  method?: string;
  params?: { subscription?: number; result?: { value?: unknown } };
}

function parse(text: string): Message | undefined {
  try {
    const message = JSON.parse(text) as unknown;
    return message !== null && typeof message === "object" ? (message as Message) : undefined;
  } catch {
    return undefined; // not JSON: nothing a node would send; ignored
  }
}
