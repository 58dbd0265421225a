// The swap API over the wire: grpc-js, Connect JSON, REST and @jup-ag/api give the same
// instructions; the Raydium CP step equals Raydium's own SDK instruction for the demo pool.
import { Configuration, SwapApi, createJupiterApiClient } from "@jup-ag/api";
import { CpmmPoolInfoLayout, getPdaPoolAuthority, makeSwapCpmmBaseInInstruction, makeSwapCpmmBaseOutInstruction } from "@raydium-io/raydium-sdk-v2";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, PublicKey } from "@solana/web3.js";
import { BN } from "@coral-xyz/anchor";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jupiterCoder, jupiterIdl, plain } from "../core/jupiter/anchor-idl.js";
import { DEMO_POOL, SOL, USDC, WALLET, demoSolToUsdc, groupsOf, jupiterQuote, startSwapStack, toProtoJson } from "./swap-stack.js";
import type { SwapStack } from "./swap-stack.js";

const CPMM = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");
const coder = jupiterCoder();
const idlInstructions = (jupiterIdl() as any).instructions as { name: string; accounts: { name: string }[] }[];

let stack: SwapStack;
beforeAll(async () => {
  stack = await startSwapStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The swap instruction decoded by Anchor over the IDL, with its fixed and remaining accounts split by the IDL. */
function decodeSwap(ix: { accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[]; data: string }) {
  const decoded = plain(coder.instruction.decode(Buffer.from(ix.data, "base64")));
  const fixedCount = idlInstructions.find((i) => i.name === decoded.name)!.accounts.length;
  return { name: decoded.name as string, args: decoded.data, fixed: ix.accounts.slice(0, fixedCount), steps: ix.accounts.slice(fixedCount) };
}

describe("one request, every protocol", () => {
  test("grpc-js, Connect JSON, REST and @jup-ag/api return the same instructions", async () => {
    const request = demoSolToUsdc({ prioritizationFeeLamports: { jitoTipLamports: 1000 } });
    const rest = await stack.rest(request);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const connect = await stack.connect(toProtoJson(request));
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    const grpc = await stack.grpc(toProtoJson(request));
    // @jup-ag/api 6.0.48's createJupiterApiClient overrides `basePath` with Jupiter's own host
    // (it only picks between the public and the API-key server), so the client it builds is built
    // here the same way, with our base path: the same SwapApi class and request/response models.
    const jup = new SwapApi(new Configuration({ basePath: `${stack.server.url}/swap/v1` }));
    expect(Object.getPrototypeOf(createJupiterApiClient())).toBe(SwapApi.prototype);
    const viaSdk = await jup.swapInstructionsPost({ swapRequest: request as any });

    const expected = groupsOf(rest.body);
    expect(groupsOf(connect.body)).toEqual(expected);
    expect(groupsOf(grpc)).toEqual(expected);
    // @jup-ag/api models only the instruction groups.
    expect(groupsOf({ ...viaSdk, computeUnitLimit: expected.computeUnitLimit, prioritizationFeeLamports: expected.prioritizationFeeLamports })).toEqual(
      expected,
    );

    // The relay tip went where Jupiter puts it, under both names.
    expect(rest.body.prioritizationType).toEqual({ jito: { lamports: 1000 } });
    expect(connect.body.prioritizationType).toEqual({ relayTip: { lamports: "1000" } });
    expect(expected.otherInstructions).toHaveLength(1);
    expect(expected.computeBudgetInstructions).toHaveLength(1); // no price with a tip
  });

  test("REST answers in Jupiter's response shape", async () => {
    const { status, body } = await stack.rest(demoSolToUsdc());
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        "tokenLedgerInstruction",
        "computeBudgetInstructions",
        "setupInstructions",
        "swapInstruction",
        "cleanupInstruction",
        "otherInstructions",
        "addressLookupTableAddresses",
        "prioritizationFeeLamports",
        "computeUnitLimit",
        "prioritizationType",
        "simulationSlot",
        "dynamicSlippageReport",
        "simulationError",
        "addressesByLookupTableAddress",
        "blockhashWithMetadata",
      ].sort(),
    );
    expect(body.tokenLedgerInstruction).toBeNull();
    expect(body.simulationError).toBeNull();
    expect(typeof body.prioritizationFeeLamports).toBe("number");
    expect(body.computeUnitLimit).toBe(1_400_000);
    expect(body.prioritizationType).toEqual({ computeBudget: { microLamports: expect.any(Number), estimatedMicroLamports: expect.any(Number) } });
    // SOL in with wrapAndUnwrapSol (default): the wSOL account is closed in cleanup.
    expect(body.cleanupInstruction.programId).toBe("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    expect(body.cleanupInstruction.data).toBe(Buffer.from([9]).toString("base64")); // CloseAccount

    // The blockhash as 32 numbers, the chain's own latest blockhash; fetchedAt like Rust's SystemTime.
    const b = body.blockhashWithMetadata;
    expect(b.blockhash).toHaveLength(32);
    const latest = await new Connection(stack.localnet.url).getLatestBlockhash();
    expect(new PublicKey(Uint8Array.from(b.blockhash)).toBase58()).toBe(latest.blockhash); // same base58 alphabet, 32 bytes
    expect(b.lastValidBlockHeight).toBe(latest.lastValidBlockHeight);
    expect(Math.abs(b.fetchedAt.secs_since_epoch - Date.now() / 1000)).toBeLessThan(30);
    expect(b.fetchedAt.nanos_since_epoch).toBeGreaterThanOrEqual(0);
    expect(b.fetchedAt.nanos_since_epoch).toBeLessThan(1e9);

    // blockhashSlotsToExpiry shortens the validity: 150 − 10 slots fewer.
    const short = await stack.rest(demoSolToUsdc({ blockhashSlotsToExpiry: 10 }));
    expect(short.body.blockhashWithMetadata.lastValidBlockHeight).toBe(latest.lastValidBlockHeight - 140);
  });

  test("Connect JSON carries the blockhash in base58 and fetchedAt as RFC 3339", async () => {
    const { status, body } = await stack.connect(toProtoJson(demoSolToUsdc()));
    expect(status).toBe(200);
    expect(body.blockhashWithMetadata.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(Date.parse(body.blockhashWithMetadata.fetchedAt)).toBeGreaterThan(Date.now() - 30_000);
  });
});

describe("Jupiter's enum spellings over every protocol (never a silent default)", () => {
  /** A Jupiter ExactOut quote: USDC → exactly 0.99 SOL through the demo pool. */
  const exactOut = (swapMode: string) => {
    const quoteResponse = jupiterQuote([{ ammKey: DEMO_POOL, inputMint: USDC, outputMint: SOL, inAmount: "150000000", outAmount: "990000000" }], {
      inputMint: USDC,
      outputMint: SOL,
      inAmount: "150000000",
      outAmount: "990000000",
      swapMode: "ExactOut",
    });
    return { userPublicKey: WALLET, quoteResponse: { ...quoteResponse, swapMode } };
  };

  // Raydium CP refuses ExactOut (Jupiter's exact_out_route rejects RaydiumCP steps, test/onchain), so
  // an ExactOut spelling that was understood reaches that refusal; one silently read as ExactIn builds a route.
  for (const spelling of ["ExactOut", "SWAP_MODE_EXACT_OUT"]) {
    test(`"swapMode": "${spelling}" over Connect JSON and grpc-js is read as ExactOut`, async () => {
      const connect = await stack.connect(exactOut(spelling));
      expect(connect.status, JSON.stringify(connect.body)).toBe(400);
      expect(connect.body).toMatchObject({
        code: "failed_precondition",
        message: expect.stringMatching(/^routePlan\[0\] \(ammKey \w+, label "Raydium CP"\): Raydium CP does not support ExactOut/),
      });
      const err = await stack.grpc(exactOut(spelling)).then(
        () => undefined,
        (e: any) => e,
      );
      expect(err?.code, err?.details).toBe(9); // FAILED_PRECONDITION
      expect(err.details).toMatch(/does not support ExactOut/);
    });
  }

  test('"swapMode": "ExactIn" over grpc-js builds route', async () => {
    const swap = decodeSwap(groupsOf(await stack.grpc(demoSolToUsdc())).swapInstruction);
    expect(swap.name).toBe("route");
  });

  test('"swapMode": "Sideways" → INVALID_ARGUMENT naming quoteResponse.swapMode (Connect JSON and grpc-js)', async () => {
    const connect = await stack.connect(exactOut("Sideways"));
    expect(connect.status).toBe(400);
    expect(connect.body).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^quoteResponse\.swapMode: /) });
    const err = await stack.grpc(exactOut("Sideways")).then(
      () => undefined,
      (e: any) => e,
    );
    expect(err?.code, err?.details).toBe(3); // INVALID_ARGUMENT
    expect(err.details).toMatch(/^quoteResponse\.swapMode: .*"Sideways"/);
  });

  test('"priorityLevel": "veryHigh" (Jupiter) and "PRIORITY_LEVEL_VERY_HIGH" (former enum name) are the same over Connect JSON; "ultra" is refused', async () => {
    const fee = (priorityLevel: string) =>
      demoSolToUsdc({ prioritizationFeeLamports: { priorityLevelWithMaxLamports: { priorityLevel, maxLamports: "1000" } } });
    const jupiter = await stack.connect(fee("veryHigh"));
    const former = await stack.connect(fee("PRIORITY_LEVEL_VERY_HIGH"));
    expect(jupiter.status, JSON.stringify(jupiter.body)).toBe(200);
    expect(former.status, JSON.stringify(former.body)).toBe(200);
    expect(groupsOf(former.body).computeBudgetInstructions).toEqual(groupsOf(jupiter.body).computeBudgetInstructions);
    const bad = await stack.connect(fee("ultra"));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^prioritizationFeeLamports\.priorityLevelWithMaxLamports\.priorityLevel: /);
  });
});

