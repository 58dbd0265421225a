/**
 * The embedded chain's time, which LiteSVM does not advance by itself: slots (one per landed
 * transaction), a window of valid blockhashes (Solana's MAX_PROCESSING_AGE; LiteSVM accepts only
 * its single latest one), a SlotHashes sysvar listing recent slots (so lookup tables can be created
 * at `getSlot()`), and the Clock sysvar's time running with the wall clock.
 */
import type { LiteSVM } from "litesvm";

/** How many blocks a blockhash stays valid (Solana's MAX_PROCESSING_AGE). */
const BLOCKHASH_VALIDITY_BLOCKS = 150;
const SLOT_HASHES_KEPT = 150;

/** Where the embedded chain's clock starts. */
export interface LocalChainClock {
  readonly slot: number;
  readonly unixTimestamp: bigint;
  /**
   * True to land every transaction in this slot instead of one slot each (as a busy slot of a real
   * chain holds many): for snapshots of venues whose prices go stale within a few slots.
   */
  readonly holdSlot?: boolean;
}

export class LocalSlotClock {
  private slotValue = 1;
  private readonly validBlockhashes = new Map<string, number>();
  private readonly slotHashes: { slot: bigint; hash: string }[] = [];
  /** Seconds added to the wall clock for the Clock sysvar (0: the chain's time is now). */
  private readonly unixTimeOffset: number;

  /** Starts `svm` at `clock`'s slot and time (or slot 1, now). */
  constructor(
    private readonly svm: LiteSVM,
    clock?: LocalChainClock,
  ) {
    this.unixTimeOffset = clock ? Number(clock.unixTimestamp) - Math.floor(Date.now() / 1000) : 0;
    this.enterSlot(clock?.slot ?? 1);
  }

  get slot(): number {
    return this.slotValue;
  }

  /** The latest blockhash, and the block height up to which it stays valid. */
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const blockhash = this.svm.latestBlockhash();
    return { blockhash, lastValidBlockHeight: this.validBlockhashes.get(blockhash) ?? this.slotValue };
  }

  /** A recent blockhash still valid (block height equals the slot: the embedded chain never skips one). */
  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.validBlockhashes.get(blockhash);
    return lastValid !== undefined && lastValid >= this.slotValue;
  }

  /** Moves to a new slot with a fresh blockhash, keeping SlotHashes and the clock in step. */
  enterSlot(slot: number): void {
    this.slotValue = slot;
    this.svm.warpToSlot(BigInt(slot));
    this.svm.expireBlockhash();
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000) + this.unixTimeOffset);
    this.svm.setClock(clock);
    const blockhash = this.svm.latestBlockhash();
    this.validBlockhashes.set(blockhash, slot + BLOCKHASH_VALIDITY_BLOCKS);
    for (const [hash, lastValid] of this.validBlockhashes) {
      if (lastValid < slot) this.validBlockhashes.delete(hash);
    }
    // LiteSVM's warp leaves a single SlotHashes entry; the lookup-table program needs the
    // recent slots (newest first) to accept `recentSlot` = a slot a client just read.
    this.slotHashes.unshift({ slot: BigInt(slot), hash: blockhash });
    this.slotHashes.length = Math.min(this.slotHashes.length, SLOT_HASHES_KEPT);
    this.svm.setSlotHashes(this.slotHashes);
  }
}
