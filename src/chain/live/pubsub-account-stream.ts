/**
 * Live account updates over the Solana PubSub websocket: `accountSubscribe` (commitment
 * `confirmed`, base64) per address and one `slotSubscribe`. Reconnects with backoff; on each
 * connect every current address is subscribed again before `connected` is reported. Every connect
 * (the upgrade and then every subscription answered) must finish within `connectTimeoutMs`, or it is
 * dropped and retried. Liveness (stream-liveness.ts): the slot subscription's notifications, any
 * other message, or the pong of a ping sent when the socket is quiet keep `freshAsOf` recent; a
 * socket that stays open but forwards nothing is noticed within `maxSilenceMs`.
 */
import WebSocket from "ws";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import { accountFromJson } from "../account-json.js";
import { messageText } from "../websocket-message-text.js";
import type { AccountStream, AccountStreamEvents } from "./account-stream.js";
import { liveStreamTimeoutsTotal } from "./live-metrics.js";
import { StreamLiveness } from "./stream-liveness.js";

const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 5_000;
export const DEFAULT_LIVE_CONNECT_TIMEOUT_MS = 5_000;
/** Silence (ms) after which a stream that answers no probe is dropped and reconnected: a few times the staleness bound, so a short stall degrades answers without costing a full resync. */
export function reconnectAfterSilenceMs(maxSilenceMs: number): number {
  return Math.max(1_000, 3 * maxSilenceMs);
}

export interface PushedStreamOptions {
  /** The staleness bound: the stream must prove itself live within this, ms. */
  readonly maxSilenceMs: number;
  /** A (re)connect, handshake and subscriptions, must finish within this, ms. */
  readonly connectTimeoutMs?: number;
}

