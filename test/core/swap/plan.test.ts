import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { buildSwapInstructions } from "../../../src/core/swap/build.js";
import { planAccountReads, planDependencies, planPriorityFeeAccounts, routeReadKeys } from "../../../src/core/swap/plan.js";
import { SwapPreconditionError } from "../../../src/core/swap/precondition-error.js";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import { resolveRoute } from "../../../src/core/swap/route-accounts.js";
import { decodeRoutePools } from "../../../src/core/swap/route-pools.js";
import type { RoutePool } from "../../../src/core/swap/route-pools.js";
import { ValidationError } from "../../../src/core/validation-error.js";
import { MINTS, MINT_A, MINT_B, MINT_C, USER, accountMap, key, pool, quote, request } from "./fixtures.js";
import { encodeTokenAccount } from "../../../src/core/solana/token-accounts.js";

const pSolA = pool(NATIVE_MINT, MINT_A);
const pAB = pool(MINT_A, MINT_B);
const pBC = pool(MINT_B, MINT_C);
const ata = (mint: PublicKey, program = TOKEN_PROGRAM_ID) => getAssociatedTokenAddressSync(mint, USER.publicKey, false, program);
const names = (keys: PublicKey[]) => keys.map((k) => k.toBase58());

const solToB = quote(
  [
    { pool: pSolA.pool.address, input: NATIVE_MINT, output: MINT_A, percent: 100, inAmount: 10n, outAmount: 20n },
    { pool: pAB.pool.address, input: MINT_A, output: MINT_B, percent: 100, inAmount: 20n, outAmount: 40n },
  ],
  { input: NATIVE_MINT, output: MINT_B, inAmount: 10n, outAmount: 40n },
);

describe("planning the reads", () => {
  test("one batch: pools, mints, and the user accounts that decide setup (both token programs)", () => {
    const parsed = parseSwapInstructionsRequest(request(solToB, { useSharedAccounts: false }));
    const reads = names(planAccountReads(parsed, routeReadKeys(parsed)));
    expect(reads).toEqual(
      names([
        pSolA.pool.address,
        pAB.pool.address,
        NATIVE_MINT,
        MINT_A,
        MINT_B,
        ata(MINT_B),
        ata(MINT_B, TOKEN_2022_PROGRAM_ID),
        ata(NATIVE_MINT),
        ata(MINT_A),
        ata(MINT_A, TOKEN_2022_PROGRAM_ID),
      ]),
    );
    const skipping = parseSwapInstructionsRequest(request(solToB, { skipUserAccountsRpcCalls: true }));
    expect(names(planAccountReads(skipping, routeReadKeys(skipping)))).toEqual(names([pSolA.pool.address, pAB.pool.address, NATIVE_MINT, MINT_A, MINT_B]));
  });

  test("immutable pools are cached and not read again; fee accounts come from the pools unless global", () => {
    const parsed = parseSwapInstructionsRequest(request(solToB, { skipUserAccountsRpcCalls: true }));
    const cache = new Map<string, RoutePool>();
    decodeRoutePools(parsed, accountMap([pSolA.pool, pAB.pool]), cache);
    expect(cache.size).toBe(2);
    expect(names(planAccountReads(parsed, routeReadKeys(parsed), cache))).toEqual(names([NATIVE_MINT, MINT_A, MINT_B]));
    expect(decodeRoutePools(parsed, accountMap([]), cache)).toHaveLength(2); // served from the cache
    expect(names(planPriorityFeeAccounts(parsed))).toEqual(names([pSolA.pool.address, pAB.pool.address]));
    const global = parseSwapInstructionsRequest(request(solToB, { prioritization: { kind: "priorityLevel", level: "high", maxLamports: 1, global: true } }));
    expect(planPriorityFeeAccounts(global)).toEqual([]);
  });

  test("Raydium CP needs no second read", () => {
    const parsed = parseSwapInstructionsRequest(request(solToB));
    const accounts = accountMap([pSolA.pool, pAB.pool]);
    const pools = decodeRoutePools(parsed, accounts);
    expect(planDependencies({ accounts, pools, route: resolveRoute(parsed, MINTS, 1) })).toEqual([]);
  });
});

