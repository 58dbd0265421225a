// Each Jupiter instruction builder against the IDL: Anchor decodes the data, and the accounts
// line up with the IDL's account list (names, flags; absent optionals = JUP6 read-only).
import { PublicKey } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { getExactOutRouteInstruction } from "../../../src/core/jupiter/instructions/exact-out-route.js";
import { getRouteWithTokenLedgerInstruction } from "../../../src/core/jupiter/instructions/route-with-token-ledger.js";
import { getRouteInstruction } from "../../../src/core/jupiter/instructions/route.js";
import { getSetTokenLedgerInstruction, TOKEN_LEDGERS } from "../../../src/core/jupiter/instructions/set-token-ledger.js";
import { getSharedAccountsExactOutRouteInstruction } from "../../../src/core/jupiter/instructions/shared-accounts-exact-out-route.js";
import { getSharedAccountsRouteWithTokenLedgerInstruction } from "../../../src/core/jupiter/instructions/shared-accounts-route-with-token-ledger.js";
import { getSharedAccountsRouteInstruction } from "../../../src/core/jupiter/instructions/shared-accounts-route.js";
import type { RoutePlanStep } from "../../../src/core/jupiter/route-plan.js";
import { jupiterCoder, plain, readReference } from "./anchor-idl.js";

const coder = jupiterCoder();
const JUP6 = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";
const k = (n: number) => new PublicKey(new Uint8Array(32).fill(n));
const plan: RoutePlanStep[] = [
  { swap: { kind: "Whirlpool", fields: { a_to_b: true } }, percent: 100, inputIndex: 0, outputIndex: 1 },
  { swap: { kind: "Phoenix", fields: { side: "Ask" } }, percent: 50, inputIndex: 1, outputIndex: 2 },
  { swap: { kind: "RaydiumCP" }, percent: 50, inputIndex: 1, outputIndex: 2 },
];
const anchorPlan = [
  { swap: { Whirlpool: { aToB: true } }, percent: 100, inputIndex: 0, outputIndex: 1 },
  { swap: { Phoenix: { side: { Ask: {} } } }, percent: 50, inputIndex: 1, outputIndex: 2 },
  { swap: { RaydiumCP: {} }, percent: 50, inputIndex: 1, outputIndex: 2 },
];
const derived = readReference("jupiter-aggregator-v6.derived-latest.json");

function checkAccounts(ix: TransactionInstruction, name: string, given: Record<string, PublicKey>) {
  const spec = derived.instructions[name].accounts as { name: string; writable: boolean; signer: boolean; optional?: boolean; address?: string }[];
  spec.forEach((a, i) => {
    const meta = ix.keys[i];
    const camel = a.name.replace(/_([a-z0-9])/g, (_m: string, c: string) => c.toUpperCase());
    const expected = given[camel]?.toBase58() ?? a.address ?? (a.optional ? JUP6 : undefined);
    expect(meta.pubkey.toBase58(), `${name}.${a.name}`).toBe(expected);
    const placeholder = a.optional && !given[camel];
    expect([meta.isSigner, meta.isWritable], `${name}.${a.name} flags`).toEqual(placeholder ? [false, false] : [a.signer, a.writable]);
  });
  expect(ix.keys.slice(spec.length).map((m) => m.pubkey.toBase58())).toEqual([k(99).toBase58()]);
}

const remainingAccounts = [{ pubkey: k(99), isSigner: false, isWritable: true }];

