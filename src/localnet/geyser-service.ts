/**
 * The Yellowstone gRPC Geyser service (proto/geyser.proto) of the embedded chain, so the
 * Yellowstone client is exercised against a real server: `Subscribe` with account filters (by
 * pubkey and by owner) and slot filters, pings answered with pongs, and the unary `Ping`,
 * `GetLatestBlockhash`, `GetBlockHeight`, `GetSlot`, `IsBlockhashValid`, `GetVersion`. Every
 * request on the Subscribe stream replaces the filters (as Geyser does). Account updates come
 * when a landed transaction or `setAccount` writes an account; a closed account is sent with 0
 * lamports, no data, owned by the System program. Everything is `confirmed` at once here, so the
 * commitment is accepted and not otherwise used.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ServiceImpl } from "@connectrpc/connect";
import { PublicKey } from "@solana/web3.js";
import {
  Geyser,
  GetBlockHeightResponseSchema,
  GetLatestBlockhashResponseSchema,
  GetSlotResponseSchema,
  GetVersionResponseSchema,
  IsBlockhashValidResponseSchema,
  PongResponseSchema,
  SlotStatus,
  SubscribeReplayInfoResponseSchema,
  SubscribeUpdateSchema,
} from "../gen/geyser_pb.js";
import type { SubscribeRequest, SubscribeUpdate } from "../gen/geyser_pb.js";
import type { LocalChain } from "./local-chain.js";

const SYSTEM_PROGRAM = new PublicKey("11111111111111111111111111111111");

interface Filters {
  /** Filter name → pubkeys / owners (base58). */
  readonly accounts: Map<string, { readonly pubkeys: Set<string>; readonly owners: Set<string> }>;
  readonly slots: string[];
}

function filtersOf(request: SubscribeRequest): Filters {
  const accounts = new Map<string, { pubkeys: Set<string>; owners: Set<string> }>();
  for (const [name, filter] of Object.entries(request.accounts)) {
    if (filter.filters.length > 0) {
      throw new ConnectError("account data filters (memcmp, datasize...) are not served by the embedded chain", Code.Unimplemented);
    }
    accounts.set(name, { pubkeys: new Set(filter.account), owners: new Set(filter.owner) });
  }
  return { accounts, slots: Object.keys(request.slots) };
}

/** A queue the stream's generator waits on; `end` finishes it (with an error, or quietly). */
class UpdateQueue {
  private readonly items: SubscribeUpdate[] = [];
  private wake: (() => void) | undefined;
  private ended: { error?: Error } | undefined;

  push(update: SubscribeUpdate): void {
    this.items.push(update);
    this.wake?.();
  }

  end(error?: Error): void {
    this.ended ??= error ? { error } : {};
    this.wake?.();
  }