/** The websocket URL web3.js derives from an RPC URL: ws(s) scheme, and port + 1 when a port is given. */
export function websocketUrlFor(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (url.port !== "") url.port = String(Number(url.port) + 1);
  return url.toString();
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

export class PubsubAccountStream implements AccountStream {
  readonly kind = "websocket";
  readonly coversPastUpdates = false;
  private events: AccountStreamEvents | undefined;
  private socket: WebSocket | undefined;
  private open = false;
  private closed = false;
  private attempt = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Addresses wanted, and their subscription ids on the current connection. */
  private readonly wanted = new Set<string>();
  private readonly subscriptionOf = new Map<string, number>();
  private readonly addressOf = new Map<number, string>();
  private slotSubscription: number | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private connectTimer: NodeJS.Timeout | undefined;
  private readonly liveness: StreamLiveness;
  readonly maxSilenceMs: number;
  private readonly connectTimeoutMs: number;

  constructor(
    private readonly url: string,
    options: PushedStreamOptions,
  ) {
    this.maxSilenceMs = options.maxSilenceMs;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_LIVE_CONNECT_TIMEOUT_MS;
    this.liveness = new StreamLiveness({
      maxSilenceMs: options.maxSilenceMs,
      reconnectAfterMs: reconnectAfterSilenceMs(options.maxSilenceMs),
      probe: () => {
        try {
          this.socket?.ping();
        } catch {
          // Not open (any more): the close handler reconnects; the silence rule needs no answer.
        }
      },
      frozen: () => {
        liveStreamTimeoutsTotal.inc({ source: this.kind, phase: "silence" });
        this.socket?.terminate();
      },
    });
  }

  get freshAsOf(): number | undefined {
    return this.liveness.freshAsOf;
  }

  start(events: AccountStreamEvents): void {
    this.events = events;
    this.connect();
  }

  async subscribe(addresses: readonly string[]): Promise<void> {
    const fresh = addresses.filter((a) => !this.wanted.has(a));
    for (const a of fresh) this.wanted.add(a);
    if (!this.open) throw new Error("websocket not connected");
    await Promise.all(fresh.map((a) => this.subscribeOne(a)));
  }

  unsubscribe(addresses: readonly string[]): void {
    for (const address of addresses) {
      this.wanted.delete(address);
      const id = this.subscriptionOf.get(address);
      if (id === undefined) continue;
      this.subscriptionOf.delete(address);
      this.addressOf.delete(id);
      // The address is forgotten either way: an update for a subscription the node failed to drop
      // finds no address and is ignored, and a socket that closed took every subscription with it.
      if (this.open) this.request("accountUnsubscribe", [id]).catch(() => {});
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.connectTimer);
    this.liveness.stop();
    this.socket?.terminate();
  }

  private connect(): void {
    if (this.closed) return;
    // `handshakeTimeout` bounds the upgrade; the timer below bounds upgrade + subscriptions.
    const socket = new WebSocket(this.url, { handshakeTimeout: this.connectTimeoutMs });
    this.socket = socket;
    clearTimeout(this.connectTimer);
    this.connectTimer = setTimeout(() => {
      if (this.socket !== socket) return;
      liveStreamTimeoutsTotal.inc({ source: this.kind, phase: "connect" });
      socket.terminate();
    }, this.connectTimeoutMs);
    this.connectTimer.unref();
    socket.on("open", () => {
      this.open = true;
      this.liveness.start();
      void this.subscribeAll(socket);
    });
    socket.on("pong", () => this.liveness.answered());
    socket.on("message", (raw) => {
      this.liveness.heard();
      this.receive(messageText(raw));
    });
    socket.on("error", () => {
      // "close" follows and handles the reconnect.
    });
    socket.on("close", () => this.closedSocket(socket));
  }

  private closedSocket(socket: WebSocket): void {
    if (this.socket !== socket) return;
    const wasOpen = this.open;
    this.open = false;
    clearTimeout(this.connectTimer);
    this.liveness.stop();
    this.subscriptionOf.clear();
    this.addressOf.clear();
    this.slotSubscription = undefined;
    for (const p of this.pending.values()) p.reject(new Error("websocket closed"));
    this.pending.clear();
    this.events?.disconnected(wasOpen ? "websocket closed" : "websocket connect failed");
    if (this.closed) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private async subscribeAll(socket: WebSocket): Promise<void> {
    try {
      const slot = this.request("slotSubscribe", []).then((id) => {
        this.slotSubscription = Number(id);
      });
      await Promise.all([slot, ...[...this.wanted].map((a) => this.subscribeOne(a))]);
      if (this.socket === socket && this.open) {
        clearTimeout(this.connectTimer);
        // Counted as a good connect only now: a path that accepts the upgrade and then answers
        // nothing keeps backing off.
        this.attempt = 0;
        this.events?.connected();
      }
    } catch {
      // The connection dropped while subscribing: the reconnect starts over.
    }
  }

  private async subscribeOne(address: string): Promise<void> {
    if (this.subscriptionOf.has(address)) return;
    const id = Number(await this.request("accountSubscribe", [address, { encoding: "base64", commitment: "confirmed" }]));
    if (!this.wanted.has(address) || this.subscriptionOf.has(address)) {
      // Unsubscribed while the subscription was on its way, or subscribed again meanwhile (the
      // cache dropped and re-read it) and the other subscription landed first: one per address.
      // Best effort, as in `unsubscribe`: a stray subscription's updates name no wanted address.
      this.request("accountUnsubscribe", [id]).catch(() => {});
      return;
    }
    this.subscriptionOf.set(address, id);
    this.addressOf.set(id, address);
  }

  private request(method: string, params: unknown[]): Promise<unknown> {
    const socket = this.socket;
    if (!socket || !this.open) return Promise.reject(new Error("websocket not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  private receive(text: string): void {
    let message: {
      id?: number;
      result?: unknown;
      error?: { message?: string };
      method?: string;
      params?: { subscription?: number; result?: { context?: { slot?: number }; value?: unknown; slot?: number } };
    };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      // Not JSON: nothing in it can be matched to a request or a subscription; a request that
      // never gets its answer times out on its own.
      return;
    }
    if (typeof message.id === "number") {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) pending?.reject(new Error(message.error.message ?? "subscription refused"));
      else pending?.resolve(message.result);
      return;
    }
    const params = message.params;
    if (message.method === "accountNotification" && params?.subscription !== undefined) {
      const address = this.addressOf.get(params.subscription);
      const slot = params.result?.context?.slot;
      if (address === undefined || typeof slot !== "number") return;
      let account;
      try {
        account = accountFromJson(publicKeyFromBase58(address), params.result?.value ?? null);
      } catch {
        return; // a malformed notification is dropped; the next one (or a resync) brings the state
      }
      // A closed account comes as 0 lamports owned by the System program.
      this.events?.account(address, account && account.lamports === 0n ? null : account, slot);
      return;
    }
    if (message.method === "slotNotification" && typeof params?.result?.slot === "number") {
      this.events?.slot(params.result.slot);
    }
  }
}