describe("instruction builders vs the IDL", () => {
  test("route", () => {
    const accounts = {
      tokenProgram: k(1),
      userTransferAuthority: k(2),
      userSourceTokenAccount: k(3),
      userDestinationTokenAccount: k(4),
      destinationMint: k(6),
      platformFeeAccount: k(7),
    };
    const ix = getRouteInstruction(
      { ...accounts, remainingAccounts },
      { routePlan: plan, inAmount: 2n ** 63n, quotedOutAmount: 5n, slippageBps: 65535, platformFeeBps: 255 },
    );
    expect(plain(coder.instruction.decode(ix.data))).toEqual({
      name: "route",
      data: { routePlan: anchorPlan, inAmount: (2n ** 63n).toString(), quotedOutAmount: "5", slippageBps: 65535, platformFeeBps: 255 },
    });
    checkAccounts(ix, "route", accounts);
  });

  test("exact_out_route", () => {
    const accounts = {
      tokenProgram: k(1),
      userTransferAuthority: k(2),
      userSourceTokenAccount: k(3),
      userDestinationTokenAccount: k(4),
      destinationTokenAccount: k(5),
      sourceMint: k(6),
      destinationMint: k(7),
      token2022Program: k(8),
    };
    const ix = getExactOutRouteInstruction(
      { ...accounts, remainingAccounts },
      { routePlan: plan, outAmount: 9n, quotedInAmount: 8n, slippageBps: 1, platformFeeBps: 0 },
    );
    expect(plain(coder.instruction.decode(ix.data))).toEqual({
      name: "exactOutRoute",
      data: { routePlan: anchorPlan, outAmount: "9", quotedInAmount: "8", slippageBps: 1, platformFeeBps: 0 },
    });
    checkAccounts(ix, "exact_out_route", accounts);
  });

  const shared = {
    tokenProgram: k(1),
    programAuthority: k(2),
    userTransferAuthority: k(3),
    sourceTokenAccount: k(4),
    programSourceTokenAccount: k(5),
    programDestinationTokenAccount: k(6),
    destinationTokenAccount: k(7),
    sourceMint: k(8),
    destinationMint: k(9),
  };

  test("shared_accounts_route and shared_accounts_exact_out_route", () => {
    const a = getSharedAccountsRouteInstruction(
      { ...shared, remainingAccounts },
      { id: 7, routePlan: plan, inAmount: 1n, quotedOutAmount: 2n, slippageBps: 3, platformFeeBps: 4 },
    );
    expect(plain(coder.instruction.decode(a.data))).toEqual({
      name: "sharedAccountsRoute",
      data: { id: 7, routePlan: anchorPlan, inAmount: "1", quotedOutAmount: "2", slippageBps: 3, platformFeeBps: 4 },
    });
    checkAccounts(a, "shared_accounts_route", shared);
    const b = getSharedAccountsExactOutRouteInstruction(
      { ...shared, platformFeeAccount: k(10), remainingAccounts },
      { id: 0, routePlan: plan, outAmount: 1n, quotedInAmount: 2n, slippageBps: 3, platformFeeBps: 4 },
    );
    expect(plain(coder.instruction.decode(b.data))).toEqual({
      name: "sharedAccountsExactOutRoute",
      data: { id: 0, routePlan: anchorPlan, outAmount: "1", quotedInAmount: "2", slippageBps: 3, platformFeeBps: 4 },
    });
    checkAccounts(b, "shared_accounts_exact_out_route", { ...shared, platformFeeAccount: k(10) });
  });

  test("token-ledger forms and set_token_ledger", () => {
    const ledger = new PublicKey(TOKEN_LEDGERS[0]);
    const routeAccounts = {
      tokenProgram: k(1),
      userTransferAuthority: k(2),
      userSourceTokenAccount: k(3),
      userDestinationTokenAccount: k(4),
      destinationMint: k(6),
      tokenLedger: ledger,
    };
    const a = getRouteWithTokenLedgerInstruction(
      { ...routeAccounts, remainingAccounts },
      { routePlan: plan, quotedOutAmount: 2n, slippageBps: 3, platformFeeBps: 4 },
    );
    expect(plain(coder.instruction.decode(a.data))).toEqual({
      name: "routeWithTokenLedger",
      data: { routePlan: anchorPlan, quotedOutAmount: "2", slippageBps: 3, platformFeeBps: 4 },
    });
    checkAccounts(a, "route_with_token_ledger", routeAccounts);
    const b = getSharedAccountsRouteWithTokenLedgerInstruction(
      { ...shared, tokenLedger: ledger, remainingAccounts },
      { id: 2, routePlan: plan, quotedOutAmount: 2n, slippageBps: 3, platformFeeBps: 4 },
    );
    expect(plain(coder.instruction.decode(b.data)).name).toBe("sharedAccountsRouteWithTokenLedger");
    checkAccounts(b, "shared_accounts_route_with_token_ledger", { ...shared, tokenLedger: ledger });
    const c = getSetTokenLedgerInstruction({ tokenLedger: ledger, tokenAccount: k(3) });
    expect(plain(coder.instruction.decode(c.data))).toEqual({ name: "setTokenLedger", data: {} });
  });
});
