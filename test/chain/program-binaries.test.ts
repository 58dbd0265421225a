// Program binaries over the embedded chain's real JSON-RPC port: the ELF read through the program
// and programdata accounts equals what the SVM holds (read directly, not over RPC), a disk copy
// serves a restart whose RPC is down, and an upgrade (a new binary at a later slot) is noticed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProgramBinaries, readProgramBinary } from "../../src/chain/program-binaries.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

const TOKEN = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const TOKEN_2022 = new PublicKey("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");

/** A program's ELF as the SVM stores it: programdata's data after its 45-byte header. */
function elfInSvm(localnet: Localnet, programId: PublicKey): Uint8Array {
  const program = localnet.getAccount(programId)!;
  const programData = localnet.getAccount(new PublicKey(program.data.subarray(4, 36)))!;
  return programData.data.subarray(45);
}

describe("program binaries from the chain", () => {
  let localnet: Localnet;
  let cacheDir: string;
  const programId = Keypair.generate().publicKey;

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    cacheDir = await mkdtemp(join(tmpdir(), "swapd-programs-"));
    // A program of our own at a fresh id, deployed with SPL Token's binary.
    localnet.chain.addProgram(programId, elfInSvm(localnet, TOKEN));
  });
  afterAll(async () => {
    await localnet?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("reads the ELF through the program's programdata account, as the SVM holds it", async () => {
    const chain = new RpcSolanaChain({ url: localnet.url });
    const binary = await readProgramBinary(chain, programId);
    expect(Buffer.from(binary.elf).equals(Buffer.from(elfInSvm(localnet, TOKEN)))).toBe(true);
    expect(binary.elf.length).toBeGreaterThan(10_000);
    await expect(readProgramBinary(chain, Keypair.generate().publicKey)).rejects.toThrow(/does not exist/);
  });

  it("keeps a disk copy that serves a start whose RPC is down, and notices an upgrade", async () => {
    const binaries = new ProgramBinaries({ chain: new RpcSolanaChain({ url: localnet.url }), cacheDir });
    const first = await binaries.load(programId);

    const deadRpc = new RpcSolanaChain({ url: "http://127.0.0.1:9", timeoutMs: 1_000, maxRetries: 0 });
    const fromDisk = await new ProgramBinaries({ chain: deadRpc, cacheDir }).load(programId);
    expect(fromDisk.deploySlot).toBe(first.deploySlot);
    expect(Buffer.from(fromDisk.elf).equals(Buffer.from(first.elf))).toBe(true);
    await expect(new ProgramBinaries({ chain: deadRpc }).load(programId)).rejects.toThrow();

    expect(await binaries.refresh()).toEqual([]);
    localnet.airdrop(Keypair.generate().publicKey, 1_000_000_000n); // a landed transaction: the next slot
    localnet.chain.addProgram(programId, elfInSvm(localnet, TOKEN_2022));
    const upgraded = await binaries.refresh();
    expect(upgraded).toHaveLength(1);
    expect(Buffer.from(upgraded[0].elf).equals(Buffer.from(elfInSvm(localnet, TOKEN_2022)))).toBe(true);
  });
});
