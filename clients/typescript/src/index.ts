// The swapd client: the services' descriptors and messages generated from proto/ (src/gen), and one
// call that makes a client of each service on a Connect transport. Nothing here touches Node's own
// modules, so the same import works in a browser with @connectrpc/connect-web's transports.
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { Health } from "./gen/grpc/health/v1/health_pb.js";
import { SwapService } from "./gen/swapd/swap/v1/swap_pb.js";
import { TriggerService } from "./gen/swapd/trigger/v1/trigger_pb.js";
import { NonceTriggerService } from "./gen/swapd/trigger/v2/nonce_trigger_pb.js";

// Namespaces, because the packages reuse message names (ExecuteRequest is in swap.v1 and trigger.v1,
// CreateOrderRequest in trigger.v1 and trigger.v2).
export * as swapV1 from "./gen/swapd/swap/v1/swap_pb.js";
export * as triggerV1 from "./gen/swapd/trigger/v1/trigger_pb.js";
export * as triggerV2 from "./gen/swapd/trigger/v2/nonce_trigger_pb.js";
export * as healthV1 from "./gen/grpc/health/v1/health_pb.js";
export { Health, NonceTriggerService, SwapService, TriggerService };

/** A client of each swapd service, all on one transport (one connection pool, one set of interceptors). */
export interface SwapdClients {
  /** Quotes, swap instructions and transactions, Swap API v2 (`swapd.swap.v1.SwapService`). */
  readonly swap: Client<typeof SwapService>;
  /** Trigger (limit) orders on Jupiter Limit Order v2 (`swapd.trigger.v1.TriggerService`). */
  readonly trigger: Client<typeof TriggerService>;
  /** Take-profit / stop-loss orders on a durable nonce (`swapd.trigger.v2.NonceTriggerService`). */
  readonly nonceTrigger: Client<typeof NonceTriggerService>;
  /** The standard health check (`grpc.health.v1.Health`). */
  readonly health: Client<typeof Health>;
}

export function createSwapdClients(transport: Transport): SwapdClients {
  return {
    swap: createClient(SwapService, transport),
    trigger: createClient(TriggerService, transport),
    nonceTrigger: createClient(NonceTriggerService, transport),
    health: createClient(Health, transport),
  };
}
