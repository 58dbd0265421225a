// The program quoter against the program itself: SolFi V2's real binary and its Jan-2026 mainnet
// SOL/USDC pool (SWAPD_CHAIN_DIR/accounts-2026). Expected amounts come from executing SolFi V2's
// swap, built here from the chain folder's facts (tag 7, amount, minimum out, direction byte; 13
// accounts), for a wallet with real token accounts made by the SPL Token program, on a separate
// LiteSVM — and from the figure the chain folder's README measured (100 USDC → 0.779028990 SOL).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ACCOUNT_SIZE,
  AccountLayout,
  MINT_SIZE,
  MintLayout,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from "@solana/web3.js";
import { getTransactionDecoder } from "@solana/kit";
import type { EncodedAccount } from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { beforeAll, describe, expect, it } from "vitest";
import { ProgramQuoter, programQuoteTaker } from "../../src/chain/program-quoter.js";
import { solFiV2Adapter } from "../../src/core/amm/solfi-v2.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";

const SOLFI_V2 = "SV2EYYJyRz2YhfXwXnhNAevDEui5Q6yrfyo13WtupPF";
const POOL = new PublicKey("65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc");
const ORACLE = new PublicKey("2ny7eGyZCoeEVTkNLf5HcnJFBKkyA4p4gcrtb3b8y8ou");
const PROGRAM_STATE = new PublicKey("FmxXDSR9WvpJTCh738D1LEDuhMoA8geCtZgHb3isy7Dp");
const SOL_VAULT = new PublicKey("CRo8DBwrmd97DJfAnvCv96tZPL5Mktf2NZy2ZnhDer1A");
const USDC_VAULT = new PublicKey("GhFfLFSprPpfoRaWakPMmJTMJBHuz6C694jYwxy2dAic");
const SOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const INSTRUCTIONS_SYSVAR = new PublicKey("Sysvar1nstructions1111111111111111111111111");
/** The pool's stored slot and the snapshot's time (chain folder README). */
const SLOT = 390_838_754n;
const UNIX_TIME = 1_767_360_940n;

const available = hasPrograms([SOLFI_V2]);
if (!available) console.warn(`program quoter test skipped: needs SWAPD_CHAIN_DIR with programs/${SOLFI_V2}.so and accounts-2026/`);

function snapshot(dir: string, address: PublicKey): AccountData {
  const json = JSON.parse(readFileSync(join(dir, `${address.toBase58()}.json`), "utf8"));
  return {
    address,
    owner: new PublicKey(json.account.owner),
    lamports: BigInt(json.account.lamports),
    data: new Uint8Array(Buffer.from(json.account.data[0], "base64")),
    executable: false,
  };
}

function nativeMint(): AccountData {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    { mintAuthorityOption: 0, mintAuthority: PublicKey.default, supply: 0n, decimals: 9, isInitialized: true, freezeAuthorityOption: 0, freezeAuthority: PublicKey.default },
    data,
  );
  return { address: SOL, owner: TOKEN_PROGRAM_ID, lamports: 1_000_000_000n, data, executable: false };
}

function put(svm: LiteSVM, a: Omit<AccountData, "executable">): void {
  svm.setAccount({
    address: a.address.toBase58(), data: a.data, lamports: a.lamports, programAddress: a.owner.toBase58(), executable: false, space: BigInt(a.data.length),
  } as unknown as EncodedAccount);
}

