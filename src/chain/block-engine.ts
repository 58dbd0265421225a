/**
 * A block engine's bundle JSON-RPC (Jito's published API): `sendBundle` takes up to 5 signed
 * transactions, base64 here, and answers a bundle id; the bundle lands atomically or not at all,
 * and only with a tip transfer to one of the engine's tip accounts. An id says nothing of landing:
 * the landing reads signature statuses from the RPCs (src/landing). Over the same transport as the
 * RPC (timeouts, counting); a send is never retried by the transport — the landing loop re-sends.
 */
import { ChainUnavailableError } from "./chain-errors.js";
import { RpcTransport } from "./rpc-transport.js";

export interface BlockEngine {
  readonly url: string;
  /** Sends the transactions as one bundle; the engine's bundle id. */
  sendBundle(transactions: readonly Uint8Array[]): Promise<string>;
}

export class JsonRpcBlockEngine implements BlockEngine {
  readonly url: string;
  private readonly transport: RpcTransport;

  constructor(options: { readonly url: string; readonly timeoutMs?: number }) {
    this.url = options.url;
    this.transport = new RpcTransport({ url: options.url, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
  }

  async sendBundle(transactions: readonly Uint8Array[]): Promise<string> {
    const encoded = transactions.map((wire) => Buffer.from(wire).toString("base64"));
    const id = await this.transport.call<unknown>("sendBundle", [encoded, { encoding: "base64" }], { retry: false });
    if (typeof id !== "string") throw new ChainUnavailableError("sendBundle", "malformed answer (expected a bundle id)", 1);
    return id;
  }

  close(): void {
    this.transport.close();
  }
}
