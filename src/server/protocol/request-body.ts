/**
 * Byte streams of requests and responses as the stages handle them: read whole or up to a limit,
 * replayed unchanged to the handler that follows, passed through a map.
 */
import type { UniversalServerRequest } from "@connectrpc/connect/protocol";

/** The request's body when it is a byte stream (connect-node may hand over parsed JSON instead). */
export function byteStreamOf(req: UniversalServerRequest): AsyncIterable<Uint8Array> | undefined {
  const body = req.body;
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body ? body : undefined;
}

/** Every byte of the stream, in one buffer. */
export async function bytesOf(chunks: AsyncIterable<Uint8Array> | undefined): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  if (chunks) for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The body's chunks, read up to `limit` bytes; `complete` false when it was longer (the rest is left in `rest`). */
export async function readUpTo(
  body: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<{ chunks: Uint8Array[]; complete: boolean; rest: AsyncIterator<Uint8Array> }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const it = body[Symbol.asyncIterator]();
  for (;;) {
    const r = await it.next();
    if (r.done === true) return { chunks, complete: true, rest: it };
    chunks.push(r.value);
    size += r.value.byteLength;
    if (size > limit) return { chunks, complete: false, rest: it };
  }
}

/** The chunks read so far, then the rest of the stream. */
export function replay(chunks: Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield* chunks;
    for (;;) {
      const r = await rest.next();
      if (r.done === true) return;
      yield r.value;
    }
  })();
}

/** A body that fails as the original did (with the very value it failed with, whatever that is). */
export function failing(error: unknown): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        throw error;
      },
    }),
  };
}

/** `source` with each chunk passed through `map`; `throw` and `return` reach `source` (connect-es reports write errors so). */
export function mapChunks(source: AsyncIterable<Uint8Array>, map: (chunk: Uint8Array) => Uint8Array): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const it = source[Symbol.asyncIterator]();
      const mapped = async (step: Promise<IteratorResult<Uint8Array>>) => {
        const r = await step;
        return r.done === true ? r : { done: false as const, value: map(r.value) };
      };
      return {
        next: () => mapped(it.next()),
        throw: async (e?: unknown) => {
          if (it.throw) return mapped(it.throw(e));
          throw e; // what the caller threw in, unchanged
        },
        return: (v?: unknown) => (it.return ? mapped(it.return(v)) : Promise.resolve({ done: true as const, value: v })),
      };
    },
  };
}