describe("Raydium CP over the wire: step accounts equal Raydium SDK's swap instruction", () => {
  const user = new PublicKey(WALLET);
  const ata = (mint: string) => getAssociatedTokenAddressSync(new PublicKey(mint), user, true);

  for (const [direction, input, output] of [
    ["SOL → USDC", SOL, USDC],
    ["USDC → SOL", USDC, SOL],
  ] as const) {
    for (const mode of ["ExactIn"] as const) {
      test(`${direction}, ${mode}`, async () => {
        const inAmount = input === SOL ? "1000000000" : "150000000";
        const outAmount = input === SOL ? "149000000" : "990000000";
        const request = {
          userPublicKey: WALLET,
          quoteResponse: jupiterQuote([{ ammKey: DEMO_POOL, inputMint: input, outputMint: output, inAmount, outAmount }], {
            inputMint: input,
            outputMint: output,
            inAmount,
            outAmount,
            swapMode: mode,
          }),
        };
        const { status, body } = await stack.rest(request);
        expect(status, JSON.stringify(body)).toBe(200);
        const swap = decodeSwap(body.swapInstruction);
        expect(swap.name).toBe(mode === "ExactIn" ? "route" : "exactOutRoute");
        expect(swap.args.routePlan).toEqual([{ swap: { RaydiumCP: {} }, percent: 100, inputIndex: 0, outputIndex: 1 }]);

        // Raydium's SDK, given the pool as the localnet holds it (read with web3.js).
        const info = await new Connection(stack.localnet.url).getAccountInfo(new PublicKey(DEMO_POOL));
        const pool = CpmmPoolInfoLayout.decode(info!.data);
        const aToB = pool.mintA.toBase58() === input;
        const make = mode === "ExactIn" ? makeSwapCpmmBaseInInstruction : makeSwapCpmmBaseOutInstruction;
        const sdk = make(
          CPMM,
          user,
          getPdaPoolAuthority(CPMM).publicKey,
          pool.configId,
          new PublicKey(DEMO_POOL),
          ata(input),
          ata(output),
          aToB ? pool.vaultA : pool.vaultB,
          aToB ? pool.vaultB : pool.vaultA,
          aToB ? pool.mintProgramA : pool.mintProgramB,
          aToB ? pool.mintProgramB : pool.mintProgramA,
          new PublicKey(input),
          new PublicKey(output),
          pool.observationId,
          new BN(1),
          new BN(1),
        );
        // Jupiter's raydiumCpSwap layout: the program id, then Raydium's accounts, the payer as a plain account.
        const expected = [
          { pubkey: CPMM.toBase58(), isSigner: false, isWritable: false },
          ...sdk.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: false, isWritable: k.isWritable })),
        ];
        expect(swap.steps).toEqual(expected);
      });
    }
  }
});

