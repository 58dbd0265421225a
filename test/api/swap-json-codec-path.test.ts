// The SwapInstructions Connect JSON codec path over real HTTP: two servers over the same API and
// chain, one with the codec path (as the service runs) and one with protobuf-es only (connect-es's
// own handler). Every call must get the same answer from both — status, body, content type,
// compression, logged code — whether the codec path takes the call or steps aside.
import { gunzipSync } from "node:zlib";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UnaryJsonCodec } from "../../src/server/protocol/unary-json-codec.js";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer, type LogCapture } from "../server/helpers.js";
import { demoSolToUsdc, startSwapStack, toProtoJson, type SwapStack } from "./swap-stack.js";

const PROCEDURE = "/swapd.swap.v1.SwapService/SwapInstructions";
const API_KEY = "codec-path-test-key-0123456789";

interface Served {
  server: RunningServer;
  logs: LogCapture;
}

let stack: SwapStack;
/** How many bodies the codec path read (it reads every call it takes, and only those). */
let codecReads = 0;
let withCodec: Served;
let withoutCodec: Served;

beforeAll(async () => {
  stack = await startSwapStack({ jsonCodecs: false });
  const counted: UnaryJsonCodec[] = stack.api.jsonCodecs.map((c) => ({
    ...c,
    readRequest: (json: unknown) => {
      codecReads++;
      return c.readRequest(json);
    },
  }));
  const env = { API_KEYS: API_KEY };
  withCodec = await startTestServer({ services: { swap: stack.api.service }, restRoutes: stack.api.restRoutes, jsonCodecs: counted, env });
  withoutCodec = await startTestServer({ services: { swap: stack.api.service }, restRoutes: stack.api.restRoutes, env });
}, 120_000);

afterAll(async () => {
  await withCodec?.server.close();
  await withoutCodec?.server.close();
  await stack?.close();
});

interface Answer {
  status: number;
  contentType: string | null;
  contentEncoding: string | null;
  body: string;
}

type Body = string | (() => ReadableStream<Uint8Array>);

async function call(served: Served, body: Body, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${served.server.url}${PROCEDURE}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY, "accept-encoding": "identity", ...headers },
    body: typeof body === "string" ? body : body(),
    ...(typeof body === "string" ? {} : { duplex: "half" }),
  });
  const encoding = res.headers.get("content-encoding");
  const raw = Buffer.from(await res.arrayBuffer());
  // fetch does not decode for us when asked for gzip explicitly; decode here to compare the messages.
  const text = encoding === "gzip" && raw[0] === 0x1f ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  return { status: res.status, contentType: res.headers.get("content-type"), contentEncoding: encoding, body: text };
}

/** The code the server logs for its next call (the line is written when the response closes). */
async function nextLoggedCode(served: Served, linesBefore: number): Promise<unknown> {
  for (let i = 0; i < 100; i++) {
    const line = served.logs.lines.slice(linesBefore).find((l) => l.msg === "call" && l.procedure === PROCEDURE);
    if (line) return line.code;
    await new Promise((r) => setTimeout(r, 10));
  }
  return "<no call line>";
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6}|\.\d{9})?Z$/;

/** An answer with the time its blockhash was fetched masked (the two calls may see different refreshes). */
function comparable(answer: Answer): Answer {
  const fetchedAt = /"fetchedAt":"([^"]*)"/.exec(answer.body)?.[1];
  if (fetchedAt === undefined) return answer;
  expect(fetchedAt).toMatch(RFC3339);
  return { ...answer, body: answer.body.replace(fetchedAt, "<time>") };
}

/** Both servers' answers to the same call, checked equal; and whether the codec path took it. */
async function both(body: Body, headers: Record<string, string> = {}): Promise<{ answer: Answer; taken: boolean }> {
  const readsBefore = codecReads;
  const linesBefore = [withCodec.logs.lines.length, withoutCodec.logs.lines.length] as const;
  const fast = await call(withCodec, body, headers);
  const taken = codecReads > readsBefore;
  const plain = await call(withoutCodec, body, headers);
  expect(comparable(fast)).toEqual(comparable(plain));
  const fastCode = await nextLoggedCode(withCodec, linesBefore[0]);
  expect(fastCode).toEqual(await nextLoggedCode(withoutCodec, linesBefore[1]));
  expect(fastCode).toMatch(/^[a-z_]+$/);
  return { answer: fast, taken };
}

const good = () => toProtoJson(demoSolToUsdc());

