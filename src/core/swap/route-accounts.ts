import type { PublicKey } from "@solana/web3.js";
import type { SwapParams } from "../amm/adapter.js";
import { findProgramAuthority } from "../jupiter/pdas.js";
import { associatedTokenAddress } from "../solana/token-accounts.js";
import type { MintInfo, MintMap } from "../solana/token-accounts.js";
import { SwapPreconditionError } from "./precondition-error.js";
import type { ParsedSwapRequest } from "./request.js";
import { base58Of } from "../solana/base58-strings.js";

export interface ResolvedStep {
  readonly inputIndex: number;
  readonly outputIndex: number;
  readonly params: SwapParams;
}

/** Token accounts and indices of a route, in `route` or shared-accounts mode. */
export interface ResolvedRoute {
  readonly shared: boolean;
  readonly programAuthorityId: number;
  readonly programAuthority: PublicKey;
  /** Owner of the accounts the steps swap between: the user, or the program authority when shared. */
  readonly transferAuthority: PublicKey;
  /** Mints by token slot: 0 = input, then intermediates by first appearance, last = output. */
  readonly slotMints: readonly PublicKey[];
  /** The token account of each slot used by the steps. */
  readonly slotAccounts: readonly PublicKey[];
  /** The user's source token account (their ATA of the input mint; the wSOL ATA for SOL). */
  readonly userSourceTokenAccount: PublicKey;
  /** Where the output lands: `destinationTokenAccount`, else the receiver's or the user's ATA of the output mint. */
  readonly userDestinationTokenAccount: PublicKey;
  readonly steps: readonly ResolvedStep[];
}

/** useSharedAccounts when not given: false for a single simple AMM step, true otherwise (Jupiter's rule). */
export function usesSharedAccounts(parsed: ParsedSwapRequest): boolean {
  return parsed.useSharedAccounts ?? parsed.quote.routePlan.length > 1;
}

export function mintInfo(mints: MintMap, mint: PublicKey): MintInfo {
  const info = mints.get(base58Of(mint));
  if (!info) throw new SwapPreconditionError("MINT_NOT_FOUND", `mint ${base58Of(mint)} not found`);
  return info;
}

export function resolveRoute(parsed: ParsedSwapRequest, mints: MintMap, programAuthorityId: number): ResolvedRoute {
  const { quote } = parsed;
  const shared = usesSharedAccounts(parsed);
  const programAuthority = findProgramAuthority(programAuthorityId);
  const transferAuthority = shared ? programAuthority : parsed.user;

  const slotMints: PublicKey[] = [quote.inputMint];
  for (const step of quote.routePlan) {
    if (!step.outputMint.equals(quote.outputMint) && !slotMints.some((m) => m.equals(step.outputMint))) {
      slotMints.push(step.outputMint);
    }
  }
  slotMints.push(quote.outputMint);
  const slotOf = (mint: PublicKey) => slotMints.findIndex((m) => m.equals(mint));

  const ata = (owner: PublicKey, mint: PublicKey) => associatedTokenAddress(owner, mint, mintInfo(mints, mint).tokenProgram);
  const userSourceTokenAccount = ata(parsed.user, quote.inputMint);
  // A receiver of a token gets it in its ATA (created in setup); SOL output to a native destination
  // first lands in the user's wSOL account, which the program then pays out as lamports.
  const destinationOwner = parsed.receiver !== undefined && parsed.nativeDestinationAccount === undefined ? parsed.receiver : parsed.user;
  const userDestinationTokenAccount = parsed.destinationTokenAccount ?? ata(destinationOwner, quote.outputMint);
  const last = slotMints.length - 1;
  const slotAccounts = slotMints.map((mint, slot) => {
    if (shared) return ata(programAuthority, mint);
    if (slot === 0) return userSourceTokenAccount;
    if (slot === last) return userDestinationTokenAccount;
    return ata(parsed.user, mint);
  });

  const steps = quote.routePlan.map((step): ResolvedStep => {
    const inputIndex = slotOf(step.inputMint);
    const outputIndex = slotOf(step.outputMint);
    return {
      inputIndex,
      outputIndex,
      params: {
        sourceMint: step.inputMint,
        destinationMint: step.outputMint,
        sourceTokenAccount: slotAccounts[inputIndex],
        destinationTokenAccount: slotAccounts[outputIndex],
        tokenTransferAuthority: transferAuthority,
        user: parsed.user,
        inAmount: step.inAmount,
        outAmount: step.outAmount,
        swapMode: quote.swapMode,
      },
    };
  });
  return {
    shared,
    programAuthorityId,
    programAuthority,
    transferAuthority,
    slotMints,
    slotAccounts,
    userSourceTokenAccount,
    userDestinationTokenAccount,
    steps,
  };
}
