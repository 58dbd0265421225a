/**
 * gRPC over HTTP/2 (cleartext, one multiplexed connection) with @grpc/grpc-js and stubs loaded
 * from proto/, as a `LoadCall` for the same loops as the HTTP/1.1 load.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { fileURLToPath } from "node:url";
import { HEALTH, swapInstructionsMessage, type RequestKind } from "./bench-requests.js";
import { loopbackOnly, runLoops, type LoadCall, type LoadOptions, type LoadResult } from "./load.js";

const PROTO_DIR = fileURLToPath(new URL("../proto/", import.meta.url));

type UnaryMethod = (req: unknown, options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, res: unknown) => void) => void;

export interface GrpcLoad {
  readonly call: LoadCall;
  close(): void;
}

export function grpcLoadFor(kind: RequestKind, serviceUrl: string, timeoutMs = 10_000): GrpcLoad {
  const url = new URL(serviceUrl);
  loopbackOnly(url);
  const defs = protoLoader.loadSync(["grpc/health/v1/health.proto", "swapd/swap/v1/swap.proto"], {
    includeDirs: [PROTO_DIR],
    longs: String,
    enums: String,
    defaults: false,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(defs) as any;
  const address = `${url.hostname}:${url.port}`;
  const Client = kind === HEALTH ? pkg.grpc.health.v1.Health : pkg.swapd.swap.v1.SwapService;
  const client = new Client(address, grpc.credentials.createInsecure()) as grpc.Client & Record<string, UnaryMethod>;
  const method = (kind === HEALTH ? client.Check : client.SwapInstructions).bind(client);
  const message = kind === HEALTH ? { service: "" } : swapInstructionsMessage(kind);
  const accept = (res: unknown): boolean =>
    kind === HEALTH ? (res as { status?: string }).status === "SERVING" : (res as { swapInstruction?: unknown }).swapInstruction != null;

  const call: LoadCall = () =>
    new Promise((resolve, reject) => {
      method(message, { deadline: Date.now() + timeoutMs }, (err, res) => {
        if (err) reject(new Error(`gRPC ${grpc.status[err.code]}: ${err.details}`));
        else if (!accept(res)) reject(new Error(`unexpected response ${JSON.stringify(res).slice(0, 300)}`));
        else resolve();
      });
    });
  return { call, close: () => client.close() };
}

/** A gRPC client of one request kind with its connection already up (the h2 handshake stays out of any measurement). */
export async function openGrpcLoad(kind: RequestKind, serviceUrl: string): Promise<GrpcLoad> {
  const grpcLoad = grpcLoadFor(kind, serviceUrl);
  await grpcLoad.call().catch(() => undefined);
  return grpcLoad;
}

/** gRPC load of one request kind (warm-up). */
export async function runGrpcLoad(kind: RequestKind, serviceUrl: string, load: LoadOptions): Promise<LoadResult> {
  const grpcLoad = await openGrpcLoad(kind, serviceUrl);
  try {
    return await runLoops(grpcLoad.call, load);
  } finally {
    grpcLoad.close();
  }
}