describe("SwapInstructions over Connect JSON: the codec path answers as connect-es does", () => {
  it("a swap: the codec path takes it and answers the same instructions", async () => {
    const { answer, taken } = await both(JSON.stringify(good()));
    expect(taken).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe("application/json");
    const body = JSON.parse(answer.body);
    expect(body.swapInstruction.programId).toBe("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");
    expect(body.setupInstructions.length).toBeGreaterThan(0);
  });

  it("with every option and Jupiter's extra quote keys", async () => {
    const json = toProtoJson(
      demoSolToUsdc({ prioritizationFeeLamports: { jitoTipLamports: 10_000 }, wrapAndUnwrapSol: true, dynamicSlippage: false, somethingNew: [1] }),
    );
    json.quoteResponse.mostReliableAmmsQuoteReport = { info: {} };
    json.quoteResponse.platformFee = null;
    const { answer, taken } = await both(JSON.stringify(json));
    expect(taken).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a validation error: 400 naming the field, from either path", async () => {
    const json = good();
    json.quoteResponse.slippageBps = 10_001;
    const { answer, taken } = await both(JSON.stringify(json));
    expect(taken).toBe(true);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("quoteResponse.slippageBps") });
  });

  it("no API key: refused before the body is read, the same way", async () => {
    const answer = await (async () => {
      const fast = await call(withCodec, JSON.stringify(good()), { "x-api-key": "" });
      const plain = await call(withoutCodec, JSON.stringify(good()), { "x-api-key": "" });
      expect(comparable(fast)).toEqual(comparable(plain));
      return fast;
    })();
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).code).toBe("unauthenticated");
  });

  it("values in a form protobuf-es reads differently, wrong types, duplicate keys: connect-es answers, through our error paths", async () => {
    const numberAsString = good();
    numberAsString.quoteResponse.slippageBps = "50";
    const ok = await both(JSON.stringify(numberAsString));
    expect(ok.taken).toBe(true); // read, then declined
    expect(ok.answer.status).toBe(200);

    const wrongType = good();
    wrongType.quoteResponse.inAmount = { x: 1 };
    const bad = await both(JSON.stringify(wrongType));
    expect(bad.answer.status).toBe(400);
    expect(JSON.parse(bad.answer.body).message).toContain("quoteResponse.inAmount");

    const duplicate = JSON.stringify(good()).replace('"userPublicKey":', '"userPublicKey":"x","userPublicKey":');
    const dup = await both(duplicate);
    expect(dup.taken).toBe(false); // the text was never handed to the codec
    expect(dup.answer.status).toBe(400);
    expect(JSON.parse(dup.answer.body).message).toMatch(/duplicate/);

    const notJson = await both('{"userPublicKey": ');
    expect(notJson.taken).toBe(false);
    expect(notJson.answer.status).toBe(400);
  });

  it("a compressed answer when the caller accepts gzip (the same negotiation)", async () => {
    const { answer, taken } = await both(JSON.stringify(good()), { "accept-encoding": "gzip" });
    expect(taken).toBe(true);
    expect(answer.contentEncoding).toBe("gzip");
    expect(JSON.parse(answer.body).swapInstruction).toBeDefined();
  });

  it("calls the codec path does not take: a timeout header, a compressed body, no content length", async () => {
    const text = JSON.stringify(good());
    const timeout = await both(text, { "connect-timeout-ms": "10000" });
    expect(timeout.taken).toBe(false);
    expect(timeout.answer.status).toBe(200);

    const { gzipSync } = await import("node:zlib");
    const gz = gzipSync(text);
    const compressed = await both(() => new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(gz)), c.close()) }), { "content-encoding": "gzip" });
    expect(compressed.taken).toBe(false);
    expect(compressed.answer.status).toBe(200);

    const chunked = await both(() => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) }));
    expect(chunked.taken).toBe(false);
    expect(chunked.answer.status).toBe(200);
  });

  it("a body shorter than its content-length: answered as connect-es answers it, and the socket does not hang", async () => {
    const body = JSON.stringify(good());
    /** Everything the server sends back, until it closes the connection (or 10 s pass: a hang). */
    const send = (served: Served) =>
      new Promise<string>((resolve) => {
        const socket = connect(served.server.port, "127.0.0.1", () => {
          socket.write(
            `POST ${PROCEDURE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nx-api-key: ${API_KEY}\r\n` +
              `content-length: ${body.length + 10}\r\n\r\n${body}`,
          );
          socket.end(); // the client's side ends ten bytes short
        });
        let text = "";
        const timer = setTimeout(() => (socket.destroy(), resolve(`${text}<hung>`)), 10_000);
        socket.on("data", (c: Buffer) => (text += c.toString()));
        socket.on("close", () => (clearTimeout(timer), resolve(text)));
        socket.on("error", () => undefined);
      });
    const fast = await send(withCodec);
    const plain = await send(withoutCodec);
    const statusLine = (t: string) => t.split("\r\n")[0];
    expect(fast).not.toContain("<hung>");
    expect(statusLine(fast)).toBe(statusLine(plain));
  });
});
