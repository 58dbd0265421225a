/**
 * Request messages that cannot be decoded — protobuf bytes that are not a message, JSON that is not
 * JSON — are the caller's fault on every protocol of the real port: Connect HTTP 400
 * `invalid_argument`, gRPC and gRPC-web status 3 (INVALID_ARGUMENT), with a message naming the
 * request type. Real clients: grpc-js with a serializer that sends raw bytes, fetch (undici) for
 * Connect and gRPC-web, Node's http2 client for raw gRPC frames. After each, the server still serves.
 */
import http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "../../src/gen/grpc/health/v1/health_pb.js";
import type { ExtraService, RunningServer } from "../../src/server/server.js";
import { SleepRequest, SleepResponse, SlowService, slowClient, startTestServer, type LogCapture } from "../server/helpers.js";

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_INTERNAL = 13;
/** Field 1, length-delimited, announcing 255 bytes that never come. */
const TRUNCATED = Buffer.from([0x0a, 0xff, 0x01, 0x61]);
/** Tag with wire type 7, which does not exist. */
const BAD_WIRE_TYPE = Buffer.from([0x0f, 0x00]);

const SWAP_INSTRUCTIONS = "/swapd.swap.v1.SwapService/SwapInstructions";
const HEALTH_CHECK = "/grpc.health.v1.Health/Check";
const HEALTH_WATCH = "/grpc.health.v1.Health/Watch";

let server: RunningServer;
let logs: LogCapture;
let grpcClient: grpc.Client;

/** A handler of its own that throws connect-es's binary-parse error text: that is a server fault and stays INTERNAL. */
const throwingSlowService: ExtraService = {
  service: SlowService,
  impl: {
    async sleep(req: Message & { ms?: number }) {
      if (req.ms === 13) throw new ConnectError("parse binary: raised by the handler itself", Code.Internal);
      return create(SleepResponse, { sleptMs: req.ms ?? 0 });
    },
  },
};

beforeAll(async () => {
  ({ server, logs } = await startTestServer({ extraServices: [throwingSlowService] }));
  grpcClient = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  grpcClient?.close();
  await server?.close();
});

