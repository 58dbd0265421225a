import { BorshCoder } from "@coral-xyz/anchor";
import type { Idl } from "@coral-xyz/anchor";
import { MintLayout, MINT_SIZE } from "@solana/spl-token";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../../../src/core/solana/account.js";

import { readReferenceJson } from "../../fixtures/reference.js";

export { readReferenceJson };

export const limitOrderIdl = readReferenceJson<Idl>("jupiter-limit-order-v2.idl.json");

/** The independent encoder/decoder: Anchor's BorshCoder over the (reconstructed) LO v2 IDL. */
export const limitOrderCoder = new BorshCoder(limitOrderIdl);

/** A mint account written with spl-token's own layout (independent of the code under test). */
export function mintAccount(address: PublicKey, owner: PublicKey, decimals: number): AccountData {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: address,
      supply: 0n,
      decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: address,
    },
    data,
  );
  return { address, owner, lamports: 1_461_600n, data, executable: false };
}

export interface DecodedReferenceTransaction {
  readonly label: string;
  readonly base64: string;
  readonly decoded: {
    readonly version: number | "legacy";
    readonly recentBlockhash: string;
    readonly instructions: readonly {
      readonly programId: string;
      readonly accounts: readonly string[];
      readonly dataHex: string;
      readonly decoded?: Record<string, unknown>;
    }[];
  };
}

export const decodedReferenceTransactions = readReferenceJson<DecodedReferenceTransaction[]>("examples/trigger-transactions-decoded.json");
