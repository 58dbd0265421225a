/**
 * What a pool's step costs in a swap, learnt by building it once with stand-in token accounts: its
 * account count prices the step against `maxAccounts`, and an ExactOut step that does not build (a
 * variant Jupiter's exact-out routes refuse) keeps the pool out of ExactOut routes. Kept per pool
 * (by its address text, which the planner holds: no key is built per call), direction and mode
 * (bounded, least recently used pool out).
 */
import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "../amm/adapter.js";
import type { AnyAmmAdapter, SwapMode } from "../amm/adapter.js";
import type { AccountMap } from "../solana/account.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";

/** Step accounts when the adapter cannot build a step for counting (a conservative estimate). */
export const FALLBACK_STEP_ACCOUNTS = 20;
/** Pools whose samples are kept (each with up to four: two directions, two modes). */
const SAMPLE_STEP_POOLS = 10_000;

export interface StepSample {
  /** False when the adapter refuses the step (an AmmError): the pool cannot take part in this mode. */
  readonly builds: boolean;
  /** Accounts the step adds to the swap instruction (program id and its swap accounts). */
  readonly accounts: number;
}

/** A pool as the planner holds it: its address and its adapter's decoded state. */
export interface SampledPool {
  readonly addressText: string;
  readonly adapter: AnyAmmAdapter;
  readonly pool: unknown;
}

export class StepSamples {
  /** By pool address, then by direction and mode (index: ExactOut·2 + aToB). */
  private readonly samples = new BoundedLruMap<string, (StepSample | undefined)[]>(SAMPLE_STEP_POOLS);

  /** The step through `p` in direction `aToB` and `swapMode`, built once with `standIn` for every token account. */
  of(p: SampledPool, aToB: boolean, swapMode: SwapMode, accounts: AccountMap, standIn: PublicKey): StepSample {
    const index = (swapMode === "ExactOut" ? 2 : 0) + (aToB ? 1 : 0);
    const ofPool = this.samples.get(p.addressText);
    const cached = ofPool?.[index];
    if (cached !== undefined) return cached;
    const [a, b] = p.adapter.mints(p.pool);
    let sample: StepSample;
    try {
      // Any keys stand in for the token accounts: only the variant and the number of accounts are used.
      const built = p.adapter.build(
        p.pool,
        {
          sourceMint: aToB ? a : b,
          destinationMint: aToB ? b : a,
          sourceTokenAccount: standIn,
          destinationTokenAccount: standIn,
          tokenTransferAuthority: standIn,
          user: standIn,
          inAmount: 1n,
          outAmount: 1n,
          swapMode,
        },
        accounts,
      );
      sample = { builds: true, accounts: built.accounts.length };
    } catch (error) {
      // An AmmError is the adapter's refusal (kept); anything else (an account the build needs that
      // the quote did not read) leaves the estimate, and the step is built again next time. The
      // real build, at /swap-instructions, reads what it needs and reports its own errors.
      if (error instanceof AmmError) sample = { builds: false, accounts: FALLBACK_STEP_ACCOUNTS };
      else return { builds: true, accounts: FALLBACK_STEP_ACCOUNTS };
    }
    if (ofPool) ofPool[index] = sample;
    else {
      const samples: (StepSample | undefined)[] = [undefined, undefined, undefined, undefined];
      samples[index] = sample;
      this.samples.set(p.addressText, samples);
    }
    return sample;
  }
}
