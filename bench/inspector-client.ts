/**
 * A minimal Chrome DevTools Protocol client for a child started with `--inspect=127.0.0.1:0`: the
 * soak asks it for a full GC (`HeapProfiler.collectGarbage`, DevTools' "collect garbage" button)
 * and its live heap (`Runtime.getHeapUsage`), so that memory is compared at the same point of the
 * GC cycle instead of wherever V8's sawtooth happens to be.
 */
import { once } from "node:events";
import WebSocket from "ws";
import { messageText } from "../src/chain/websocket-message-text.js";

export interface InspectorClient {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

/** The inspector's websocket address, from the child's stderr (`Debugger listening on ws://…`). */
export function inspectorUrlFrom(stderr: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
}

export async function connectInspector(url: string): Promise<InspectorClient> {
  const ws = new WebSocket(url);
  await once(ws, "open");
  let nextId = 0;
  const waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  ws.on("message", (data) => {
    const message = JSON.parse(messageText(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return; // events
    const w = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) w?.reject(new Error(`inspector: ${message.error.message}`));
    else w?.resolve(message.result);
  });
  ws.on("close", () => {
    for (const w of waiting.values()) w.reject(new Error("inspector: connection closed"));
    waiting.clear();
  });
  return {
    call: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}
