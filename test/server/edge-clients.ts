/** Real clients for the edge tests: grpc-js calls with metadata, Connect JSON and REST over fetch. */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { SleepRequest, SleepResponse } from "./helpers.js";

/** grpc-js stubs of the contract, loaded from proto/. */
export const grpcPkg = grpc.loadPackageDefinition(
  protoLoader.loadSync(["swapd/swap/v1/swap.proto", "swapd/trigger/v1/trigger.proto", "grpc/health/v1/health.proto"], {
    includeDirs: ["proto"],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  }),
) as any;

export function metadataOf(headers: Record<string, string>): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers)) md.set(k, v);
  return md;
}

export function grpcUnary<T>(client: any, method: string, req: unknown, md = new grpc.Metadata(), deadlineMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method](req, md, { deadline: Date.now() + deadlineMs }, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res)));
  });
}

/** The test-only SlowService/Sleep through grpc-js (binary protobuf), so a passing call answers OK. */
export function grpcSleep(client: grpc.Client, ms: number, md = new grpc.Metadata()): Promise<{ sleptMs: number }> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      "/swapdtest.v1.SlowService/Sleep",
      (m: { ms: number }) => Buffer.from(toBinary(SleepRequest, create(SleepRequest, m as never))),
      (b: Buffer) => fromBinary(SleepResponse, b) as unknown as { sleptMs: number },
      { ms },
      md,
      { deadline: Date.now() + 5000 },
      (err, res) => (err ? reject(err) : resolve(res!)),
    );
  });
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

type Fetch = (url: string, init?: any) => Promise<{ status: number; headers: Headers; text(): Promise<string> }>;

/** POST a Connect JSON unary call. */
export async function connectJson(fetchFn: Fetch, base: string, procedure: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const r = await fetchFn(`${base}${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

/** A REST call (JSON body for POST). */
export async function rest(
  fetchFn: Fetch,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<HttpAnswer> {
  const r = await fetchFn(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // text bodies (metrics) stay text
  }
  return { status: r.status, headers: r.headers, body: parsed };
}
