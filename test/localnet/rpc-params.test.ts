// Oversized base58 params are refused (-32602, naming the param) before they are decoded: base58
// decoding is quadratic, so a 200k-character key decoded as-is would block the localnet's event
// loop for tens of seconds. Limits as the Solana RPC's (agave rpc.rs): a transaction is at most
// 1683 base58 / 1644 base64 characters, memcmp filter bytes at most 175 base58 / 172 base64.
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

describe("localnet JSON-RPC params: lengths checked before decoding", () => {
  let localnet: Localnet;

  beforeAll(async () => {
    localnet = await startLocalnet();
  });
  afterAll(async () => {
    await localnet.close();
  });

  async function call(method: string, params: unknown[]): Promise<{ answer: RpcAnswer; ms: number }> {
    const started = performance.now();
    const response = await fetch(localnet.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const answer = (await response.json()) as RpcAnswer;
    return { answer, ms: performance.now() - started };
  }

  const hugeBase58 = "2".repeat(200_000);

  it("a 200k-character key answers -32602 quickly, naming the param, without echoing the text", async () => {
    const { answer, ms } = await call("getBalance", [hugeBase58]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Invalid params: pubkey: /);
    expect(answer.error!.message.length).toBeLessThan(200);
    expect(ms).toBeLessThan(1_000);
  });

  it("names the offending element of a key list", async () => {
    const good = Keypair.generate().publicKey.toBase58();
    const { answer, ms } = await call("getMultipleAccounts", [[good, hugeBase58]]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Invalid params: pubkeys\[1\]: /);
    expect(ms).toBeLessThan(1_000);
  });

  it("valid keys still work", async () => {
    const { answer } = await call("getBalance", [Keypair.generate().publicKey.toBase58()]);
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ value: 0 });
  });

  it("a transaction longer than 1683 base58 characters is refused before decoding", async () => {
    for (const method of ["sendTransaction", "simulateTransaction"]) {
      const { answer, ms } = await call(method, [hugeBase58]);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(/^Invalid params: transaction: .*too long/);
      expect(ms).toBeLessThan(1_000);
    }
    const { answer } = await call("sendTransaction", ["2".repeat(1_684)]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Invalid params: transaction: .*too long/);
  });

  it("a transaction longer than 1644 base64 characters is refused", async () => {
    const { answer } = await call("sendTransaction", ["A".repeat(1_648), { encoding: "base64" }]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Invalid params: transaction: .*too long/);
  });

  it("a message for getFeeForMessage is capped like a transaction", async () => {
    const { answer } = await call("getFeeForMessage", ["A".repeat(1_648)]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Invalid params: message: .*too long/);
  });

  it("memcmp filter bytes longer than 175 base58 characters are refused, naming the filter", async () => {
    const programId = Keypair.generate().publicKey.toBase58();
    const { answer, ms } = await call("getProgramAccounts", [programId, { filters: [{ memcmp: { offset: 0, bytes: hugeBase58 } }] }]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Invalid params: filters\[0\]\.memcmp\.bytes: .*too long/);
    expect(ms).toBeLessThan(1_000);
    const { answer: at176 } = await call("getProgramAccounts", [programId, { filters: [{ memcmp: { offset: 0, bytes: "2".repeat(176) } }] }]);
    expect(at176.error?.code).toBe(-32602);
    // 175 characters pass the length check (decoding to at most 128 bytes): no error.
    const { answer: at175 } = await call("getProgramAccounts", [programId, { filters: [{ memcmp: { offset: 0, bytes: "2".repeat(175) } }] }]);
    expect(at175.error).toBeUndefined();
    expect(at175.result).toEqual([]);
  });
});
