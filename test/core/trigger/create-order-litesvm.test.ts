import { describe, expect, it } from "vitest";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { address, getTransactionDecoder, lamports } from "@solana/kit";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { AccountLayout, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { compileTransaction } from "../../../src/core/solana/transaction-message.js";
import { buildCreateOrderTransaction } from "../../../src/core/trigger/create-order.js";
import { encodeMintAccount } from "../../../src/core/solana/token-accounts.js";

const MAKING = 250_000_000n;

function mintData(authority: PublicKey, decimals: number): Uint8Array {
  return encodeMintAccount(decimals, authority, 0n);
}

/** A VM with native mints, a funded maker and an output mint owned by the given token program. */
function setup(outputTokenProgram: PublicKey) {
  const svm = new LiteSVM().withNativeMints();
  const maker = Keypair.generate();
  svm.airdrop(address(maker.publicKey.toBase58()), lamports(10_000_000_000n));
  const outputMint = Keypair.generate().publicKey;
  const data = mintData(maker.publicKey, 6);
  svm.setAccount({
    address: address(outputMint.toBase58()),
    data,
    executable: false,
    lamports: lamports(1_461_600n),
    programAddress: address(outputTokenProgram.toBase58()),
    space: BigInt(data.length),
  });
  // The builder's view of the mints, read back from the VM.
  const accounts = new Map<string, AccountData | null>();
  for (const mint of [NATIVE_MINT, outputMint]) {
    const account = svm.getAccount(address(mint.toBase58()));
    if (!account.exists) throw new Error(`mint ${mint.toBase58()} missing in the VM`);
    accounts.set(mint.toBase58(), {
      address: mint,
      owner: new PublicKey(account.programAddress),
      lamports: account.lamports,
      data: Uint8Array.from(account.data),
      executable: account.executable,
    });
  }
  return { svm, maker, outputMint, accounts };
}

function send(svm: LiteSVM, maker: Keypair, instructions: readonly TransactionInstruction[]) {
  const { transaction } = compileTransaction(instructions, maker.publicKey, svm.latestBlockhash());
  const tx = VersionedTransaction.deserialize(transaction);
  tx.sign([maker]);
  const result = svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
  if (result instanceof FailedTransactionMetadata) {
    throw new Error(`transaction failed: ${String(result.err())}\n${result.meta().logs().join("\n")}`);
  }
  return result;
}

describe("create-order transaction on LiteSVM: everything but initialize_order executes", () => {
  for (const [label, outputTokenProgram] of [
    ["Token output mint", TOKEN_PROGRAM_ID],
    ["Token-2022 output mint", TOKEN_2022_PROGRAM_ID],
  ] as const) {
    it(`SOL → ${label}: compute budget, wrap into the wSOL ATA, output ATA, then close`, () => {
      const { svm, maker, outputMint, accounts } = setup(outputTokenProgram);
      const built = buildCreateOrderTransaction(
        {
          inputMint: NATIVE_MINT.toBase58(),
          outputMint: outputMint.toBase58(),
          maker: maker.publicKey.toBase58(),
          payer: maker.publicKey.toBase58(),
          params: { makingAmount: MAKING.toString(), takingAmount: "1000000" },
          computeUnitPrice: "1000",
        },
        { accounts, uniqueId: 99n, nowUnixSeconds: 1_750_000_000, recentPriorityFees: [], recentBlockhash: svm.latestBlockhash() },
      );
      const loIndex = built.instructions.findIndex((ix) => ix.programId.equals(LIMIT_ORDER_V2_PROGRAM_ID));
      const beforeOrder = built.instructions.slice(0, loIndex);
      const afterOrder = built.instructions.slice(loIndex + 1);
      expect(beforeOrder).toHaveLength(6);
      expect(afterOrder).toHaveLength(1);

      const wsolAta = getAssociatedTokenAddressSync(NATIVE_MINT, maker.publicKey, true, TOKEN_PROGRAM_ID);
      const outputAta = getAssociatedTokenAddressSync(outputMint, maker.publicKey, true, outputTokenProgram);

      // 1) Up to initialize_order: the wSOL ATA holds exactly makingAmount, the output ATA exists.
      send(svm, maker, beforeOrder);
      const wsol = svm.getAccount(address(wsolAta.toBase58()));
      expect(wsol.exists).toBe(true);
      if (!wsol.exists) return;
      const wsolState = AccountLayout.decode(Uint8Array.from(wsol.data));
      expect(wsolState.amount).toBe(MAKING);
      expect(wsolState.owner.equals(maker.publicKey)).toBe(true);
      expect(wsolState.isNativeOption).toBe(1);
      expect(wsol.lamports).toBe(MAKING + wsolState.isNative); // makingAmount + the rent-exempt reserve
      const output = svm.getAccount(address(outputAta.toBase58()));
      expect(output.exists).toBe(true);
      if (!output.exists) return;
      expect(output.programAddress).toBe(outputTokenProgram.toBase58());
      const outputState = AccountLayout.decode(Uint8Array.from(output.data).subarray(0, AccountLayout.span));
      expect(outputState.mint.equals(outputMint)).toBe(true);
      expect(outputState.owner.equals(maker.publicKey)).toBe(true);

      // 2) The trailing close unwraps: the wSOL ATA is gone and its lamports return to the maker.
      svm.expireBlockhash();
      const balanceBefore = svm.getBalance(address(maker.publicKey.toBase58()))!;
      send(svm, maker, afterOrder);
      expect(svm.getAccount(address(wsolAta.toBase58())).exists).toBe(false);
      const balanceAfter = svm.getBalance(address(maker.publicKey.toBase58()))!;
      // Gained makingAmount + the ATA's rent, minus one signature fee (no priority fee on this tx).
      expect(balanceAfter - balanceBefore).toBe(wsol.lamports - 5000n);
    });
  }

  it("the whole create transaction (idempotent ATAs) can run twice without the order instruction", () => {
    const { svm, maker, outputMint, accounts } = setup(TOKEN_PROGRAM_ID);
    for (let round = 0; round < 2; round++) {
      const built = buildCreateOrderTransaction(
        {
          inputMint: NATIVE_MINT.toBase58(),
          outputMint: outputMint.toBase58(),
          maker: maker.publicKey.toBase58(),
          payer: maker.publicKey.toBase58(),
          params: { makingAmount: MAKING.toString(), takingAmount: "1" },
        },
        { accounts, uniqueId: BigInt(round), nowUnixSeconds: 1_750_000_000, recentPriorityFees: [], recentBlockhash: svm.latestBlockhash() },
      );
      const result = send(
        svm,
        maker,
        built.instructions.filter((ix) => !ix.programId.equals(LIMIT_ORDER_V2_PROGRAM_ID)),
      );
      expect(result.computeUnitsConsumed()).toBeLessThan(BigInt(built.computeUnitLimit));
      svm.expireBlockhash();
    }
  });
});
