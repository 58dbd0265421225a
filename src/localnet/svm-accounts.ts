/** Account access on LiteSVM in the project's representation (web3.js PublicKey, AccountData). */
import { address, lamports as toLamports } from "@solana/kit";
import type { Address } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { LiteSVM } from "litesvm";
import type { AccountData } from "../core/solana/account.js";

export interface AccountInput {
  readonly lamports: bigint;
  readonly data: Uint8Array;
  readonly owner: PublicKey;
  readonly executable?: boolean;
}

export function svmAddress(key: PublicKey): Address {
  return address(key.toBase58());
}

export function readAccount(svm: LiteSVM, key: PublicKey): AccountData | null {
  const account = svm.getAccount(svmAddress(key));
  if (!account.exists) return null;
  return {
    address: key,
    owner: new PublicKey(account.programAddress),
    lamports: BigInt(account.lamports),
    data: account.data,
    executable: account.executable,
  };
}

export function writeAccount(svm: LiteSVM, key: PublicKey, account: AccountInput): void {
  svm.setAccount({
    address: svmAddress(key),
    data: account.data,
    lamports: toLamports(account.lamports),
    programAddress: svmAddress(account.owner),
    executable: account.executable ?? false,
    space: BigInt(account.data.length),
  });
}

export function readProgramAccounts(svm: LiteSVM, owner: PublicKey): AccountData[] {
  return svm.getProgramAccounts(svmAddress(owner)).map((a) => ({
    address: new PublicKey(a.address),
    owner,
    lamports: BigInt(a.lamports),
    data: a.data as Uint8Array,
    executable: a.executable,
  }));
}
