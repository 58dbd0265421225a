/**
 * New and closed pools as they happen: one `programSubscribe` per AMM program over the Solana
 * PubSub websocket (base64, `confirmed`, the pool account's size as a filter), so the market index
 * learns of pools without polling. Reconnects with backoff and subscribes again; pools created
 * while disconnected are found by the listing's refresh and by pair discovery. A ping every few
 * seconds detects a dead connection that never closed.
 *
 * A provider may refuse one program's subscription (some cap or bar `programSubscribe` on busy
 * programs) or the websocket itself: each program's state is told as it changes (`subscribed`,
 * `refused`), a refused program is asked again after a growing wait on the same connection, and
 * the socket's messages are capped in size, so a refusing or misbehaving provider costs a few
 * requests an hour and never an unbounded buffer.
 */
import WebSocket from "ws";
import type { GetProgramAccountsFilter, PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { accountFromJson } from "./account-json.js";
import { messageText } from "./websocket-message-text.js";

const PING_INTERVAL_MS = 5_000;
const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 30_000;
/** A refused program is asked again after this (by default), doubled each refusal up to the maximum. */
export const REFUSED_RETRY_BASE_MS = 60_000;
const REFUSED_RETRY_MAX_MS = 30 * 60_000;
/** The largest websocket message accepted (a pool notification is a few kB); a larger one drops the connection. */
const MAX_MESSAGE_BYTES = 1 << 20;

export interface ProgramFilter {
  readonly programId: PublicKey;
  /** The filters that select the program's pool accounts (their size, their discriminator). */
  readonly filters: readonly GetProgramAccountsFilter[];
}

export interface ProgramSubscriptionEvents {
  /** An account of a subscribed program was written (`account`), or closed (`null`). */
  account(address: string, account: AccountData | null): void;
  /** The node confirmed the program's subscription (base58 program id). */
  subscribed?(program: string): void;
  /** The node refused the program's subscription; asked again after `retryMs`. */
  refused?(program: string, reason: string, retryMs: number): void;
  /** Every program's subscription was answered (confirmed or refused) on a new connection. */
  connected?(): void;
  /** The connection dropped or could not be made; it is retried with backoff. */
  disconnected?(reason: string): void;
}

export class ProgramSubscriptions {
  private socket: WebSocket | undefined;
  private closed = false;
  private attempt = 0;
  private nextId = 1;
  /** Request id → the program it subscribes (base58). */
  private readonly requests = new Map<number, string>();
  private readonly subscriptions = new Set<number>();
  /** Refusals in a row, by program (base58): the next wait grows with them. */
  private readonly refusals = new Map<string, number>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private pingTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly programs: readonly ProgramFilter[],
    private readonly events: ProgramSubscriptionEvents,
    /** First wait before a refused program is asked again. */
    private readonly refusedRetryMs: number = REFUSED_RETRY_BASE_MS,
  ) {}

  start(): void {
    this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    this.clearRetries();
    this.socket?.terminate();
  }

  private connect(): void {
    if (this.closed) return;
    const socket = new WebSocket(this.url, { maxPayload: MAX_MESSAGE_BYTES });
    this.socket = socket;
    let alive = true;
    let answered = 0;
    let failure = "websocket closed";
    socket.on("open", () => {
      this.attempt = 0;
      this.pingTimer = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_INTERVAL_MS);
      this.pingTimer.unref();
      for (const program of this.programs) this.subscribe(socket, program);
    });
    socket.on("pong", () => {
      alive = true;
    });
    socket.on("message", (raw) => {
      alive = true;
      const message = parse(messageText(raw));
      if (!message) return;
      const program = typeof message.id === "number" ? this.requests.get(message.id) : undefined;
      if (program !== undefined) {
        this.requests.delete(message.id!);
        this.answer(socket, program, message);
        answered += 1;
        if (answered === this.programs.length) this.events.connected?.();
        return;
      }
      this.notification(message);
    });
    socket.on("error", (error) => {
      // "close" follows and handles the reconnect; the error says why (refused upgrade, DNS, TLS).
      failure = `websocket: ${error.message}`;
    });
    socket.on("close", (code) => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      this.clearRetries();
      this.subscriptions.clear();
      this.requests.clear();
      this.events.disconnected?.(code === 1009 ? `websocket: a message over ${MAX_MESSAGE_BYTES} bytes` : failure);
      if (this.closed) return;
      const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
      this.attempt += 1;
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
      this.reconnectTimer.unref();
    });
  }

  private subscribe(socket: WebSocket, program: ProgramFilter): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    const id = this.nextId++;
    const programId = base58Of(program.programId);
    this.requests.set(id, programId);
    const config = { encoding: "base64", commitment: "confirmed", filters: program.filters };
    socket.send(JSON.stringify({ jsonrpc: "2.0", id, method: "programSubscribe", params: [programId, config] }));
  }

  /** The node's answer to a program's subscription: confirmed, or refused and asked again later. */
  private answer(socket: WebSocket, program: string, message: Message): void {
    if (typeof message.result === "number") {
      this.subscriptions.add(message.result);
      this.refusals.delete(program);
      this.events.subscribed?.(program);
      return;
    }
    const refusals = (this.refusals.get(program) ?? 0) + 1;
    this.refusals.set(program, refusals);
    const retryMs = Math.min(REFUSED_RETRY_MAX_MS, this.refusedRetryMs * 2 ** (refusals - 1));
    const error = message.error;
    const reason = error
      ? `programSubscribe refused: ${error.message ?? "no message"}${error.code !== undefined ? ` (code ${error.code})` : ""}`
      : "programSubscribe answered no subscription id";
    this.events.refused?.(program, reason, retryMs);
    const filter = this.programs.find((p) => base58Of(p.programId) === program)!;
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.socket === socket) this.subscribe(socket, filter);
    }, retryMs);
    timer.unref();
    this.retryTimers.add(timer);
  }

  private notification(message: Message): void {
    const params = message.params;
    if (message.method !== "programNotification" || params?.subscription === undefined || !this.subscriptions.has(params.subscription)) return;
    const value = params.result?.value as { pubkey?: unknown; account?: unknown } | undefined;
    if (typeof value?.pubkey !== "string") return;
    let account;
    try {
      account = accountFromJson(publicKeyFromBase58(value.pubkey), value.account ?? null);
    } catch {
      return; // a malformed notification is dropped: the listing's refresh or discovery brings the pool
    }
    this.events.account(value.pubkey, account && account.lamports > 0n ? account : null);
  }

  private clearRetries(): void {
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
  }
}

interface Message {
  id?: number;
  result?: unknown;
  error?: { message?: string; code?: number };
  method?: string;
  params?: { subscription?: number; result?: { value?: unknown } };
}

function parse(text: string): Message | undefined {
  try {
    const message = JSON.parse(text) as unknown;
    return message !== null && typeof message === "object" ? message : undefined;
  } catch {
    return undefined; // not JSON: nothing a node would send; ignored
  }
}
