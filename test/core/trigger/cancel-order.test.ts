import { describe, expect, it } from "vitest";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  LIMIT_ORDER_V2_PROGRAM_ID,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "../../../src/core/solana/programs.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { buildCancelOrderTransaction } from "../../../src/core/trigger/cancel-order.js";
import { buildCancelOrdersTransactions } from "../../../src/core/trigger/cancel-orders.js";
import { ValidationError } from "../../../src/core/validation-error.js";
import { decodedReferenceTransactions, limitOrderCoder, limitOrderIdl, mintAccount } from "./reference.js";
import { orderAccountData } from "./order-fixture.js";

const devjn = new PublicKey("devjnEpxbJUhJ39FSsFz7YPerr5bdxN8VWUXvfbFUK4");
const BLOCKHASH = "DrJh1qtDy2FaAcvw4B8sX3k6ipvJGxbD2kGTjneREcGp";

function accountsOf(...accounts: AccountData[]): Map<string, AccountData | null> {
  return new Map(accounts.map((a) => [a.address.toBase58(), a]));
}

const idlCancelAccounts = limitOrderIdl.instructions.find((ix) => ix.name === "cancel_order")!.accounts as {
  name: string;
  writable?: boolean;
  signer?: boolean;
}[];

describe("buildCancelOrderTransaction", () => {
  it("reproduces Jupiter's real cancel transaction byte for byte (wSOL input → maker input account None)", async () => {
    const reference = decodedReferenceTransactions[2];
    const order = await orderAccountData({
      address: new PublicKey("9vWTg8y4UvrLM49rqvJ2mtmpxicPytNs7FD78352g9Kr"),
      maker: devjn,
      inputMint: NATIVE_MINT,
      outputMint: new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
      inputTokenProgram: TOKEN_PROGRAM_ID,
      outputTokenProgram: TOKEN_PROGRAM_ID,
      inputMintReserve: new PublicKey("4Q4Qv1KT1qrpHPydQcoPVoCD9FuCCPPbD211CTW43RVF"),
    });
    const built = buildCancelOrderTransaction(
      { maker: devjn.toBase58(), order: order.address.toBase58(), computeUnitPrice: "606216" },
      { accounts: accountsOf(order), recentPriorityFees: [], recentBlockhash: reference.decoded.recentBlockhash },
    );
    expect(Buffer.from(built.transaction).toString("base64")).toBe(reference.base64);
  });

  it("SPL input: the maker's input ATA is created idempotently first and passed as Some", async () => {
    const maker = Keypair.generate().publicKey;
    const inputMint = Keypair.generate().publicKey;
    const order = await orderAccountData({
      address: Keypair.generate().publicKey,
      maker,
      inputMint,
      outputMint: NATIVE_MINT,
      inputTokenProgram: TOKEN_2022_PROGRAM_ID,
      outputTokenProgram: TOKEN_PROGRAM_ID,
      inputMintReserve: Keypair.generate().publicKey,
    });
    const built = buildCancelOrderTransaction(
      { maker: maker.toBase58(), order: order.address.toBase58() },
      { accounts: accountsOf(order), recentPriorityFees: [3n], recentBlockhash: BLOCKHASH },
    );
    const makerAta = getAssociatedTokenAddressSync(inputMint, maker, true, TOKEN_2022_PROGRAM_ID);
    expect(built.instructions.map((ix) => ix.programId.toBase58())).toEqual([
      "ComputeBudget111111111111111111111111111111",
      "ComputeBudget111111111111111111111111111111",
      ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
      LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    ]);
    const cancel = built.instructions[3];
    expect(limitOrderCoder.instruction.decode(Buffer.from(cancel.data))?.name).toBe("cancel_order");
    expect(cancel.keys).toHaveLength(idlCancelAccounts.length);
    cancel.keys.forEach((meta, i) => {
      const idl = idlCancelAccounts[i];
      expect([idl.name, meta.isSigner, meta.isWritable]).toEqual([idl.name, idl.signer === true, idl.writable === true]);
    });
    expect(cancel.keys.map((k) => k.pubkey.toBase58())).toEqual([
      maker.toBase58(),
      maker.toBase58(),
      order.address.toBase58(),
      // The reserve recorded in the order account, whatever it is.
      new PublicKey(order.data.subarray(168, 200)).toBase58(),
      makerAta.toBase58(),
      inputMint.toBase58(),
      TOKEN_2022_PROGRAM_ID.toBase58(),
      "ArsDfE54RTkC3zhtzPdtvTtKw9XSV5w1PCTBFVGiLd52",
      LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    ]);
    expect(built.computeUnitPriceMicroLamports).toBe(3n);
  });

  it("refuses an order that is missing, of another maker, or not an Order account", async () => {
    const maker = Keypair.generate().publicKey;
    const order = await orderAccountData({
      address: Keypair.generate().publicKey,
      maker: Keypair.generate().publicKey,
      inputMint: NATIVE_MINT,
      outputMint: Keypair.generate().publicKey,
      inputTokenProgram: TOKEN_PROGRAM_ID,
      outputTokenProgram: TOKEN_PROGRAM_ID,
      inputMintReserve: Keypair.generate().publicKey,
    });
    const mint = mintAccount(Keypair.generate().publicKey, TOKEN_PROGRAM_ID, 6);
    const rule = (orderKey: PublicKey) => {
      try {
        buildCancelOrderTransaction(
          { maker: maker.toBase58(), order: orderKey.toBase58() },
          { accounts: accountsOf(order, mint), recentPriorityFees: [], recentBlockhash: BLOCKHASH },
        );
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return `${(error as ValidationError).field}/${(error as ValidationError).rule}`;
      }
      return "built";
    };
    expect(rule(order.address)).toBe("order/order_maker");
    expect(rule(mint.address)).toBe("order/order_account");
    expect(rule(Keypair.generate().publicKey)).toBe("order/order_exists");
  });
});

