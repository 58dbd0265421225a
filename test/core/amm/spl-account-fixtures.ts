// Shared by the AMM tests (DAMM v1/v2, PumpSwap and others): SPL accounts written in SPL's own layouts, a one-step Jupiter
// quote, and the step accounts of a swap instruction swapd returned over REST.
import { PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { expect } from "vitest";
import type { Localnet } from "../../../src/localnet/start-localnet.js";
import { TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { readReferenceJson } from "../../fixtures/reference.js";
import { mintAccountData } from "../../fixtures/mint-account.js";
import { jupiterQuote } from "../../api/swap-stack.js";
import type { SwapStack } from "../../api/swap-stack.js";
import { encodeTokenAccount } from "../../../src/core/solana/token-accounts.js";

export const RENT = 10_000_000n;

/** An account to write into a localnet. */
export interface SeedAccount {
  readonly address: PublicKey;
  readonly owner: PublicKey;
  readonly data: Uint8Array;
}

export function seedAccounts(localnet: Localnet, accounts: readonly SeedAccount[]): void {
  for (const a of accounts) localnet.setAccount(a.address, { lamports: RENT, data: a.data, owner: a.owner });
}

export const mint = (address: PublicKey, decimals: number, owner = TOKEN_PROGRAM_ID): SeedAccount => ({
  address,
  owner,
  data: mintAccountData(decimals, null, 0n),
});

export const tokenAccount = (address: PublicKey, mintKey: PublicKey, owner: PublicKey, amount: bigint): SeedAccount => ({
  address,
  owner: TOKEN_PROGRAM_ID,
  data: encodeTokenAccount(mintKey, owner, amount, null),
});

/** The on-chain `Swap` enum's index of `variant` (derived latest Jupiter IDL: an independent source). */
export function swapVariantIndex(variant: string): number {
  const variants = readReferenceJson("jupiter-aggregator-v6.derived-latest.json").types.Swap as { name: string }[];
  const index = variants.findIndex((v) => v.name === variant);
  if (index < 0) throw new Error(`no Swap variant ${variant}`);
  return index;
}

/** `route`'s fixed accounts (the Jupiter IDL): the step's accounts follow them. */
const ROUTE_FIXED_ACCOUNTS = 9;

export interface WireStep {
  readonly accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  /** The first route-plan step's `Swap` variant index (route data: discriminator, vec length, variant). */
  readonly variantIndex: number;
}

/** POST /swap/v1/swap-instructions for one step through `ammKey`; the step's accounts and variant. */
export async function swapThroughWire(
  stack: SwapStack,
  step: { ammKey: PublicKey; label: string; inputMint: PublicKey; outputMint: PublicKey; inAmount: bigint; outAmount: bigint },
  user: PublicKey,
): Promise<WireStep> {
  const s = {
    ammKey: step.ammKey.toBase58(),
    label: step.label,
    inputMint: step.inputMint.toBase58(),
    outputMint: step.outputMint.toBase58(),
    inAmount: String(step.inAmount),
    outAmount: String(step.outAmount),
  };
  const { status, body } = await stack.rest({
    userPublicKey: user.toBase58(),
    wrapAndUnwrapSol: false,
    useSharedAccounts: false,
    quoteResponse: jupiterQuote([s], s),
  });
  expect(status, JSON.stringify(body)).toBe(200);
  const data = Buffer.from(body.swapInstruction.data, "base64");
  return { accounts: body.swapInstruction.accounts.slice(ROUTE_FIXED_ACCOUNTS), variantIndex: data[12] };
}

/** An AMM's own instruction in Jupiter's step layout: its program id, then its accounts, none signing. */
export function jupiterStepOf(programId: PublicKey, keys: readonly AccountMeta[]) {
  return [
    { pubkey: programId.toBase58(), isSigner: false, isWritable: false },
    ...keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: false, isWritable: k.isWritable })),
  ];
}

export function metasOf(keys: readonly AccountMeta[]) {
  return keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable }));
}

/**
 * An account in an SDK's Anchor layout: discriminator then the Borsh body. (Anchor's
 * `coder.accounts.encode` writes into a fixed 1000-byte buffer, too small for some pools.)
 * Works with both the Anchor 0.2x coders (layouts by name) and 0.30+ ({discriminator, layout}).
 */
export function encodeAnchorAccount(coder: any, name: string, value: unknown): Uint8Array {
  const entry = coder.accounts.accountLayouts.get(name);
  const body = Buffer.alloc(8192);
  if (entry.discriminator) {
    const length = entry.layout.encode(value, body);
    return Buffer.concat([Buffer.from(entry.discriminator), body.subarray(0, length)]);
  }
  const length = entry.encode(value, body);
  return Buffer.concat([coder.accounts.constructor.accountDiscriminator(name), body.subarray(0, length)]);
}

/** A zero value of an (Anchor 0.30, camelCase) IDL type: every number 0, every key the default key. */
export function zeroOf(type: any, types: readonly any[], BN: new (n: number) => unknown): any {
  if (typeof type === "string") {
    if (type === "pubkey") return PublicKey.default;
    if (type === "bool") return false;
    return /^[ui](64|128)$/.test(type) ? new BN(0) : 0;
  }
  if ("array" in type) return Array.from({ length: type.array[1] }, () => zeroOf(type.array[0], types, BN));
  if ("defined" in type) {
    const def = types.find((t) => t.name === type.defined.name);
    if (def.type.kind !== "struct") throw new Error(`zeroOf: ${type.defined.name} is not a struct`);
    return Object.fromEntries(def.type.fields.map((f: any) => [f.name, zeroOf(f.type, types, BN)]));
  }
  throw new Error(`zeroOf: unhandled type ${JSON.stringify(type)}`);
}
