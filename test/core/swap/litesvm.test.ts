// Every instruction except the Jupiter swap, executed on LiteSVM (real System, Token, Token-2022,
// ATA and Compute Budget programs) in one v0 transaction, with inputs read from the VM itself.
import { address, getTransactionDecoder, lamports } from "@solana/kit";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import type { Keypair } from "@solana/web3.js";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { describe, expect, test } from "vitest";
import type { DemoRaydiumCpmmPool } from "../../../src/localnet/raydium-cpmm-demo-pool.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { buildSwapInstructions } from "../../../src/core/swap/build.js";
import type { SwapInstructionsResult } from "../../../src/core/swap/build.js";
import { mintsFromAccounts, planAccountReads, routeReadKeys } from "../../../src/core/swap/plan.js";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import type { SwapInstructionsRequest } from "../../../src/core/swap/request.js";
import { resolveRoute } from "../../../src/core/swap/route-accounts.js";
import { decodeRoutePools } from "../../../src/core/swap/route-pools.js";
import { MINTS, MINT_A, MINT_B, MINT_C, MINT_T22, USER, keypair, pool, quote, request } from "./fixtures.js";
import { encodeMintAccount } from "../../../src/core/solana/token-accounts.js";

const TIP_ACCOUNT = new PublicKey("HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe");
const PAYER = keypair("payer");

function vm(pools: DemoRaydiumCpmmPool[]): LiteSVM {
  const svm = new LiteSVM().withNativeMints();
  svm.airdrop(address(USER.publicKey.toBase58()), lamports(10_000_000_000n));
  svm.airdrop(address(PAYER.publicKey.toBase58()), lamports(10_000_000_000n));
  svm.airdrop(address(TIP_ACCOUNT.toBase58()), lamports(1_000_000_000n)); // tip accounts exist on mainnet
  for (const mint of [MINT_A, MINT_B, MINT_C, MINT_T22]) {
    const data = encodeMintAccount(MINTS.get(mint.toBase58())!.decimals, USER.publicKey, 0n);
    put(svm, { address: mint, owner: MINTS.get(mint.toBase58())!.tokenProgram, lamports: 1_461_600n, data, executable: false });
  }
  for (const p of pools) for (const a of [p.pool, p.config, p.vaultA, p.vaultB, p.observation, p.lpMint]) put(svm, a);
  return svm;
}

function put(svm: LiteSVM, a: AccountData): void {
  svm.setAccount({
    address: address(a.address.toBase58()),
    data: a.data,
    executable: a.executable,
    lamports: lamports(a.lamports),
    programAddress: address(a.owner.toBase58()),
    space: BigInt(a.data.length),
  });
}

function read(svm: LiteSVM, keys: readonly PublicKey[]): Map<string, AccountData | null> {
  const map = new Map<string, AccountData | null>();
  for (const key of keys) {
    const account = svm.getAccount(address(key.toBase58()));
    map.set(
      key.toBase58(),
      account.exists
        ? {
            address: key,
            owner: new PublicKey(account.programAddress),
            lamports: account.lamports,
            data: Uint8Array.from(account.data),
            executable: account.executable,
          }
        : null,
    );
  }
  return map;
}

/** The API's flow, with the VM as the chain: plan, one read, decode, build. */
function buildFrom(svm: LiteSVM, raw: SwapInstructionsRequest, fees: number[] = []): SwapInstructionsResult {
  const parsed = parseSwapInstructionsRequest(raw);
  const keys = routeReadKeys(parsed);
  const accounts = read(svm, planAccountReads(parsed, keys));
  const pools = decodeRoutePools(parsed, accounts);
  const mints = mintsFromAccounts(keys.mints, accounts);
  const route = resolveRoute(parsed, mints, 0);
  return buildSwapInstructions(parsed, { accounts, pools, mints, prioritizationFees: fees, relayTipAccount: TIP_ACCOUNT, route });
}