describe("prioritizationFeeLamports shapes (REST = Jupiter's JSON, Connect = the proto oneof)", () => {
  /** SetComputeUnitLimit [2, u32] and SetComputeUnitPrice [3, u64], decoded from the bytes. */
  const budget = (ixs: { data: string }[]) =>
    ixs.map((ix) => {
      const d = Buffer.from(ix.data, "base64");
      return d[0] === 2 ? { limit: d.readUInt32LE(1) } : { microLamports: d.readBigUInt64LE(1) };
    });
  const cases: { name: string; extra: Record<string, unknown>; budget: object[]; type: unknown; fee: number; others: number }[] = [
    {
      name: "an integer: that many lamports in total",
      extra: { prioritizationFeeLamports: 14_000 },
      budget: [{ limit: 1_400_000 }, { microLamports: 10_000n }],
      type: { computeBudget: { microLamports: 10_000, estimatedMicroLamports: null } },
      fee: 14_000,
      others: 0,
    },
    { name: '"disabled": no price, no tip', extra: { prioritizationFeeLamports: "disabled" }, budget: [{ limit: 1_400_000 }], type: null, fee: 0, others: 0 },
    {
      name: "computeUnitPriceMicroLamports: the exact price",
      extra: { computeUnitPriceMicroLamports: 5_000 },
      budget: [{ limit: 1_400_000 }, { microLamports: 5_000n }],
      type: { computeBudget: { microLamports: 5_000, estimatedMicroLamports: null } },
      fee: 7_000,
      others: 0,
    },
    {
      name: "priorityLevelWithMaxLamports",
      extra: { prioritizationFeeLamports: { priorityLevelWithMaxLamports: { priorityLevel: "veryHigh", maxLamports: 1_000, global: false } } },
      budget: [{ limit: 1_400_000 }, { microLamports: 0n }],
      type: { computeBudget: { microLamports: 0, estimatedMicroLamports: 0 } },
      fee: 0,
      others: 0,
    },
    {
      name: "jitoTipLamportsWithPayer: a tip from another account",
      extra: { prioritizationFeeLamports: { jitoTipLamportsWithPayer: { lamports: 2_000, payer: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" } } },
      budget: [{ limit: 1_400_000 }],
      type: { jito: { lamports: 2_000 } },
      fee: 2_000,
      others: 1,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const request = demoSolToUsdc(c.extra);
      const rest = await stack.rest(request);
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      expect(budget(rest.body.computeBudgetInstructions)).toEqual(c.budget);
      expect(rest.body.prioritizationType).toEqual(c.type);
      expect(rest.body.prioritizationFeeLamports).toBe(c.fee);
      expect(rest.body.otherInstructions).toHaveLength(c.others);
      if (c.others) {
        // System transfer from the tip payer to one of the relay tip accounts.
        const tip = rest.body.otherInstructions[0];
        expect(tip.accounts[0]).toEqual({ pubkey: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", isSigner: true, isWritable: true });
        expect(Buffer.from(tip.data, "base64").readBigUInt64LE(4)).toBe(2_000n);
      }
      const connect = await stack.connect(toProtoJson(request));
      expect(connect.status, JSON.stringify(connect.body)).toBe(200);
      expect(groupsOf(connect.body)).toEqual(groupsOf(rest.body));
    });
  }
});
