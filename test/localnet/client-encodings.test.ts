// What real clients ask of the localnet beyond the current RPC: `base64+zstd` account data
// (getAccountInfo, getMultipleAccounts, getProgramAccounts; @solana/kit's own request types, decoded
// here with fzstd, a Zstandard decoder independent of the one the localnet compresses with) and the
// deprecated `getRecentBlockhash` / `getFees` (older web3.js releases, which Jupiter's JavaScript router
// pins, call them; today's web3.js answers them from getLatestBlockhash, so they are asked raw here).
import { address, createSolanaRpc } from "@solana/kit";
import { Connection, Keypair, SystemProgram, TransactionMessage } from "@solana/web3.js";
import { decompress } from "fzstd";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

describe("the localnet speaks what real clients ask", () => {
  let localnet: Localnet;
  const owner = Keypair.generate().publicKey;
  // A pool-sized account of compressible content (zeros and a repeated pattern, as real pools) and a random one.
  const patterned = Keypair.generate().publicKey;
  const patternedData = new Uint8Array(10_240).map((_, i) => (i % 512 < 300 ? 0 : i % 7));
  const random = Keypair.generate().publicKey;
  const randomData = new Uint8Array(randomBytes(1_000));

  beforeAll(async () => {
    localnet = await startLocalnet();
    localnet.setAccount(patterned, { lamports: 10_000_000n, data: patternedData, owner });
    localnet.setAccount(random, { lamports: 10_000_000n, data: randomData, owner });
  });
  afterAll(async () => {
    await localnet.close();
  });

  const unzstd = ([text, encoding]: readonly [string, string]) => {
    expect(encoding).toBe("base64+zstd");
    return Buffer.from(decompress(Buffer.from(text, "base64")));
  };

  it("getAccountInfo with base64+zstd (@solana/kit): the data decompresses to the account's bytes, and is smaller", async () => {
    const rpc = createSolanaRpc(localnet.url);
    const info = await rpc.getAccountInfo(address(patterned.toBase58()), { encoding: "base64+zstd" }).send();
    expect(info.value?.owner).toBe(owner.toBase58());
    expect(info.value?.space).toBe(10_240n);
    expect(unzstd(info.value!.data).equals(Buffer.from(patternedData))).toBe(true);
    expect(Buffer.from(info.value!.data[0], "base64").length).toBeLessThan(patternedData.length / 4);
    // With a data slice: the slice is what is compressed.
    const sliced = await rpc.getAccountInfo(address(random.toBase58()), { encoding: "base64+zstd", dataSlice: { offset: 100, length: 50 } }).send();
    expect(unzstd(sliced.value!.data).equals(Buffer.from(randomData.subarray(100, 150)))).toBe(true);
  });

  it("getMultipleAccounts and getProgramAccounts with base64+zstd", async () => {
    const rpc = createSolanaRpc(localnet.url);
    const missing = Keypair.generate().publicKey;
    const many = await rpc
      .getMultipleAccounts([address(random.toBase58()), address(missing.toBase58()), address(patterned.toBase58())], { encoding: "base64+zstd" })
      .send();
    expect(many.value[1]).toBeNull();
    expect(unzstd(many.value[0]!.data).equals(Buffer.from(randomData))).toBe(true);
    expect(unzstd(many.value[2]!.data).equals(Buffer.from(patternedData))).toBe(true);

    const listed = await rpc.getProgramAccounts(address(owner.toBase58()), { encoding: "base64+zstd" }).send();
    const byKey = new Map(listed.map((entry) => [entry.pubkey as string, unzstd(entry.account.data)]));
    expect(byKey.size).toBe(2);
    expect(byKey.get(random.toBase58())?.equals(Buffer.from(randomData))).toBe(true);
    expect(byKey.get(patterned.toBase58())?.equals(Buffer.from(patternedData))).toBe(true);
  });

  async function rawCall<T>(method: string): Promise<T> {
    const res = await fetch(localnet.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }),
    });
    return ((await res.json()) as { result: T }).result;
  }

  it("getRecentBlockhash and getFees give the current blockhash (as getLatestBlockhash) and the fee per signature", async () => {
    const connection = new Connection(localnet.url, "confirmed");
    type Fees = {
      context: { slot: number };
      value: { blockhash: string; feeCalculator: { lamportsPerSignature: number }; lastValidSlot: number; lastValidBlockHeight: number };
    };
    const recent = await rawCall<{ context: { slot: number }; value: { blockhash: string; feeCalculator: { lamportsPerSignature: number } } }>(
      "getRecentBlockhash",
    );
    const fees = await rawCall<Fees>("getFees");
    const latest = await connection.getLatestBlockhash();
    expect(recent.value.blockhash).toBe(latest.blockhash);
    expect(fees.value.blockhash).toBe(latest.blockhash);
    expect(fees.value.lastValidBlockHeight).toBe(latest.lastValidBlockHeight);
    expect(fees.value.lastValidBlockHeight).toBeGreaterThan(fees.context.slot);
    // The fee per signature is what the chain charges: a one-signature message's fee.
    const { blockhash } = latest;
    const payer = Keypair.generate();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: owner, lamports: 1 })],
    }).compileToV0Message();
    const feeForMessage = await connection.getFeeForMessage(message);
    expect(recent.value.feeCalculator.lamportsPerSignature).toBe(feeForMessage.value);
    expect(fees.value.feeCalculator.lamportsPerSignature).toBe(feeForMessage.value);
  });
});