/** SolFi V2 executed directly for a wallet whose token accounts the SPL Token program initialises. */
function executeDirectly(dir: string, state: readonly AccountData[], amountIn: bigint, usdcIn: boolean, slot: bigint): bigint {
  const svm = new LiteSVM().withSigverify(true);
  svm.addProgram(SOLFI_V2 as never, new Uint8Array(readFileSync(join(dir, "programs", `${SOLFI_V2}.so`))));
  for (const a of state) put(svm, a);
  const clock = svm.getClock();
  clock.slot = slot;
  clock.unixTimestamp = UNIX_TIME;
  svm.setClock(clock);
  const user = Keypair.generate();
  svm.airdrop(user.publicKey.toBase58() as never, 100_000_000_000n as never);
  const rent = svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
  const solAccount = Keypair.generate();
  const usdcAccount = Keypair.generate();
  // Both token accounts through the SPL Token program's own instructions; SOL wrapped by transfer + SyncNative.
  const setup = new Transaction({ feePayer: user.publicKey, blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0 });
  for (const [account, mint] of [[solAccount, SOL], [usdcAccount, USDC]] as const) {
    setup.add(SystemProgram.createAccount({ fromPubkey: user.publicKey, newAccountPubkey: account.publicKey, lamports: Number(rent), space: ACCOUNT_SIZE, programId: TOKEN_PROGRAM_ID }));
    setup.add(new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [{ pubkey: account.publicKey, isSigner: false, isWritable: true }, { pubkey: mint, isSigner: false, isWritable: false }],
      data: Buffer.concat([Buffer.from([18]), user.publicKey.toBuffer()]), // InitializeAccount3(owner)
    }));
  }
  if (!usdcIn) {
    setup.add(SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: solAccount.publicKey, lamports: Number(amountIn) }));
    setup.add(new TransactionInstruction({ programId: TOKEN_PROGRAM_ID, keys: [{ pubkey: solAccount.publicKey, isSigner: false, isWritable: true }], data: Buffer.from([17]) }));
  }
  setup.sign(user, solAccount, usdcAccount);
  const setupResult = svm.sendTransaction(getTransactionDecoder().decode(setup.serialize()));
  if (setupResult instanceof FailedTransactionMetadata) throw new Error(`setup failed: ${String(setupResult.err())}\n${setupResult.meta().logs().join("\n")}`);
  if (usdcIn) {
    // USDC has a mint authority no test holds: the amount is written into the initialised account.
    const raw = svm.getAccount(usdcAccount.publicKey.toBase58() as never);
    const decoded = AccountLayout.decode(Buffer.from((raw as { data: Uint8Array }).data));
    const data = Buffer.alloc(ACCOUNT_SIZE);
    AccountLayout.encode({ ...decoded, amount: amountIn }, data);
    put(svm, { address: usdcAccount.publicKey, owner: TOKEN_PROGRAM_ID, lamports: rent, data });
  }
  const data = Buffer.alloc(18);
  data[0] = 7;
  data.writeBigUInt64LE(amountIn, 1);
  data.writeBigUInt64LE(0n, 9);
  data[17] = usdcIn ? 1 : 0;
  const w = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: true });
  const r = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: false });
  const swap = new TransactionInstruction({
    programId: new PublicKey(SOLFI_V2),
    keys: [
      { pubkey: user.publicKey, isSigner: true, isWritable: true }, w(POOL), r(ORACLE), r(PROGRAM_STATE), w(SOL_VAULT), w(USDC_VAULT),
      w(solAccount.publicKey), w(usdcAccount.publicKey), r(SOL), r(USDC), r(TOKEN_PROGRAM_ID), r(TOKEN_PROGRAM_ID), r(INSTRUCTIONS_SYSVAR),
    ],
    data,
  });
  const tx = new Transaction({ feePayer: user.publicKey, blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0 }).add(swap);
  tx.sign(user);
  const result = svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
  if (result instanceof FailedTransactionMetadata) throw new Error(`SolFi V2 refused: ${String(result.err())}\n${result.meta().logs().join("\n")}`);
  const out = svm.getAccount((usdcIn ? solAccount : usdcAccount).publicKey.toBase58() as never) as { data: Uint8Array };
  return AccountLayout.decode(Buffer.from(out.data)).amount;
}

describe.skipIf(!available)("program quoter: SolFi V2 on its own program", () => {
  let dir: string;
  let state: AccountData[];
  let accounts: Map<string, AccountData>;
  const quoter = new ProgramQuoter();

  beforeAll(() => {
    dir = join(CHAIN_DIR!, "accounts-2026");
    state = [POOL, ORACLE, PROGRAM_STATE, SOL_VAULT, USDC_VAULT].map((a) => snapshot(dir, a));
    state.push(nativeMint(), snapshot(join(CHAIN_DIR!, "accounts"), USDC));
    accounts = new Map(state.map((a) => [a.address.toBase58(), a]));
    quoter.addProgram(new PublicKey(SOLFI_V2), new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${SOLFI_V2}.so`))));
  });

  function quote(amount: bigint, aToB: boolean, slot = SLOT) {
    const pool = solFiV2Adapter.decodePool(accounts.get(POOL.toBase58())!);
    const swap = solFiV2Adapter.programSwap!(pool, { amount, swapMode: "ExactIn", aToB }, programQuoteTaker());
    return quoter.quote(swap, amount, accounts, { slot, unixTimestamp: UNIX_TIME });
  }

  it("quotes 100 USDC → SOL as the chain folder measured it, and follows the slot", () => {
    expect(quote(100_000_000n, false).outAmount).toBe(779_028_990n);
    expect(quote(100_000_000n, false, SLOT + 46n).outAmount).toBe(779_007_088n);
  });

  it("equals the program executed directly for real token accounts, both directions, random amounts", () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 6; i++) {
      const usdcIn = i % 2 === 1;
      const amount = usdcIn ? BigInt(1_000_000 + (next() % 50_000_000_000)) : BigInt(10_000_000 + (next() % 50_000_000_000));
      const slot = SLOT + BigInt(next() % 100);
      const q = quote(amount, !usdcIn, slot);
      expect(q.complete).toBe(true);
      expect(q.inAmount).toBe(amount);
      expect(q.outAmount).toBe(executeDirectly(CHAIN_DIR!, state, amount, usdcIn, slot));
    }
  });

  it("answers a repeated quote from its memo and refuses nothing silently: a stale slot is an incomplete quote with the program's error", () => {
    const a = quote(1_000_000_000n, true);
    expect(quote(1_000_000_000n, true)).toBe(a);
    const stale = quote(1_000_000_000n, true, SLOT + 10_000n);
    expect(stale.complete).toBe(false);
    expect(stale.reason).toMatch(/refused/);
  });
});