/** All groups but the Jupiter swap in one v0 transaction. */
function execute(svm: LiteSVM, result: SwapInstructionsResult, signers: Keypair[]) {
  const instructions = [
    ...result.computeBudgetInstructions,
    ...result.setupInstructions,
    ...(result.cleanupInstruction ? [result.cleanupInstruction] : []),
    ...result.otherInstructions,
  ];
  const message = new TransactionMessage({ payerKey: result.payer, recentBlockhash: svm.latestBlockhash(), instructions }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign(signers);
  const outcome = svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
  if (outcome instanceof FailedTransactionMetadata) {
    throw new Error(`transaction failed: ${String(outcome.err())} ${outcome.meta().logs().join("\n")}`);
  }
  return outcome;
}

const exists = (svm: LiteSVM, key: PublicKey) => svm.getAccount(address(key.toBase58())).exists;
function owner(svm: LiteSVM, key: PublicKey): string | undefined {
  const account = svm.getAccount(address(key.toBase58()));
  return account.exists ? account.programAddress : undefined;
}
const balance = (svm: LiteSVM, key: PublicKey) => svm.getBalance(address(key.toBase58())) ?? 0n;
const ata = (mint: PublicKey, program = TOKEN_PROGRAM_ID) => getAssociatedTokenAddressSync(mint, USER.publicKey, false, program);

describe("setup, compute budget, cleanup and tip execute on LiteSVM", () => {
  test("SOL in: wrap, create the output ATA, close wSOL, tip", () => {
    const p = pool(NATIVE_MINT, MINT_A);
    const svm = vm([p]);
    const result = buildFrom(
      svm,
      request(
        quote([{ pool: p.pool.address, input: NATIVE_MINT, output: MINT_A, percent: 100, inAmount: 50_000_000n, outAmount: 90_000n }], {
          input: NATIVE_MINT,
          output: MINT_A,
          inAmount: 50_000_000n,
          outAmount: 90_000n,
        }),
        {
          prioritization: { kind: "relayTip", lamports: 1000 },
        },
      ),
    );
    expect(result.computeBudgetInstructions).toHaveLength(1); // tip: no price
    expect(result.setupInstructions).toHaveLength(4); // create wSOL, transfer, sync, create output ATA
    const tipBefore = balance(svm, TIP_ACCOUNT);
    execute(svm, result, [USER]);
    expect(owner(svm, ata(MINT_A))).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(exists(svm, ata(NATIVE_MINT))).toBe(false); // closed by cleanup
    expect(balance(svm, TIP_ACCOUNT) - tipBefore).toBe(1000n);
  });

  test("SOL out with a separate payer: create the wSOL ATA (payer pays rent and fee), close it", () => {
    const p = pool(MINT_A, NATIVE_MINT);
    const svm = vm([p]);
    const result = buildFrom(
      svm,
      request(
        quote([{ pool: p.pool.address, input: MINT_A, output: NATIVE_MINT, percent: 100, inAmount: 10_000n, outAmount: 5_000_000n }], {
          input: MINT_A,
          output: NATIVE_MINT,
          inAmount: 10_000n,
          outAmount: 5_000_000n,
        }),
        {
          payer: PAYER.publicKey.toBase58(),
          prioritization: { kind: "lamports", lamports: 7001 },
        },
      ),
    );
    // price = floor(7001·10⁶ / 1.4M) = 5000 µlamports; fee = 1.4M · 5000 / 10⁶ = 7000 lamports
    expect(result.prioritizationType).toEqual({ kind: "computeBudget", microLamports: 5000n, estimatedMicroLamports: null });
    expect(result.prioritizationFeeLamports).toBe(7000n);
    expect(result.setupInstructions).toHaveLength(1);
    const userBefore = balance(svm, USER.publicKey);
    const payerBefore = balance(svm, PAYER.publicKey);
    execute(svm, result, [PAYER, USER]);
    expect(exists(svm, ata(NATIVE_MINT))).toBe(false);
    // The payer paid the signature fees, the priority fee and the rent; the rent came back to the user on close.
    expect(payerBefore - balance(svm, PAYER.publicKey)).toBeGreaterThan(10_000n + 7_000n);
    expect(balance(svm, USER.publicKey)).toBeGreaterThanOrEqual(userBefore);
  });

  test("token to token over an intermediate mint without shared accounts: both ATAs created", () => {
    const p1 = pool(MINT_A, MINT_B);
    const p2 = pool(MINT_B, MINT_C);
    const svm = vm([p1, p2]);
    const raw = request(
      quote(
        [
          { pool: p1.pool.address, input: MINT_A, output: MINT_B, percent: 100, inAmount: 10_000n, outAmount: 19_000n },
          { pool: p2.pool.address, input: MINT_B, output: MINT_C, percent: 100, inAmount: 19_000n, outAmount: 37_000n },
        ],
        { input: MINT_A, output: MINT_C, inAmount: 10_000n, outAmount: 37_000n },
      ),
      { useSharedAccounts: false, prioritization: { kind: "priorityLevel", level: "medium", maxLamports: 100_000 } },
    );
    const result = buildFrom(svm, raw, [100, 200, 300, 400]);
    expect(result.prioritizationType).toEqual({ kind: "computeBudget", microLamports: 100n, estimatedMicroLamports: 100n });
    expect(result.cleanupInstruction).toBeUndefined();
    execute(svm, result, [USER]);
    expect(exists(svm, ata(MINT_B))).toBe(true);
    expect(exists(svm, ata(MINT_C))).toBe(true);

    // Now they exist: the next build skips them, unless skipUserAccountsRpcCalls.
    svm.expireBlockhash();
    expect(buildFrom(svm, raw).setupInstructions).toHaveLength(0);
    const skipping = buildFrom(svm, { ...raw, skipUserAccountsRpcCalls: true });
    expect(skipping.setupInstructions).toHaveLength(2);
    execute(svm, skipping, [USER]); // CreateIdempotent succeeds on existing accounts
  });

  test("Token-2022 output mint: the ATA is created under Token-2022", () => {
    const p = pool(MINT_A, MINT_T22);
    const svm = vm([p]);
    const result = buildFrom(
      svm,
      request(
        quote([{ pool: p.pool.address, input: MINT_A, output: MINT_T22, percent: 100, inAmount: 10_000n, outAmount: 20_000n }], {
          input: MINT_A,
          output: MINT_T22,
          inAmount: 10_000n,
          outAmount: 20_000n,
        }),
      ),
      [5_000, 10_000, 20_000],
    );
    expect(result.prioritizationType).toEqual({ kind: "computeBudget", microLamports: 10_000n, estimatedMicroLamports: 10_000n });
    execute(svm, result, [USER]);
    const t22Ata = ata(MINT_T22, TOKEN_2022_PROGRAM_ID);
    expect(owner(svm, t22Ata)).toBe(TOKEN_2022_PROGRAM_ID.toBase58());
    // and the Jupiter instruction names Token-2022 in its token_2022_program slot (exact_out/shared only) or as destination program (route)
    expect(result.swapInstruction.keys[0].pubkey.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
  });
});