describe("buildCancelOrdersTransactions", () => {
  it("all of the maker's orders, 5 cancels per transaction, one ATA creation per input mint and transaction", async () => {
    const maker = Keypair.generate().publicKey;
    const splMint = Keypair.generate().publicKey;
    const orders = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        orderAccountData({
          address: Keypair.generate().publicKey,
          maker: i === 6 ? Keypair.generate().publicKey : maker, // one belongs to someone else
          inputMint: i % 2 === 0 ? NATIVE_MINT : splMint,
          outputMint: Keypair.generate().publicKey,
          inputTokenProgram: TOKEN_PROGRAM_ID,
          outputTokenProgram: TOKEN_PROGRAM_ID,
          inputMintReserve: Keypair.generate().publicKey,
          expiredAt: i % 3 === 0 ? 1_900_000_000n : null,
        }),
      ),
    );
    const result = buildCancelOrdersTransactions(
      { maker: maker.toBase58(), computeUnitPrice: "100" },
      { accounts: accountsOf(...orders), recentPriorityFees: [], recentBlockhash: BLOCKHASH },
    );
    expect(result.orders).toHaveLength(6);
    expect(result.transactions.map((t) => t.orderKeys.length)).toEqual([5, 1]);
    const cancelled = new Set<string>();
    for (const tx of result.transactions) {
      const decoded = VersionedTransaction.deserialize(tx.transaction);
      expect(decoded.signatures).toHaveLength(1);
      const keys = decoded.message.staticAccountKeys;
      const programIds = decoded.message.compiledInstructions.map((ix) => keys[ix.programIdIndex].toBase58());
      const cancels = decoded.message.compiledInstructions.filter((ix) => keys[ix.programIdIndex].equals(LIMIT_ORDER_V2_PROGRAM_ID));
      for (const ix of cancels) {
        expect(limitOrderCoder.instruction.decode(Buffer.from(ix.data))?.name).toBe("cancel_order");
        cancelled.add(keys[ix.accountKeyIndexes[2]].toBase58());
      }
      const splCancels = tx.orderKeys.filter((key) => new PublicKey(orders.find((o) => o.address.equals(key))!.data.subarray(40, 72)).equals(splMint));
      const ataCreations = programIds.filter((p) => p === ASSOCIATED_TOKEN_PROGRAM_ID.toBase58()).length;
      expect(ataCreations).toBe(splCancels.length > 0 ? 1 : 0);
    }
    expect([...cancelled].sort()).toEqual(
      orders
        .slice(0, 6)
        .map((o) => o.address.toBase58())
        .sort(),
    );
  });

  it("worst case: 5 cancels with 5 distinct SPL input mints (ATA each, Token and Token-2022) fit one transaction", async () => {
    const maker = Keypair.generate().publicKey;
    const orders = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        orderAccountData({
          address: Keypair.generate().publicKey,
          maker,
          inputMint: Keypair.generate().publicKey,
          outputMint: Keypair.generate().publicKey,
          inputTokenProgram: i % 2 === 0 ? TOKEN_PROGRAM_ID : TOKEN_2022_PROGRAM_ID,
          outputTokenProgram: TOKEN_PROGRAM_ID,
          inputMintReserve: Keypair.generate().publicKey,
        }),
      ),
    );
    for (const legacy of [false, true]) {
      const result = buildCancelOrdersTransactions(
        { maker: maker.toBase58(), orders: orders.map((o) => o.address.toBase58()) },
        { accounts: accountsOf(...orders), recentPriorityFees: [], recentBlockhash: BLOCKHASH, legacyTransaction: legacy },
      );
      expect(result.transactions).toHaveLength(1);
      expect(result.transactions[0].transaction.length).toBeLessThanOrEqual(1232);
      expect(result.transactions[0].computeUnitLimit).toBe(5 * (36_000 + 30_000));
    }
  });

  it("listed orders must all be the maker's; an empty result is an error", async () => {
    const maker = Keypair.generate().publicKey;
    const other = await orderAccountData({
      address: Keypair.generate().publicKey,
      maker: Keypair.generate().publicKey,
      inputMint: NATIVE_MINT,
      outputMint: Keypair.generate().publicKey,
      inputTokenProgram: TOKEN_PROGRAM_ID,
      outputTokenProgram: TOKEN_PROGRAM_ID,
      inputMintReserve: Keypair.generate().publicKey,
    });
    const env = { accounts: accountsOf(other), recentPriorityFees: [], recentBlockhash: BLOCKHASH };
    expect(() => buildCancelOrdersTransactions({ maker: maker.toBase58(), orders: [other.address.toBase58()] }, env)).toThrow(
      expect.objectContaining({ field: "orders[0]", rule: "order_maker" }),
    );
    expect(() => buildCancelOrdersTransactions({ maker: maker.toBase58() }, env)).toThrow(expect.objectContaining({ field: "orders", rule: "orders_found" }));
  });
});
