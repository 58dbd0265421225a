/**
 * grpc.health.v1.Health: Check and Watch with a status per service ("" = the whole server).
 * Check of an unknown service → NOT_FOUND; Watch of one streams SERVICE_UNKNOWN (gRPC health spec).
 */
import { EventEmitter, on } from "node:events";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status, HealthCheckResponseSchema } from "../gen/grpc/health/v1/health_pb.js";
import { streamShutdownKey } from "./context.js";

export class HealthRegistry {
  private readonly statuses = new Map<string, Status>();
  private readonly events = new EventEmitter();

  constructor(services: readonly string[]) {
    this.events.setMaxListeners(0);
    this.statuses.set("", Status.SERVING);
    for (const s of services) this.statuses.set(s, Status.SERVING);
  }

  /** Sets the status of one service ("" = overall) and notifies watchers. */
  set(service: string, status: Status): void {
    if (this.statuses.get(service) === status) return;
    this.statuses.set(service, status);
    this.events.emit("change", service);
  }

  /** Marks every service NOT_SERVING (shutdown). */
  setAllNotServing(): void {
    for (const s of [...this.statuses.keys()]) this.set(s, Status.NOT_SERVING);
  }

  get(service: string): Status | undefined {
    return this.statuses.get(service);
  }

  impl(): ServiceImpl<typeof Health> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    return {
      check: (req) => {
        const status = this.get(req.service);
        if (status === undefined) throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
        return create(HealthCheckResponseSchema, { status });
      },
      async *watch(req, ctx) {
        let last: Status | undefined;
        const current = () => self.get(req.service) ?? Status.SERVICE_UNKNOWN;
        last = current();
        yield create(HealthCheckResponseSchema, { status: last });
        // End on client cancel or when graceful shutdown starts.
        const signal = AbortSignal.any([ctx.signal, ctx.values.get(streamShutdownKey)]);
        try {
          for await (const [service] of on(self.events, "change", { signal }) as AsyncIterable<[string]>) {
            if (service !== req.service) continue;
            const now = current();
            if (now === last) continue;
            last = now;
            yield create(HealthCheckResponseSchema, { status: now });
          }
        } catch (e) {
          if (signal.aborted) return;
          throw e;
        }
      },
    };
  }
}
