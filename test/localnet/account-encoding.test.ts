/**
 * base58 account data is capped at 128 bytes (after `dataSlice`), as a validator does
 * (agave rpc.rs `encode_account`: JSON-RPC -32600 "Encoded binary (base 58) data should be less
 * than 128 bytes, please use Base64 encoding."); base64 has no such cap.
 */
import { address, createSolanaRpc, isSolanaError, SOLANA_ERROR__JSON_RPC__INVALID_REQUEST } from "@solana/kit";
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import bs58 from "bs58";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountData } from "../../src/core/solana/account.js";
import { encodeAccount } from "../../src/localnet/account-encoding.js";
import { JsonRpcError } from "../../src/localnet/json-rpc-error.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

// The validator's wording and code (JSON-RPC 2.0 "Invalid Request").
const REFUSAL = "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.";
const INVALID_REQUEST = -32600;

function accountOf(data: Uint8Array): AccountData {
  return { address: Keypair.generate().publicKey, owner: SystemProgram.programId, lamports: 1n, data, executable: false };
}

function refusal(run: () => unknown): JsonRpcError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcError);
    return error as JsonRpcError;
  }
  throw new Error("expected a refusal");
}

describe("encodeAccount: the base58 cap", () => {
  it("encodes up to 128 bytes as base58, refuses 129 with -32600 and the validator's message", () => {
    const data = new Uint8Array(randomBytes(129));
    const ok = encodeAccount(accountOf(data.subarray(0, 128)), { encoding: "base58" });
    expect(ok.data[1]).toBe("base58");
    expect(Buffer.from(bs58.decode(ok.data[0])).equals(Buffer.from(data.subarray(0, 128)))).toBe(true);

    const error = refusal(() => encodeAccount(accountOf(data), { encoding: "base58" }));
    expect(error.toJSON()).toEqual({ code: INVALID_REQUEST, message: REFUSAL });
  });

  it("caps the sliced data, not the account: min(length, size - offset)", () => {
    const data = new Uint8Array(randomBytes(4096));
    const account = accountOf(data);
    const sliced = encodeAccount(account, { encoding: "base58", dataSlice: { offset: 100, length: 128 } });
    expect(Buffer.from(bs58.decode(sliced.data[0])).equals(Buffer.from(data.subarray(100, 228)))).toBe(true);
    expect(sliced.space).toBe(4096);
    // A long slice that runs past the end holds only the 128 bytes left.
    const tail = encodeAccount(account, { encoding: "base58", dataSlice: { offset: 4096 - 128, length: 1000 } });
    expect(Buffer.from(bs58.decode(tail.data[0])).equals(Buffer.from(data.subarray(4096 - 128)))).toBe(true);
    expect(refusal(() => encodeAccount(account, { encoding: "base58", dataSlice: { offset: 0, length: 129 } })).code).toBe(INVALID_REQUEST);
  });

  it("base64 and jsonParsed (its base64 fallback) are not capped", () => {
    const data = new Uint8Array(randomBytes(10_240));
    for (const encoding of ["base64", "jsonParsed"]) {
      const out = encodeAccount(accountOf(data), { encoding });
      expect(out.data[1]).toBe("base64");
      expect(Buffer.from(out.data[0], "base64").equals(Buffer.from(data))).toBe(true);
    }
  });
});

describe("the base58 cap over the localnet RPC", () => {
  let localnet: Localnet;
  const owner = Keypair.generate().publicKey;
  const big = Keypair.generate().publicKey;
  const small = Keypair.generate().publicKey;
  const bigData = new Uint8Array(randomBytes(165)); // a token account's size
  const smallData = new Uint8Array(randomBytes(82)); // a mint's size

  beforeAll(async () => {
    localnet = await startLocalnet();
    localnet.setAccount(big, { lamports: 10_000_000n, data: bigData, owner });
    localnet.setAccount(small, { lamports: 10_000_000n, data: smallData, owner });
  });
  afterAll(async () => {
    await localnet.close();
  });

  async function rawCall(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const res = await fetch(localnet.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  }

  it("answers getAccountInfo, getMultipleAccounts and getProgramAccounts with the -32600 error", async () => {
    const base58 = { encoding: "base58" };
    for (const [method, params] of [
      ["getAccountInfo", [big.toBase58(), base58]],
      ["getMultipleAccounts", [[small.toBase58(), big.toBase58()], base58]],
      ["getProgramAccounts", [owner.toBase58(), base58]],
    ] as const) {
      const body = await rawCall(method, [...params]);
      expect(body.result, method).toBeUndefined();
      expect(body.error, method).toEqual({ code: INVALID_REQUEST, message: REFUSAL });
    }
    // Sliced to 32 bytes, every account fits.
    const sliced = await rawCall("getProgramAccounts", [owner.toBase58(), { ...base58, dataSlice: { offset: 0, length: 32 } }]);
    const list = sliced.result as { pubkey: string; account: { data: [string, string] } }[];
    const bytes = new Map(list.map((e) => [e.pubkey, Buffer.from(bs58.decode(e.account.data[0]))]));
    expect(bytes.get(big.toBase58())?.equals(Buffer.from(bigData.subarray(0, 32)))).toBe(true);
    expect(bytes.get(small.toBase58())?.equals(Buffer.from(smallData.subarray(0, 32)))).toBe(true);
  });

  it("an unmodified @solana/kit client sees SOLANA_ERROR__JSON_RPC__INVALID_REQUEST, and reads small accounts", async () => {
    const rpc = createSolanaRpc(localnet.url);
    const error = await rpc
      .getAccountInfo(address(big.toBase58()), { encoding: "base58" })
      .send()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_REQUEST)).toBe(true);
    expect((error as { context: { __serverMessage: string } }).context.__serverMessage).toBe(REFUSAL);

    const ok = await rpc.getAccountInfo(address(small.toBase58()), { encoding: "base58" }).send();
    expect(Buffer.from(bs58.decode(ok.value!.data[0])).equals(Buffer.from(smallData))).toBe(true);
    expect(new PublicKey(ok.value!.owner).equals(owner)).toBe(true);
  });
});