  async *drain(): AsyncGenerator<SubscribeUpdate> {
    for (;;) {
      while (this.items.length > 0) yield this.items.shift()!;
      if (this.ended) {
        if (this.ended.error) throw this.ended.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

export interface GeyserService {
  readonly impl: ServiceImpl<typeof Geyser>;
  /** Ends every Subscribe stream (UNAVAILABLE) and refuses new ones while `down`. */
  setDown(down: boolean): void;
}

export function createGeyserService(chain: LocalChain): GeyserService {
  const open = new Set<UpdateQueue>();
  let down = false;

  async function* subscribe(requests: AsyncIterable<SubscribeRequest>): AsyncGenerator<SubscribeUpdate> {
    if (down) throw new ConnectError("geyser stream unavailable", Code.Unavailable);
    const queue = new UpdateQueue();
    open.add(queue);
    const filters: { current: Filters } = { current: { accounts: new Map(), slots: [] } };
    const stopAccounts = chain.onAccountsWritten((keys, slot) => {
      for (const key of keys) {
        const update = accountUpdate(chain, key, slot, filters.current);
        if (update) queue.push(update);
      }
    });
    const stopSlots = chain.onTransaction(() => {
      if (filters.current.slots.length === 0) return;
      const slot = BigInt(chain.slot);
      queue.push(
        create(SubscribeUpdateSchema, {
          filters: filters.current.slots,
          updateOneof: { case: "slot", value: { slot, parent: slot - 1n, status: SlotStatus.SLOT_CONFIRMED } },
        }),
      );
    });
    // Requests are read alongside the updates being sent.
    void readRequests(requests, queue, (next) => (filters.current = next));
    try {
      // A ping first, as Geyser servers ping their streams: it sends the response headers now,
      // which clients (tonic) wait for before they write their first request.
      yield create(SubscribeUpdateSchema, { updateOneof: { case: "ping", value: {} } });
      yield* queue.drain();
    } finally {
      open.delete(queue);
      stopAccounts();
      stopSlots();
    }
  }

  return {
    impl: { ...unaryMethods(chain), subscribe },
    setDown(value) {
      down = value;
      if (value) for (const queue of open) queue.end(new ConnectError("geyser stream unavailable", Code.Unavailable));
    },
  };
}

/** The update for a written account, named by the filters it matches; undefined when none does. */
function accountUpdate(chain: LocalChain, key: PublicKey, slot: number, filters: Filters): SubscribeUpdate | undefined {
  const address = key.toBase58();
  const account = chain.getAccount(key);
  const owner = (account?.owner ?? SYSTEM_PROGRAM).toBase58();
  const names = [...filters.accounts].filter(([, f]) => f.pubkeys.has(address) || f.owners.has(owner)).map(([n]) => n);
  if (names.length === 0) return undefined;
  return create(SubscribeUpdateSchema, {
    filters: names,
    updateOneof: {
      case: "account",
      value: {
        slot: BigInt(slot),
        isStartup: false,
        account: {
          pubkey: key.toBytes(),
          lamports: account?.lamports ?? 0n,
          owner: (account?.owner ?? SYSTEM_PROGRAM).toBytes(),
          executable: account?.executable ?? false,
          rentEpoch: 18446744073709551615n,
          data: account?.data ?? new Uint8Array(0),
          writeVersion: BigInt(slot),
        },
      },
    },
  });
}

/** Each request replaces the stream's filters and may ping; the stream ends with the requests. */
async function readRequests(requests: AsyncIterable<SubscribeRequest>, queue: UpdateQueue, setFilters: (filters: Filters) => void): Promise<void> {
  try {
    for await (const request of requests) {
      setFilters(filtersOf(request));
      if (request.ping) queue.push(create(SubscribeUpdateSchema, { updateOneof: { case: "pong", value: { id: request.ping.id } } }));
    }
    queue.end();
  } catch (error) {
    queue.end(error instanceof ConnectError ? error : new ConnectError(String(error), Code.InvalidArgument));
  }
}

/** Every method but Subscribe. */
function unaryMethods(chain: LocalChain): Omit<ServiceImpl<typeof Geyser>, "subscribe"> {
  return {
    async *subscribeDeshred() {
      throw new ConnectError("SubscribeDeshred is not served by the embedded chain", Code.Unimplemented);
    },
    subscribeReplayInfo: () => create(SubscribeReplayInfoResponseSchema, {}),
    ping: (req) => create(PongResponseSchema, { count: req.count }),
    getLatestBlockhash: () => {
      const latest = chain.latestBlockhash();
      return create(GetLatestBlockhashResponseSchema, {
        slot: BigInt(chain.slot),
        blockhash: latest.blockhash,
        lastValidBlockHeight: BigInt(latest.lastValidBlockHeight),
      });
    },
    getBlockHeight: () => create(GetBlockHeightResponseSchema, { blockHeight: BigInt(chain.blockHeight) }),
    getSlot: () => create(GetSlotResponseSchema, { slot: BigInt(chain.slot) }),
    isBlockhashValid: (req) => create(IsBlockhashValidResponseSchema, { slot: BigInt(chain.slot), valid: chain.isBlockhashValid(req.blockhash) }),
    getVersion: () => create(GetVersionResponseSchema, { version: JSON.stringify({ "solana-core": "swapd-localnet" }) }),
  };
}
