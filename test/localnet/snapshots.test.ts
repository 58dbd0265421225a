import { createHash } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Connection, Keypair, PublicKey, Transaction, TransactionInstruction, sendAndConfirmTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalChain } from "../../src/localnet/local-chain.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

const CARBON = fileURLToPath(new URL("../fixtures/reference/fixtures/carbon/", import.meta.url));
const MEMO_V3 = new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

interface CarbonFixture {
  data: string;
  owner: string;
  lamports: number;
  executable: boolean;
  rent_epoch: number;
  space: number;
}

/** A fixed address per fixture file (the carbon fixtures do not store their pubkey). */
function addressFor(name: string): PublicKey {
  return Keypair.fromSeed(createHash("sha256").update(name).digest()).publicKey;
}

async function carbonFixtures(): Promise<{ name: string; fixture: CarbonFixture }[]> {
  const out: { name: string; fixture: CarbonFixture }[] = [];
  for (const dir of await readdir(CARBON, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of await readdir(join(CARBON, dir.name))) {
      if (!file.endsWith("_account.json")) continue;
      out.push({ name: `${dir.name}/${file}`, fixture: JSON.parse(await readFile(join(CARBON, dir.name, file), "utf8")) as CarbonFixture });
    }
  }
  return out;
}

describe("localnet snapshots (LOCALNET_ACCOUNTS_DIR / LOCALNET_PROGRAMS_DIR)", () => {
  let accountsDir: string;
  let programsDir: string;
  let localnet: Localnet;
  let fixtures: { name: string; fixture: CarbonFixture }[];
  const executableCopy = addressFor("executable memo copy");
  const programCopy = Keypair.generate().publicKey;
  let memoElf: Uint8Array;

  beforeAll(async () => {
    accountsDir = await mkdtemp(join(tmpdir(), "swapd-accounts-"));
    programsDir = await mkdtemp(join(tmpdir(), "swapd-programs-"));
    fixtures = await carbonFixtures();
    for (const { name, fixture } of fixtures) {
      // `solana account --output json` format.
      const snapshot = {
        pubkey: addressFor(name).toBase58(),
        account: {
          lamports: fixture.lamports,
          data: [fixture.data, "base64"],
          owner: fixture.owner,
          executable: fixture.executable,
          rentEpoch: fixture.rent_epoch,
          space: fixture.space,
        },
      };
      await writeFile(join(accountsDir, `${name.replace("/", "-")}.json`), JSON.stringify(snapshot));
    }
    // An executable account and a program: LiteSVM's own SPL Memo v3 ELF, under other addresses.
    const memo = new LocalChain().getAccount(MEMO_V3)!;
    memoElf = memo.data;
    await writeFile(
      join(accountsDir, "memo-copy.json"),
      JSON.stringify({
        pubkey: executableCopy.toBase58(),
        account: {
          lamports: Number(memo.lamports),
          data: [Buffer.from(memo.data).toString("base64"), "base64"],
          owner: memo.owner.toBase58(),
          executable: true,
          rentEpoch: 0,
        },
      }),
    );
    await writeFile(join(programsDir, `${programCopy.toBase58()}.so`), memo.data);
    localnet = await startLocalnet({ accountsDir, programsDir });
  });
  afterAll(async () => {
    await localnet?.close();
    await rm(accountsDir, { recursive: true, force: true });
    await rm(programsDir, { recursive: true, force: true });
  });

  it("loads the real mainnet accounts with owner, lamports, data and executable intact", async () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    const connection = new Connection(localnet.url, "confirmed");
    const infos = await connection.getMultipleAccountsInfo(fixtures.map(({ name }) => addressFor(name)));
    fixtures.forEach(({ fixture }, i) => {
      const info = infos[i];
      expect(info?.owner.toBase58()).toBe(fixture.owner);
      expect(info?.lamports).toBe(fixture.lamports);
      expect(info?.executable).toBe(fixture.executable);
      expect(Buffer.from(info!.data).toString("base64")).toBe(fixture.data);
      expect(info?.data.length).toBe(fixture.space);
    });
    const copy = await connection.getAccountInfo(executableCopy);
    expect(copy?.executable).toBe(true);
    expect(Buffer.from(copy!.data).equals(Buffer.from(memoElf))).toBe(true);
  });

  it("serves the loaded accounts to getProgramAccounts", async () => {
    const connection = new Connection(localnet.url, "confirmed");
    const clmm = fixtures.filter(({ fixture }) => fixture.owner === "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK");
    expect(clmm.length).toBeGreaterThan(0);
    const found = await connection.getProgramAccounts(new PublicKey("CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK"));
    expect(found.map((f) => f.pubkey.toBase58()).sort()).toEqual(clmm.map(({ name }) => addressFor(name).toBase58()).sort());
  });

  it("runs a program loaded from <programId>.so", async () => {
    const connection = new Connection(localnet.url, "confirmed");
    const payer = Keypair.generate();
    localnet.airdrop(payer.publicKey, 1_000_000_000n);
    const tx = new Transaction().add(new TransactionInstruction({ programId: programCopy, keys: [], data: Buffer.from("hello swapd") }));
    const signature = await sendAndConfirmTransaction(connection, tx, [payer]);
    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(fetched?.meta?.logMessages).toContain(`Program ${programCopy.toBase58()} success`);
    expect(fetched?.meta?.logMessages?.some((l) => l.includes("hello swapd"))).toBe(true);
  });

  it("names the file of an invalid snapshot", async () => {
    const bad = await mkdtemp(join(tmpdir(), "swapd-bad-"));
    await writeFile(
      join(bad, "broken.json"),
      JSON.stringify({
        pubkey: Keypair.generate().publicKey.toBase58(),
        account: { lamports: 1, data: ["AA==", "base58"], owner: PublicKey.default.toBase58(), executable: false, rentEpoch: 0 },
      }),
    );
    await expect(startLocalnet({ accountsDir: bad })).rejects.toThrow(/broken\.json.*base58/);
    // A key that is not base58 is named with its file and field too.
    await writeFile(
      join(bad, "broken.json"),
      JSON.stringify({
        pubkey: "not-a-key",
        account: { lamports: 1, data: ["AA==", "base64"], owner: PublicKey.default.toBase58(), executable: false, rentEpoch: 0 },
      }),
    );
    await expect(startLocalnet({ accountsDir: bad })).rejects.toThrow(/broken\.json: pubkey/);
    await rm(bad, { recursive: true, force: true });
  });
});