describe("route preconditions name the step, ammKey and label", () => {
  const parsed = parseSwapInstructionsRequest(request(solToB));
  const cases: [string, ReturnType<typeof accountMap>, RegExp][] = [
    ["pool missing", accountMap([pSolA.pool], [pAB.pool.address]), /routePlan\[1\] \(ammKey .*, label "Raydium CP"\): pool account not found/],
    ["unknown owner", accountMap([pSolA.pool, { ...pAB.pool, owner: key("some amm") }]), /routePlan\[1\].*unsupported AMM/],
    ["not a pool", accountMap([{ ...pSolA.pool, data: pSolA.config.data }, pAB.pool]), /routePlan\[0\].*not a Raydium CPMM pool state/],
    ["pool trades other mints", accountMap([pSolA.pool, { ...pBC.pool, address: pAB.pool.address }]), /routePlan\[1\].*pool trades/],
  ];
  for (const [name, accounts, message] of cases) {
    test(name, () => {
      expect(() => decodeRoutePools(parsed, accounts)).toThrow(SwapPreconditionError);
      expect(() => decodeRoutePools(parsed, accounts)).toThrow(message);
    });
  }
});

describe("fee account", () => {
  function tokenAccount(address: PublicKey, mint: PublicKey) {
    const data = encodeTokenAccount(mint, key("fee owner"), 0n, null);
    return { address, owner: TOKEN_PROGRAM_ID, lamports: 1n, data: new Uint8Array(data), executable: false };
  }
  const feeAccount = key("fee");
  const withFee = quote([{ pool: pAB.pool.address, input: MINT_A, output: MINT_B, percent: 100, inAmount: 10n, outAmount: 20n }], {
    input: MINT_A,
    output: MINT_B,
    inAmount: 10n,
    outAmount: 20n,
    feeBps: 50,
  });
  const parsed = parseSwapInstructionsRequest(request(withFee, { feeAccount: feeAccount.toBase58() }));
  const run = (fee: ReturnType<typeof tokenAccount>) => {
    const accounts = accountMap([pAB.pool, fee]);
    return buildSwapInstructions(parsed, { accounts, pools: decodeRoutePools(parsed, accounts), mints: MINTS, route: resolveRoute(parsed, MINTS, 0) });
  };

  test("its mint must be the input or output mint", () => {
    expect(names(planAccountReads(parsed, routeReadKeys(parsed)))).toContain(feeAccount.toBase58());
    expect(run(tokenAccount(feeAccount, MINT_B)).swapInstruction.keys[6].pubkey.equals(feeAccount)).toBe(true); // route's platform_fee_account
    expect(() => run(tokenAccount(feeAccount, MINT_C))).toThrow(ValidationError);
    expect(() => run(tokenAccount(feeAccount, MINT_C))).toThrow("feeAccount: its mint must be the input or the output mint");
  });
});

describe("cleanup and destinationTokenAccount", () => {
  test("no output ATA and no wSOL close with destinationTokenAccount", () => {
    const dest = key("destination");
    const toSol = quote([{ pool: pSolA.pool.address, input: MINT_A, output: NATIVE_MINT, percent: 100, inAmount: 10n, outAmount: 20n }], {
      input: MINT_A,
      output: NATIVE_MINT,
      inAmount: 10n,
      outAmount: 20n,
    });
    const build = (extra: object) => {
      const parsed = parseSwapInstructionsRequest(request(toSol, extra));
      const accounts = accountMap([pSolA.pool]);
      return buildSwapInstructions(parsed, { accounts, pools: decodeRoutePools(parsed, accounts), mints: MINTS, route: resolveRoute(parsed, MINTS, 0) });
    };
    const plain = build({});
    expect(plain.setupInstructions).toHaveLength(1);
    expect(plain.cleanupInstruction).toBeDefined();
    const withDest = build({ destinationTokenAccount: dest.toBase58() });
    expect(withDest.setupInstructions).toHaveLength(0);
    expect(withDest.cleanupInstruction).toBeUndefined();
    // route: user_destination_token_account (index 3) is the given account
    expect(withDest.swapInstruction.keys[3].pubkey.equals(dest)).toBe(true);
    const noUnwrap = build({ wrapAndUnwrapSol: false });
    expect(noUnwrap.cleanupInstruction).toBeUndefined();
  });
});
