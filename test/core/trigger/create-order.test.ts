import { describe, expect, it } from "vitest";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { BN } from "@coral-xyz/anchor";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { buildCreateOrderTransaction } from "../../../src/core/trigger/create-order.js";
import type { CreateOrderRequest } from "../../../src/core/trigger/validate.js";
import { ValidationError } from "../../../src/core/validation-error.js";
import { decodedReferenceTransactions, limitOrderCoder, limitOrderIdl, mintAccount } from "./reference.js";

const devjn = new PublicKey("devjnEpxbJUhJ39FSsFz7YPerr5bdxN8VWUXvfbFUK4");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const NOW = 1_750_000_000;

function accountsOf(...accounts: AccountData[]): Map<string, AccountData | null> {
  return new Map(accounts.map((a) => [a.address.toBase58(), a]));
}

const mainnetMints = accountsOf(mintAccount(NATIVE_MINT, TOKEN_PROGRAM_ID, 9), mintAccount(USDC, TOKEN_PROGRAM_ID, 6));

interface InitializeOrderArgs {
  params: {
    unique_id: BN;
    making_amount: BN;
    taking_amount: BN;
    expired_at: BN | null;
    fee_bps: number | null;
    slippage_bps: number | null;
  };
}

function decodeInitializeOrder(data: Uint8Array): InitializeOrderArgs {
  const decoded = limitOrderCoder.instruction.decode(Buffer.from(data));
  expect(decoded?.name).toBe("initialize_order");
  return decoded!.data as InitializeOrderArgs;
}

const idlInitializeAccounts = limitOrderIdl.instructions.find((ix) => ix.name === "initialize_order")!.accounts as {
  name: string;
  writable?: boolean;
  signer?: boolean;
}[];

describe("buildCreateOrderTransaction reproduces Jupiter-built transactions", () => {
  // Same inputs as the real transactions, including their unique_id, compute price and blockhash.
  it("Trigger v1 spec example: SOL→USDC, legacy message, wrap + unwrap", () => {
    const reference = decodedReferenceTransactions[0];
    const built = buildCreateOrderTransaction(
      {
        inputMint: NATIVE_MINT.toBase58(),
        outputMint: USDC.toBase58(),
        maker: devjn.toBase58(),
        payer: devjn.toBase58(),
        params: { makingAmount: "50000000", takingAmount: "100000000" },
        computeUnitPrice: "15406",
      },
      {
        accounts: mainnetMints,
        uniqueId: 7280981023822104910n,
        nowUnixSeconds: NOW,
        recentPriorityFees: [],
        recentBlockhash: reference.decoded.recentBlockhash,
        legacyTransaction: true,
      },
    );
    expect(built.order.toBase58()).toBe("CX2iPk4nxarGPkk7ziViJTfL1z2e1LnGWRDimVQ4tzYf");
    expectSameTransaction(built.transaction, Buffer.from(reference.base64, "base64"));
  });

  it("/limit/v2 example: USDC→SOL, v0 message, output wSOL ATA, no wrap", () => {
    const reference = decodedReferenceTransactions[1];
    const built = buildCreateOrderTransaction(
      {
        inputMint: USDC.toBase58(),
        outputMint: NATIVE_MINT.toBase58(),
        maker: devjn.toBase58(),
        payer: devjn.toBase58(),
        params: { makingAmount: "100000000", takingAmount: "50000000" },
        computeUnitPrice: "586845",
      },
      {
        accounts: mainnetMints,
        uniqueId: 10267953854392421083n,
        nowUnixSeconds: NOW,
        recentPriorityFees: [],
        recentBlockhash: reference.decoded.recentBlockhash,
      },
    );
    expect(built.order.toBase58()).toBe("EWxFUCUAzvo2siM9gYVPWkaouvCfemwnwkfdVw2ib7JH");
    expectSameTransaction(built.transaction, Buffer.from(reference.base64, "base64"));
  });
});

/**
 * Same message header, key order, blockhash and instructions as the real transaction. The one
 * permitted difference: the real initialize_order data (34 bytes, 2024–25) ends after fee_bps;
 * ours also carries the later IDL field slippage_bps as None (one 0x00 byte). Anchor's decoder
 * over the current IDL rejects the 34-byte form, so the trailing byte is what the program expects now.
 */