/** After every bad message the server still answers good calls, over Connect and gRPC. */
afterEach(async () => {
  const health = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
  expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  const connect = createClient(Health, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", useBinaryFormat: true }));
  expect((await connect.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
});

/** A length-prefixed message (gRPC, gRPC-web, Connect streaming): flags, 4-byte big-endian length, data. */
function frame(data: Uint8Array, flags = 0): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(data.byteLength, 1);
  return Buffer.concat([head, data]);
}

function frames(body: Buffer): Array<{ flags: number; data: Buffer }> {
  const out: Array<{ flags: number; data: Buffer }> = [];
  for (let at = 0; at + 5 <= body.length;) {
    const length = body.readUInt32BE(at + 1);
    out.push({ flags: body[at], data: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return out;
}

/** The gRPC-web trailer frame (flag 0x80) as `name: value` lines, per the gRPC-web protocol. */
function grpcWebTrailer(body: Buffer): Record<string, string> {
  const trailer = frames(body).find((f) => (f.flags & 0x80) !== 0);
  if (trailer === undefined) throw new Error(`no trailer frame in ${body.toString("hex")}`);
  const fields: Record<string, string> = {};
  for (const line of trailer.data.toString("latin1").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) fields[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return fields;
}

function grpcUnaryRaw(path: string, bytes: Buffer): Promise<grpc.ServiceError> {
  return new Promise((resolve, reject) => {
    grpcClient.makeUnaryRequest(
      path,
      (m: Buffer) => m,
      (b: Buffer) => b,
      bytes,
      { deadline: Date.now() + 10_000 },
      (err) => (err ? resolve(err) : reject(new Error("the call succeeded"))),
    );
  });
}

/** A gRPC call over a plain HTTP/2 stream: the response's trailers (or trailers-only headers). */
function http2Grpc(path: string, body: Buffer, contentType = "application/grpc"): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(server.url);
    session.on("error", reject);
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": contentType, te: "trailers" });
    const seen: Record<string, string> = {};
    const keep = (h: http2.IncomingHttpHeaders) => {
      for (const [k, v] of Object.entries(h)) if (typeof v === "string" || typeof v === "number") seen[k] = String(v);
    };
    stream.on("response", keep);
    stream.on("trailers", keep);
    stream.resume();
    stream.on("error", reject);
    stream.on("close", () => {
      session.close();
      resolve(seen);
    });
    stream.end(body);
  });
}

/** The latest log line `pred` accepts. */
const lastLine = (pred: (line: Record<string, unknown>) => boolean) => [...logs.lines].reverse().find(pred);

const post = (path: string, contentType: string, body: Uint8Array | string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : Uint8Array.from(body),
  });

describe("undecodable protobuf → INVALID_ARGUMENT on every protocol", () => {
  it("Connect unary (application/proto over HTTP/1.1): 400 invalid_argument naming the request type", async () => {
    for (const [bytes, reason] of [
      [TRUNCATED, /premature EOF/],
      [BAD_WIRE_TYPE, /wire type 7/],
    ] as const) {
      const r = await post(SWAP_INSTRUCTIONS, "application/proto", bytes);
      expect(r.status).toBe(400);
      const body = (await r.json()) as { code: string; message: string };
      expect(body.code).toBe("invalid_argument");
      expect(body.message).toMatch(/^cannot decode message swapd\.swap\.v1\.SwapInstructionsRequest from protobuf binary: /);
      expect(body.message).toMatch(reason);
    }
    // The call's log line carries the code too (it never reached a handler).
    const line = lastLine((l) => l["procedure"] === SWAP_INSTRUCTIONS && l["protocol"] === "connect");
    expect(line).toMatchObject({ code: "invalid_argument", status: 400 });
  });

  it("gRPC unary (grpc-js sending raw bytes): INVALID_ARGUMENT naming the request type", async () => {
    const err = await grpcUnaryRaw(SWAP_INSTRUCTIONS, TRUNCATED);
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toMatch(/^cannot decode message swapd\.swap\.v1\.SwapInstructionsRequest from protobuf binary: premature EOF/);
  });

  it("gRPC server streaming (grpc-js, Health/Watch): INVALID_ARGUMENT", async () => {
    const err = await new Promise<grpc.ServiceError>((resolve, reject) => {
      const call = grpcClient.makeServerStreamRequest(
        HEALTH_WATCH,
        (m: Buffer) => m,
        (b: Buffer) => b,
        BAD_WIRE_TYPE,
        new grpc.Metadata(),
        {
          deadline: Date.now() + 10_000,
        },
      );
      call.on("data", () => reject(new Error("a message came back")));
      call.on("error", resolve);
      call.on("end", () => reject(new Error("ended without an error")));
    });
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toMatch(/^cannot decode message grpc\.health\.v1\.HealthCheckRequest from protobuf binary: /);
  });

  it("gRPC over a plain HTTP/2 client: trailers grpc-status 3", async () => {
    const trailers = await http2Grpc(SWAP_INSTRUCTIONS, frame(TRUNCATED));
    expect(trailers[":status"]).toBe("200");
    expect(trailers["grpc-status"]).toBe(String(GRPC_INVALID_ARGUMENT));
    expect(decodeURIComponent(trailers["grpc-message"])).toMatch(/SwapInstructionsRequest from protobuf binary: premature EOF/);
  });

  it("gRPC-web (fetch, application/grpc-web+proto): trailer frame grpc-status 3; the log line says invalid_argument", async () => {
    const r = await post(HEALTH_CHECK, "application/grpc-web+proto", frame(TRUNCATED));
    expect(r.status).toBe(200);
    const trailer = grpcWebTrailer(Buffer.from(await r.arrayBuffer()));
    expect(trailer["grpc-status"]).toBe(String(GRPC_INVALID_ARGUMENT));
    expect(decodeURIComponent(trailer["grpc-message"])).toMatch(
      /^cannot decode message grpc\.health\.v1\.HealthCheckRequest from protobuf binary: premature EOF/,
    );
    const line = lastLine((l) => l["procedure"] === HEALTH_CHECK && l["protocol"] === "grpc-web");
    expect(line).toMatchObject({ code: "invalid_argument" });
  });

  it("Connect server streaming (application/connect+proto, Health/Watch): end-stream error invalid_argument", async () => {
    const r = await post(HEALTH_WATCH, "application/connect+proto", frame(BAD_WIRE_TYPE));
    expect(r.status).toBe(200);
    const end = frames(Buffer.from(await r.arrayBuffer())).find((f) => (f.flags & 0x02) !== 0);
    const json = JSON.parse(end!.data.toString("utf8")) as { error?: { code: string; message: string } };
    expect(json.error?.code).toBe("invalid_argument");
    expect(json.error?.message).toMatch(/^cannot decode message grpc\.health\.v1\.HealthCheckRequest from protobuf binary: /);
  });

  it("a valid message still works on each protocol (the rewrite touches only failures)", async () => {
    const request = Buffer.from(toBinary(SleepRequest, create(SleepRequest, { ms: 1 })));
    const grpcOk = await new Promise<{ sleptMs: number }>((resolve, reject) =>
      grpcClient.makeUnaryRequest(
        "/swapdtest.v1.SlowService/Sleep",
        (m: Buffer) => m,
        (b: Buffer) => fromBinary(SleepResponse, b) as unknown as { sleptMs: number },
        request,
        (err, res) => (err ? reject(err) : resolve(res!)),
      ),
    );
    expect(grpcOk.sleptMs).toBe(1);
    const web = await post("/swapdtest.v1.SlowService/Sleep", "application/grpc-web+proto", frame(request));
    const body = Buffer.from(await web.arrayBuffer());
    expect(grpcWebTrailer(body)["grpc-status"]).toBe("0");
    expect(fromBinary(SleepResponse, frames(body)[0].data)).toMatchObject({ sleptMs: 1 });
  });

  it("a handler's own INTERNAL with the same text stays INTERNAL (only request decoding is rewritten)", async () => {
    const request = Buffer.from(toBinary(SleepRequest, create(SleepRequest, { ms: 13 })));
    const err = await grpcUnaryRaw("/swapdtest.v1.SlowService/Sleep", request);
    expect(err.code).toBe(grpc.status.INTERNAL);
    const web = await post("/swapdtest.v1.SlowService/Sleep", "application/grpc-web+proto", frame(request));
    expect(grpcWebTrailer(Buffer.from(await web.arrayBuffer()))["grpc-status"]).toBe(String(GRPC_INTERNAL));
    const connect = await slowClient(createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", useBinaryFormat: true }))
      .sleep({ ms: 13 })
      .catch((e: unknown) => ConnectError.from(e));
    expect(connect).toMatchObject({ code: Code.Internal });
  });
});

describe("undecodable JSON → INVALID_ARGUMENT on the JSON codecs", () => {
  it("Connect unary JSON: 400 invalid_argument naming the request type", async () => {
    const r = await post(SWAP_INSTRUCTIONS, "application/json", "{not json");
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      code: "invalid_argument",
      message: expect.stringMatching(/^cannot decode message swapd\.swap\.v1\.SwapInstructionsRequest from JSON: /),
    });
  });

  it("gRPC with the JSON codec (application/grpc+json, http2 client): grpc-status 3", async () => {
    const trailers = await http2Grpc(HEALTH_CHECK, frame(Buffer.from("{not json")), "application/grpc+json");
    expect(trailers["grpc-status"]).toBe(String(GRPC_INVALID_ARGUMENT));
    expect(decodeURIComponent(trailers["grpc-message"])).toMatch(/HealthCheckRequest from JSON/);
  });

  it("gRPC-web with the JSON codec (fetch, application/grpc-web+json): trailer grpc-status 3", async () => {
    const r = await post(HEALTH_CHECK, "application/grpc-web+json", frame(Buffer.from("[1,")));
    expect(grpcWebTrailer(Buffer.from(await r.arrayBuffer()))["grpc-status"]).toBe(String(GRPC_INVALID_ARGUMENT));
  });
});
