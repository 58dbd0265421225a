// The chain layer's one mint cache: only real mints (as spl-token's layouts write them) are kept,
// bounded, least recently used out first.
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { MintAccountCache } from "../../src/chain/mint-account-cache.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";
import { encodeMintAccount } from "../../src/core/solana/token-accounts.js";

function mintAccount(owner: PublicKey = TOKEN_PROGRAM_ID, decimals = 6): AccountData {
  const data = encodeMintAccount(decimals, null, 1n);
  return { address: Keypair.generate().publicKey, owner, lamports: 1_461_600n, data, executable: false };
}

/** A token account whose owner bytes make the mint layout's "is_initialized" byte non-zero. */
function tokenAccount(): AccountData {
  const data = encodeTokenAccount(Keypair.generate().publicKey, new PublicKey(new Uint8Array(32).fill(1)), 5n, null);
  return { address: Keypair.generate().publicKey, owner: TOKEN_PROGRAM_ID, lamports: 2_039_280n, data, executable: false };
}

describe("MintAccountCache", () => {
  it("keeps Token and Token-2022 mints, ignores token accounts, other owners, missing accounts", () => {
    const cache = new MintAccountCache();
    const classic = mintAccount();
    const t22 = mintAccount(TOKEN_2022_PROGRAM_ID, 9);
    const token = tokenAccount();
    const foreign = mintAccount(Keypair.generate().publicKey);
    for (const account of [classic, t22, token, foreign, null, undefined]) cache.remember(account);
    expect(cache.get(classic.address)).toBe(classic);
    expect(cache.get(t22.address)).toBe(t22);
    expect(cache.has(token.address)).toBe(false);
    expect(cache.has(foreign.address)).toBe(false);
    expect(cache.size).toBe(2);
  });

  it("is bounded: the least recently used mint goes first", () => {
    const cache = new MintAccountCache(2);
    const [a, b, c] = [mintAccount(), mintAccount(), mintAccount()];
    cache.remember(a);
    cache.remember(b);
    expect(cache.get(a.address)).toBe(a); // a is now the most recently used
    cache.remember(c);
    expect(cache.size).toBe(2);
    expect(cache.has(b.address)).toBe(false);
    expect(cache.has(a.address) && cache.has(c.address)).toBe(true);
  });
});