function expectSameTransaction(ours: Uint8Array, real: Uint8Array): void {
  const a = VersionedTransaction.deserialize(ours);
  const b = VersionedTransaction.deserialize(real);
  expect(a.version).toBe(b.version);
  expect(a.signatures.map((s) => Buffer.from(s).toString("hex"))).toEqual(b.signatures.map((s) => Buffer.from(s).toString("hex")));
  expect(a.message.header).toEqual(b.message.header);
  expect(a.message.recentBlockhash).toBe(b.message.recentBlockhash);
  expect(a.message.staticAccountKeys.map(String)).toEqual(b.message.staticAccountKeys.map(String));
  expect(a.message.compiledInstructions.length).toBe(b.message.compiledInstructions.length);
  a.message.compiledInstructions.forEach((ix, i) => {
    const other = b.message.compiledInstructions[i];
    expect(ix.programIdIndex).toBe(other.programIdIndex);
    expect(ix.accountKeyIndexes).toEqual(other.accountKeyIndexes);
    const programId = a.message.staticAccountKeys[ix.programIdIndex];
    if (programId.equals(LIMIT_ORDER_V2_PROGRAM_ID)) {
      expect(Buffer.from(ix.data).subarray(0, other.data.length).toString("hex")).toBe(Buffer.from(other.data).toString("hex"));
      expect(Buffer.from(ix.data).subarray(other.data.length).toString("hex")).toBe("00");
    } else {
      expect(Buffer.from(ix.data).toString("hex")).toBe(Buffer.from(other.data).toString("hex"));
    }
  });
}

