/**
 * The addresses a lookup table should hold so that swaps through given markets fit: Jupiter's
 * program, event authority and program authorities (with their token accounts for every mint the
 * markets trade), the token programs, and every account a route step through each market passes in
 * either direction (pool, vaults, config, tick/bin arrays as they are now...). Pure: the caller
 * reads the pools and what their steps need.
 */
import { PublicKey } from "@solana/web3.js";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import type { AccountMap } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { ABSENT_ACCOUNT, PROGRAM_AUTHORITY_COUNT, findEventAuthority, findProgramAuthority } from "../core/jupiter/pdas.js";
import { associatedTokenAddress } from "../core/solana/token-accounts.js";
import { SYSTEM_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../core/solana/programs.js";

export interface TableMarket {
  readonly adapter: AnyAmmAdapter;
  readonly pool: unknown;
}

/** Any key stands in for the token accounts and authority of a step; they are left out afterwards. */
const PLACEHOLDER = PublicKey.default;

export function marketTableAddresses(markets: readonly TableMarket[], accounts: AccountMap): PublicKey[] {
  const out = new Map<string, PublicKey>();
  const add = (key: PublicKey) => {
    if (!key.equals(PLACEHOLDER)) out.set(base58Of(key), key);
  };
  [ABSENT_ACCOUNT, findEventAuthority(), TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, SYSTEM_PROGRAM_ID].forEach(add);
  const mints = new Map<string, PublicKey>();
  for (const { adapter, pool } of markets) {
    const [a, b] = adapter.mints(pool);
    for (const [source, destination] of [
      [a, b],
      [b, a],
    ] as const) {
      mints.set(base58Of(source), source);
      const step = adapter.build(
        pool,
        {
          sourceMint: source,
          destinationMint: destination,
          sourceTokenAccount: PLACEHOLDER,
          destinationTokenAccount: PLACEHOLDER,
          tokenTransferAuthority: PLACEHOLDER,
          user: PLACEHOLDER,
          inAmount: 1n,
          outAmount: 1n,
          swapMode: "ExactIn",
        },
        accounts,
      );
      step.accounts.forEach((meta) => add(meta.pubkey));
    }
  }
  for (let id = 0; id < PROGRAM_AUTHORITY_COUNT; id++) {
    const authority = findProgramAuthority(id);
    add(authority);
    for (const mint of mints.values()) {
      const tokenProgram = accounts.get(base58Of(mint))?.owner ?? TOKEN_PROGRAM_ID;
      add(associatedTokenAddress(authority, mint, tokenProgram));
    }
  }
  for (const mint of mints.values()) add(mint);
  return [...out.values()];
}
