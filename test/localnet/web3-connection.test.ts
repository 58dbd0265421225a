import {
  AccountLayout,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSyncNativeInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  sendAndConfirmTransaction,
} from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import bs58 from "bs58";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageText } from "../../src/chain/websocket-message-text.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";

// An unmodified web3.js Connection (HTTP + its websocket at port + 1) against the embedded chain.
describe("localnet with an unmodified web3.js Connection", () => {
  let localnet: Localnet;
  let connection: Connection;
  const payer = Keypair.generate();

  beforeAll(async () => {
    localnet = await startLocalnet();
    connection = new Connection(localnet.url, "confirmed");
  });
  afterAll(async () => {
    await localnet.close();
  });

  async function sendV0(
    instructions: TransactionInstruction[],
    signers: Keypair[] = [payer],
    tables = [] as Parameters<TransactionMessage["compileToV0Message"]>[0],
  ) {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message(tables);
    const tx = new VersionedTransaction(message);
    tx.sign(signers);
    const signature = await connection.sendTransaction(tx);
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    return { signature, confirmation, tx };
  }

  it("airdrops and confirms through the websocket", async () => {
    const signature = await connection.requestAirdrop(payer.publicKey, 20 * LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    const confirmation = await connection.confirmTransaction({ signature, ...latest });
    expect(confirmation.value.err).toBeNull();
    expect(await connection.getBalance(payer.publicKey)).toBe(20 * LAMPORTS_PER_SOL);
    expect(await connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect((await connection.getVersion())["solana-core"]).toBeTruthy();
  });

  it("creates an ATA idempotently (twice), wraps and unwraps SOL with sendAndConfirmTransaction", async () => {
    const ata = getAssociatedTokenAddressSync(NATIVE_MINT, payer.publicKey);
    const wrap = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, payer.publicKey, NATIVE_MINT),
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, payer.publicKey, NATIVE_MINT),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: ata, lamports: LAMPORTS_PER_SOL }),
      createSyncNativeInstruction(ata),
    );
    await sendAndConfirmTransaction(connection, wrap, [payer]);
    const info = await connection.getAccountInfo(ata);
    expect(info?.owner.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(AccountLayout.decode(info!.data).amount).toBe(BigInt(LAMPORTS_PER_SOL));

    // The same idempotent create again in a new transaction succeeds and changes nothing.
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, payer.publicKey, NATIVE_MINT)),
      [payer],
    );
    expect(AccountLayout.decode((await connection.getAccountInfo(ata))!.data).amount).toBe(BigInt(LAMPORTS_PER_SOL));

    const before = await connection.getBalance(payer.publicKey);
    const rent = (await connection.getAccountInfo(ata))!.lamports;
    await sendAndConfirmTransaction(connection, new Transaction().add(createCloseAccountInstruction(ata, payer.publicKey, payer.publicKey)), [payer]);
    expect(await connection.getAccountInfo(ata)).toBeNull();
    // Unwrapping returns the wrapped SOL and the rent, minus the 5000-lamport signature fee.
    expect(await connection.getBalance(payer.publicKey)).toBe(before + rent - 5000);
  });

  it("runs a v0 transaction through a lookup table created on the localnet", async () => {
    const slot = await connection.getSlot();
    const owner = Keypair.generate().publicKey;
    const ata = getAssociatedTokenAddressSync(NATIVE_MINT, owner);
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot: slot });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: payer.publicKey,
      payer: payer.publicKey,
      addresses: [ata, owner, NATIVE_MINT, TOKEN_PROGRAM_ID, SystemProgram.programId],
    });
    await sendAndConfirmTransaction(connection, new Transaction().add(create, extend), [payer]);
    const lookup = (await connection.getAddressLookupTable(table)).value;
    expect(lookup?.state.addresses.map((a) => a.toBase58())).toEqual(
      [ata, owner, NATIVE_MINT, TOKEN_PROGRAM_ID, SystemProgram.programId].map((a) => a.toBase58()),
    );

    const { signature, confirmation, tx } = await sendV0(
      [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1000 }),
        createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, owner, NATIVE_MINT),
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: ata, lamports: 1_000_000 }),
        createSyncNativeInstruction(ata),
      ],
      [payer],
      [lookup!],
    );
    expect(confirmation.value.err).toBeNull();
    expect(tx.message.addressTableLookups).toHaveLength(1);
    expect(tx.message.addressTableLookups[0].writableIndexes).toEqual([0]); // the ATA came from the table
    expect(AccountLayout.decode((await connection.getAccountInfo(ata))!.data).amount).toBe(1_000_000n);

    const status = await connection.getSignatureStatuses([signature]);
    expect(status.value[0]?.err).toBeNull();
    expect(status.value[0]?.confirmationStatus).toBe("finalized");

    // getTransaction: v0 with loaded addresses, inner instructions (ATA program → token/system CPIs) and logs.
    const fetched = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: "confirmed" });
    expect(fetched?.version).toBe(0);
    expect(fetched?.meta?.loadedAddresses?.writable.map((k) => k.toBase58())).toEqual([ata.toBase58()]);
    expect(fetched?.meta?.logMessages?.some((l) => l.includes("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL invoke [1]"))).toBe(true);
    const ataInner = fetched?.meta?.innerInstructions?.find((i) => i.index === 2);
    expect(ataInner?.instructions.length).toBeGreaterThan(0);
    const keys = fetched!.transaction.message.getAccountKeys({ accountKeysFromLookups: fetched!.meta!.loadedAddresses! });
    const innerPrograms = ataInner!.instructions.map((ix) => keys.get(ix.programIdIndex)!.toBase58());
    expect(innerPrograms).toContain(TOKEN_PROGRAM_ID.toBase58());
    expect(innerPrograms).toContain(SystemProgram.programId.toBase58());
    // fee = 5000 per signature + ceil(1000 µlamports × 200k CU / 1e6) = 5000 + 200
    expect(fetched?.meta?.fee).toBe(5200);
    expect(fetched!.meta!.preBalances[0] - fetched!.meta!.postBalances[0]).toBeGreaterThan(1_000_000);

    // Token balances: the ATA did not exist before; after, it holds 0.001 wrapped SOL (9 decimals).
    const ataIndex = keys.staticAccountKeys.length; // first loaded (writable) address
    expect(fetched?.meta?.preTokenBalances?.find((b) => b.accountIndex === ataIndex)).toBeUndefined();
    expect(fetched?.meta?.postTokenBalances?.find((b) => b.accountIndex === ataIndex)).toMatchObject({
      mint: NATIVE_MINT.toBase58(),
      owner: owner.toBase58(),
      programId: TOKEN_PROGRAM_ID.toBase58(),
      uiTokenAmount: { amount: "1000000", decimals: 9, uiAmountString: "0.001" },
    });
    expect((await connection.getTokenAccountBalance(ata)).value).toMatchObject({ amount: "1000000", decimals: 9, uiAmount: 0.001 });

    const history = await connection.getSignaturesForAddress(ata, { limit: 10 });
    expect(history.map((h) => h.signature)).toEqual([signature]);
    const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [ata] });
    expect(fees.find((f) => f.slot === fetched!.slot)?.prioritizationFee).toBe(1000);
  });

  it("simulates: units consumed and logs, and an error case", async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const ok = new VersionedTransaction(
      new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 })],
      }).compileToV0Message(),
    );
    // Unsigned, with a stale blockhash replaced by the node.
    ok.message.recentBlockhash = PublicKey.default.toBase58();
    const sim = await connection.simulateTransaction(ok, { sigVerify: false, replaceRecentBlockhash: true });
    expect(sim.value.err).toBeNull();
    expect(sim.value.unitsConsumed).toBeGreaterThan(0);
    expect(sim.value.logs).toContain("Program 11111111111111111111111111111111 success");

    const tooMuch = new VersionedTransaction(
      new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 * LAMPORTS_PER_SOL })],
      }).compileToV0Message(),
    );
    const failed = await connection.simulateTransaction(tooMuch, { sigVerify: false, replaceRecentBlockhash: true });
    // System program error 1 = ResultWithNegativeLamports (insufficient funds for a transfer).
    expect(failed.value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(failed.value.logs?.some((l) => l.includes("insufficient lamports"))).toBe(true);

    // Sending it with preflight: -32002 with the logs, nothing lands.
    tooMuch.sign([payer]);
    const error = await connection.sendTransaction(tooMuch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendTransactionError);
    expect((error as SendTransactionError).logs?.some((l) => l.includes("insufficient lamports"))).toBe(true);
    const status = await connection.getSignatureStatus(bs58.encode(tooMuch.signatures[0]));
    expect(status.value).toBeNull();

    // Without preflight it lands as failed and is kept.
    const sig = await connection.sendTransaction(tooMuch, { skipPreflight: true });
    const landed = await connection.getSignatureStatuses([sig]);
    expect(landed.value[0]?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    const tx = await connection.getTransaction(sig, { maxSupportedTransactionVersion: 0 });
    expect(tx?.meta?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(tx?.meta?.logMessages?.length).toBeGreaterThan(0);
  });

  it("answers getProgramAccounts with memcmp and dataSize filters", async () => {
    const mintA = Keypair.generate().publicKey;
    const mintB = Keypair.generate().publicKey;
    const holder = Keypair.generate().publicKey;
    const tokenAccount = (mint: PublicKey) => {
      const data = encodeTokenAccount(mint, holder, 5n, null);
      return { lamports: 2_039_280n, data, owner: TOKEN_PROGRAM_ID };
    };
    const a = Keypair.generate().publicKey;
    const b = Keypair.generate().publicKey;
    localnet.setAccount(a, tokenAccount(mintA));
    localnet.setAccount(b, tokenAccount(mintB));
    const found = await connection.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ dataSize: AccountLayout.span }, { memcmp: { offset: 0, bytes: mintA.toBase58() } }],
    });
    expect(found.map((f) => f.pubkey.toBase58())).toEqual([a.toBase58()]);
    const byOwner = await connection.getProgramAccounts(TOKEN_PROGRAM_ID, { filters: [{ memcmp: { offset: 32, bytes: holder.toBase58() } }] });
    expect(byOwner.map((f) => f.pubkey.toBase58()).sort()).toEqual([a.toBase58(), b.toBase58()].sort());
  });

  it("websocket: a message that is JSON but not an object is answered -32600, and the socket keeps serving", async () => {
    const socket = new WebSocket(localnet.websocketUrl);
    const answers: unknown[] = [];
    const next = () =>
      new Promise<unknown>((resolve) => {
        const poll = () => (answers.length > 0 ? resolve(answers.shift()) : setTimeout(poll, 5));
        poll();
      });
    socket.on("message", (raw) => answers.push(JSON.parse(messageText(raw))));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    try {
      for (const junk of ["null", "7", "[1]"]) {
        socket.send(junk);
        expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
      }
      const signature = localnet.airdrop(Keypair.generate().publicKey, 1_000_000_000n);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "signatureSubscribe", params: [signature] }));
      expect(await next()).toMatchObject({ id: 1, result: expect.any(Number) });
      expect(await next()).toMatchObject({ method: "signatureNotification", params: { result: { value: { err: null } } } });
    } finally {
      socket.close();
    }
  });

  it("answers JSON-RPC errors with Solana's codes", async () => {
    const post = async (body: unknown) =>
      (await fetch(localnet.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
    expect(await post({ jsonrpc: "2.0", id: 1, method: "noSuchMethod", params: [] })).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(await post({ jsonrpc: "2.0", id: 2, method: "getBalance", params: ["not-a-key"] })).toMatchObject({ id: 2, error: { code: -32602 } });
    // memcmp bytes that are not base58: bad params naming the filter, not an internal error.
    const badFilter = await post({
      jsonrpc: "2.0",
      id: 5,
      method: "getProgramAccounts",
      params: [TOKEN_PROGRAM_ID.toBase58(), { filters: [{ memcmp: { offset: 0, bytes: "0OIl" } }] }],
    });
    expect(badFilter).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringContaining("filters[0].memcmp.bytes") } });
    // A blockhash the chain never issued: refused (-32002, BlockhashNotFound), nothing recorded.
    const stale = new Transaction({ feePayer: payer.publicKey, recentBlockhash: PublicKey.default.toBase58() }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
    );
    stale.sign(payer);
    const refused = await post({ jsonrpc: "2.0", id: 3, method: "sendTransaction", params: [stale.serialize().toString("base64"), { encoding: "base64" }] });
    expect(refused).toMatchObject({ id: 3, error: { code: -32002, data: { err: "BlockhashNotFound" } } });
    // Signed by the wrong key: signature verification failure (-32003).
    const { blockhash } = await connection.getLatestBlockhash();
    const forged = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
    );
    forged.addSignature(payer.publicKey, Buffer.alloc(64, 7));
    const forgedAnswer = await post({
      jsonrpc: "2.0",
      id: 4,
      method: "sendTransaction",
      params: [forged.serialize({ verifySignatures: false }).toString("base64"), { encoding: "base64" }],
    });
    expect(forgedAnswer).toMatchObject({ id: 4, error: { code: -32003 } });
    const batch = await post([
      { jsonrpc: "2.0", id: "a", method: "getSlot" },
      { jsonrpc: "2.0", id: "b", method: "getHealth" },
    ]);
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: "a", result: expect.any(Number) },
      { jsonrpc: "2.0", id: "b", result: "ok" },
    ]);
  });
});
