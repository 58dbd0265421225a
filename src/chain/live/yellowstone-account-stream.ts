/**
 * Live account updates from a Yellowstone gRPC Geyser endpoint (`YELLOWSTONE_GRPC_URL`, token
 * `YELLOWSTONE_GRPC_TOKEN`) through the official client `@triton-one/yellowstone-grpc`. One
 * `Subscribe` stream; every change of the address set writes the whole filter again (Geyser
 * replaces its filters with each request) together with a ping, and the matching pong confirms
 * that the filter is in place. Reconnects with backoff; commitment `confirmed`. A connect (client,
 * stream, and the first filter's pong) must finish within `connectTimeoutMs`. Liveness
 * (stream-liveness.ts): slot updates (every slot), account updates, or the pong of a ping written
 * when the stream is quiet keep `freshAsOf` recent.
 */
import * as yellowstone from "@triton-one/yellowstone-grpc";
import type { SubscribeRequest, SubscribeUpdate } from "@triton-one/yellowstone-grpc";
import { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../../core/solana/account.js";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import type { AccountStream, AccountStreamEvents } from "./account-stream.js";
import { liveStreamTimeoutsTotal } from "./live-metrics.js";
import { DEFAULT_LIVE_CONNECT_TIMEOUT_MS, reconnectAfterSilenceMs } from "./pubsub-account-stream.js";
import type { PushedStreamOptions } from "./pubsub-account-stream.js";
import { StreamLiveness } from "./stream-liveness.js";

const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 5_000;
const FILTER_NAME = "swapd";

type ClientClass = typeof yellowstone.default.default;
/**
 * The client class. The package is CommonJS with an `exports.default`: depending on the Node
 * version's interop, the ESM default export is the class itself or the whole `exports`.
 */
const Client: ClientClass = (typeof yellowstone.default === "function" ? yellowstone.default : yellowstone.default.default) as ClientClass;
const { CommitmentLevel } = yellowstone;
type Duplex = Awaited<ReturnType<InstanceType<ClientClass>["subscribe"]>>;

/** Geyser reports a closed account as 0 lamports, no data, owned by the System program. */
function accountOf(address: string, info: { lamports: string; owner: Uint8Array; data: Uint8Array; executable: boolean }): AccountData | null {
  const lamports = BigInt(info.lamports);
  if (lamports === 0n) return null;
  return {
    address: publicKeyFromBase58(address),
    owner: publicKeyFromBase58(new PublicKey(info.owner).toBase58()),
    lamports,
    data: new Uint8Array(info.data),
    executable: info.executable,
  };
}

export class YellowstoneAccountStream implements AccountStream {
  readonly kind = "yellowstone";
  readonly coversPastUpdates = false;
  private events: AccountStreamEvents | undefined;
  private stream: Duplex | undefined;
  private open = false;
  private closed = false;
  private attempt = 0;
  private nextPing = 1;
  private readonly wanted = new Set<string>();
  /** Waiters for the pong of a ping id (filter confirmations). */
  private readonly pongWaiters = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly liveness: StreamLiveness;
  readonly maxSilenceMs: number;
  private readonly connectTimeoutMs: number;

  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
    options: PushedStreamOptions,
  ) {
    this.maxSilenceMs = options.maxSilenceMs;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_LIVE_CONNECT_TIMEOUT_MS;
    this.liveness = new StreamLiveness({
      maxSilenceMs: options.maxSilenceMs,
      reconnectAfterMs: reconnectAfterSilenceMs(options.maxSilenceMs),
      // A ping travels with the whole filter set (Geyser replaces filters with each request).
      probe: () =>
        void this.writeFilters().then(
          () => this.liveness.answered(),
          () => undefined,
        ),
      frozen: (silentMs) => {
        liveStreamTimeoutsTotal.inc({ source: this.kind, phase: "silence" });
        this.drop(`nothing received for ${silentMs} ms`);
      },
    });
  }

  get freshAsOf(): number | undefined {
    return this.liveness.freshAsOf;
  }

  start(events: AccountStreamEvents): void {
    this.events = events;
    void this.connect();
  }

  async subscribe(addresses: readonly string[]): Promise<void> {
    const fresh = addresses.filter((a) => !this.wanted.has(a));
    if (fresh.length === 0 && this.open) return;
    for (const a of fresh) this.wanted.add(a);
    if (!this.open) throw new Error("yellowstone stream not connected");
    await this.writeFilters();
  }

  unsubscribe(addresses: readonly string[]): void {
    let changed = false;
    for (const a of addresses) changed = this.wanted.delete(a) || changed;
    // Best effort: updates for addresses no longer wanted are dropped on arrival, and a stream that
    // failed to take the filters is re-opened with the current ones.
    if (changed && this.open) this.writeFilters().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.liveness.stop();
    this.stream?.destroy();
  }

  /** Gives up the current stream (it ends as if closed by the peer; the reconnect follows). */
  private drop(reason: string): void {
    const stream = this.stream;
    if (stream === undefined) return;
    this.stream = undefined;
    stream.destroy();
    this.lost(reason);
  }

  private request(ping: number): SubscribeRequest {
    return {
      accounts: this.wanted.size > 0 ? { [FILTER_NAME]: { account: [...this.wanted], owner: [], filters: [] } } : {},
      slots: { [FILTER_NAME]: { filterByCommitment: true } },
      transactions: {},
      transactionsStatus: {},
      blocks: {},
      blocksMeta: {},
      entry: {},
      commitment: CommitmentLevel.CONFIRMED,
      accountsDataSlice: [],
      ping: { id: ping },
    };
  }

  /** Writes the whole filter set with a ping; resolves at its pong. */
  private writeFilters(): Promise<void> {
    const stream = this.stream;
    if (!stream || !this.open) return Promise.reject(new Error("yellowstone stream not connected"));
    const id = this.nextPing++;
    return new Promise((resolve, reject) => {
      this.pongWaiters.set(id, { resolve, reject });
      stream.write(this.request(id), (error?: Error | null) => {
        if (error) {
          this.pongWaiters.delete(id);
          reject(error);
        }
      });
    });
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let timedOut = false;
    let stream: Duplex | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      liveStreamTimeoutsTotal.inc({ source: this.kind, phase: "connect" });
      const reason = `connect not finished in ${this.connectTimeoutMs} ms`;
      if (stream === undefined)
        this.lost(reason); // still connecting: what it brings later is dropped
      else if (this.stream === stream) this.drop(reason);
    }, this.connectTimeoutMs);
    timer.unref();
    try {
      const client = new Client(this.url, this.token, undefined);
      await client.connect();
      stream = await client.subscribe();
    } catch (error) {
      clearTimeout(timer);
      if (!timedOut) this.lost(`connect failed: ${(error as Error).message}`);
      return;
    }
    if (this.closed || timedOut) {
      clearTimeout(timer);
      stream.destroy();
      return;
    }
    this.attach(stream);
    try {
      await this.writeFilters();
      clearTimeout(timer);
      if (this.stream !== stream) return;
      this.attempt = 0;
      this.liveness.heard();
      this.events?.connected();
    } catch {
      clearTimeout(timer);
      // lost meanwhile: the reconnect starts over
    }
  }

  private attach(stream: Duplex): void {
    this.stream = stream;
    this.open = true;
    this.liveness.start();
    stream.on("data", (update: SubscribeUpdate) => {
      if (this.stream !== stream) return;
      if (!update.pong) this.liveness.heard();
      this.receive(update);
    });
    const onEnd = (reason: string) => {
      if (this.stream !== stream) return;
      this.stream = undefined;
      stream.destroy();
      this.lost(reason);
    };
    stream.on("error", (error: Error) => onEnd(`stream error: ${error.message}`));
    stream.on("end", () => onEnd("stream ended"));
    stream.on("close", () => onEnd("stream closed"));
  }

  private lost(reason: string): void {
    this.open = false;
    this.liveness.stop();
    for (const waiter of this.pongWaiters.values()) waiter.reject(new Error(reason));
    this.pongWaiters.clear();
    this.events?.disconnected(reason);
    if (this.closed) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private receive(update: SubscribeUpdate): void {
    if (update.pong) {
      // Filters are applied in order: a pong confirms every request written before it.
      for (const [id, waiter] of this.pongWaiters) {
        if (id <= update.pong.id) {
          this.pongWaiters.delete(id);
          waiter.resolve();
        }
      }
      return;
    }
    if (update.account?.account) {
      const info = update.account.account;
      const address = new PublicKey(info.pubkey).toBase58();
      if (!this.wanted.has(address)) return;
      this.events?.account(address, accountOf(address, info), Number(update.account.slot));
      return;
    }
    if (update.slot) this.events?.slot(Number(update.slot.slot));
  }
}