describe("buildCreateOrderTransaction: initialize_order decodes with Anchor's BorshCoder", () => {
  const maker = Keypair.generate().publicKey;
  const payer = Keypair.generate().publicKey;
  const feeAccount = Keypair.generate().publicKey;
  const token2022Mint = Keypair.generate().publicKey;
  const accounts = accountsOf(
    mintAccount(NATIVE_MINT, TOKEN_PROGRAM_ID, 9),
    mintAccount(USDC, TOKEN_PROGRAM_ID, 6),
    mintAccount(token2022Mint, TOKEN_2022_PROGRAM_ID, 5),
  );
  const request: CreateOrderRequest = {
    inputMint: token2022Mint.toBase58(),
    outputMint: USDC.toBase58(),
    maker: maker.toBase58(),
    payer: payer.toBase58(),
    params: {
      makingAmount: "18446744073709551615",
      takingAmount: "123456789",
      expiredAt: String(NOW + 3600),
      feeBps: "25",
      slippageBps: "69",
    },
    feeAccount: feeAccount.toBase58(),
    computeUnitPrice: "auto",
  };
  const built = buildCreateOrderTransaction(request, {
    accounts,
    uniqueId: 42n,
    nowUnixSeconds: NOW,
    recentPriorityFees: [5n, 1000n, 10n, 7n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n, 100n, 110n, 120n, 130n, 140n, 150n, 160n, 170n],
    recentBlockhash: "AtbRHhwu6FxBKbT2PD7CbJwZX7f8yzf1YUayur7MEqGJ",
  });
  const initialize = built.instructions.find((ix) => ix.programId.equals(LIMIT_ORDER_V2_PROGRAM_ID))!;

  it("arguments: amounts, expiry, fee and slippage as requested", () => {
    const { params } = decodeInitializeOrder(initialize.data);
    expect(params.unique_id.toString()).toBe("42");
    expect(params.making_amount.toString()).toBe("18446744073709551615");
    expect(params.taking_amount.toString()).toBe("123456789");
    expect(params.expired_at?.toString()).toBe(String(NOW + 3600));
    expect(params.fee_bps).toBe(25);
    expect(params.slippage_bps).toBe(69);
  });

  it("accounts: the IDL's 15 accounts with its signer/writable flags and the derived addresses", () => {
    expect(initialize.keys).toHaveLength(idlInitializeAccounts.length);
    initialize.keys.forEach((meta, i) => {
      const idl = idlInitializeAccounts[i];
      expect([idl.name, meta.isSigner]).toEqual([idl.name, idl.signer === true]);
      expect([idl.name, meta.isWritable]).toEqual([idl.name, idl.writable === true]);
      if ("address" in idl) expect([idl.name, meta.pubkey.toBase58()]).toEqual([idl.name, (idl as { address: string }).address]);
    });
    const byName = new Map(idlInitializeAccounts.map((a, i) => [a.name, initialize.keys[i].pubkey.toBase58()]));
    const [order] = PublicKey.findProgramAddressSync(
      [Buffer.from("order"), maker.toBuffer(), Buffer.from(new BigUint64Array([42n]).buffer)],
      LIMIT_ORDER_V2_PROGRAM_ID,
    );
    const [reserve] = PublicKey.findProgramAddressSync(
      [order.toBuffer(), TOKEN_2022_PROGRAM_ID.toBuffer(), token2022Mint.toBuffer()],
      new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"),
    );
    const [makerInput] = PublicKey.findProgramAddressSync(
      [maker.toBuffer(), TOKEN_2022_PROGRAM_ID.toBuffer(), token2022Mint.toBuffer()],
      new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"),
    );
    expect(Object.fromEntries(byName)).toMatchObject({
      payer: payer.toBase58(),
      maker: maker.toBase58(),
      order: order.toBase58(),
      input_mint_reserve: reserve.toBase58(),
      maker_input_mint_account: makerInput.toBase58(),
      fee: "27ZASRjinQgXKsrijKqb9xyRnH6W5KWgLSDveRghvHqc",
      referral: feeAccount.toBase58(),
      input_mint: token2022Mint.toBase58(),
      output_mint: USDC.toBase58(),
      input_token_program: TOKEN_2022_PROGRAM_ID.toBase58(),
      output_token_program: TOKEN_PROGRAM_ID.toBase58(),
      event_authority: "ArsDfE54RTkC3zhtzPdtvTtKw9XSV5w1PCTBFVGiLd52",
    });
    expect(built.order.equals(order)).toBe(true);
    expect(built.inputMintReserve.equals(reserve)).toBe(true);
  });

  it("no wrap/close for a non-SOL input; payer ≠ maker gives two signer slots; auto price = p95", () => {
    const programs = built.instructions.map((ix) => ix.programId.toBase58());
    expect(programs).toEqual([
      "ComputeBudget111111111111111111111111111111",
      "ComputeBudget111111111111111111111111111111",
      "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
      LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    ]);
    const tx = VersionedTransaction.deserialize(built.transaction);
    expect(tx.version).toBe(0);
    expect(tx.signatures).toHaveLength(2);
    expect(tx.signatures.every((s) => s.every((byte) => byte === 0))).toBe(true);
    expect(built.signers.map(String)).toEqual([payer.toBase58(), maker.toBase58()]);
    // 20 fees: nearest-rank 95th percentile = the 19th smallest = 170.
    expect(built.computeUnitPriceMicroLamports).toBe(170n);
    expect(Buffer.from(built.instructions[1].data).readBigUInt64LE(1)).toBe(170n);
  });

  it("the referral slot is the program id (None) without feeAccount", () => {
    const noFee = buildCreateOrderTransaction(
      { ...request, feeAccount: undefined, params: { ...request.params, feeBps: undefined } },
      { accounts, uniqueId: 43n, nowUnixSeconds: NOW, recentPriorityFees: [], recentBlockhash: "AtbRHhwu6FxBKbT2PD7CbJwZX7f8yzf1YUayur7MEqGJ" },
    );
    const ix = noFee.instructions.find((i) => i.programId.equals(LIMIT_ORDER_V2_PROGRAM_ID))!;
    expect(ix.keys[6].pubkey.equals(LIMIT_ORDER_V2_PROGRAM_ID)).toBe(true);
    expect(decodeInitializeOrder(ix.data).params.fee_bps).toBeNull();
    expect(noFee.computeUnitPriceMicroLamports).toBe(0n);
  });

  it("mints are checked against the chain: missing mint, non-token owner, claimed token program", () => {
    const missing = Keypair.generate().publicKey;
    const env = { accounts, uniqueId: 1n, nowUnixSeconds: NOW, recentPriorityFees: [], recentBlockhash: "AtbRHhwu6FxBKbT2PD7CbJwZX7f8yzf1YUayur7MEqGJ" };
    const attempt = (patch: Partial<CreateOrderRequest>, accountsOverride = accounts) => {
      try {
        buildCreateOrderTransaction({ ...request, ...patch }, { ...env, accounts: accountsOverride });
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return [(error as ValidationError).field, (error as ValidationError).rule];
      }
      return null;
    };
    expect(attempt({ outputMint: missing.toBase58() })).toEqual(["outputMint", "mint_exists"]);
    const systemOwned = new Map(accounts);
    systemOwned.set(missing.toBase58(), { ...mintAccount(missing, TOKEN_PROGRAM_ID, 6), owner: new PublicKey("11111111111111111111111111111111") });
    expect(attempt({ outputMint: missing.toBase58() }, systemOwned)).toEqual(["outputMint", "mint_owner"]);
    expect(attempt({ inputTokenProgram: TOKEN_PROGRAM_ID.toBase58() })).toEqual(["inputTokenProgram", "token_program_mismatch"]);
  });
});
