// `npm run fetch-programs` against a second local chain as the "remote": the programs it dumps are
// byte for byte the binaries the remote was started with, the accounts are the remote's, and the
// embedded chain started from the dumped folders serves them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Connection, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchPrograms } from "../../scripts/fetch-programs.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";

const PROGRAMS = ["CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C", "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc"];

describe.skipIf(!hasChainDir())("npm run fetch-programs (a second local chain as the remote)", () => {
  const out = mkdtempSync(join(tmpdir(), "swapd-fetch-"));
  let remote: Localnet;
  let local: Localnet | undefined;
  beforeAll(async () => {
    remote = await startLocalnet({ port: 0, programsDir: join(CHAIN_DIR!, "programs") });
    await seedDemo(remote);
  }, 120_000);
  afterAll(async () => {
    await local?.close();
    await remote?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it("dumps the programs' ELF and the accounts, which the embedded chain then loads", async () => {
    const pool = DEMO_POOLS.raydiumCpSolUsdc.toBase58();
    const lines: string[] = [];
    await fetchPrograms({ url: remote.url, out, programs: PROGRAMS, accounts: [pool], log: (l) => lines.push(l) });
    for (const id of PROGRAMS) {
      const original = readFileSync(join(CHAIN_DIR!, "programs", `${id}.so`));
      const dumped = readFileSync(join(out, "programs", `${id}.so`));
      // The program data account may be larger than the ELF (zero padding), as on mainnet.
      expect(dumped.subarray(0, original.length).equals(original)).toBe(true);
      expect(dumped.subarray(original.length).every((b) => b === 0)).toBe(true);
    }
    const remoteInfo = (await new Connection(remote.url).getAccountInfo(new PublicKey(pool)))!;
    const file = JSON.parse(readFileSync(join(out, "accounts", `${pool}.json`), "utf8"));
    expect(file).toMatchObject({ pubkey: pool, account: { lamports: remoteInfo.lamports, owner: remoteInfo.owner.toBase58(), executable: false } });
    expect(Buffer.from(file.account.data[0], "base64").equals(remoteInfo.data)).toBe(true);

    local = await startLocalnet({ port: 0, programsDir: join(out, "programs"), accountsDir: join(out, "accounts") });
    const connection = new Connection(local.url);
    expect((await connection.getAccountInfo(new PublicKey(pool)))!.data.equals(remoteInfo.data)).toBe(true);
    expect((await connection.getAccountInfo(new PublicKey(PROGRAMS[0])))!.executable).toBe(true);
  }, 120_000);

  it("an address that is not a program is refused naming it", async () => {
    await expect(fetchPrograms({ url: remote.url, out, programs: [DEMO_POOLS.raydiumCpSolUsdc.toBase58()], accounts: [], log: () => {} })).rejects.toThrow(
      /not a program of a BPF loader/,
    );
  });
});

describe("npm run fetch-programs with an unreachable RPC", () => {
  it("says the RPC is unreachable and leaves nothing behind", async () => {
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const parent = mkdtempSync(join(tmpdir(), "swapd-fetch-unreachable-"));
    const out = join(parent, "chain");
    try {
      const url = `http://127.0.0.1:${port}`;
      await expect(fetchPrograms({ url, out, programs: PROGRAMS, accounts: [], log: () => {} })).rejects.toThrow(
        new RegExp(`^the RPC at ${url}/? is unreachable \\(.*ECONNREFUSED.*\\); nothing was written$`),
      );
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
