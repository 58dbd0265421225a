/**
 * The swaps the program quoter executes: a pool's step for the made-up taker inside Jupiter's
 * `route`, built once per pool version and direction for any amount (the amount is written into
 * the compiled transaction per quote), and the state accounts it reads that the SVM does not hold.
 */
import { Keypair } from "@solana/web3.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { AmmAdapter, QuoteParams, SwapParams } from "../core/amm/adapter.js";
import { getRouteInstruction } from "../core/jupiter/instructions/route.js";
import type { AccountData, AccountMap } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { INSTRUCTIONS_SYSVAR_ID } from "../core/solana/instructions-sysvar.js";
import { TOKEN_PROGRAM_ID } from "../core/solana/programs.js";

/** Jupiter's `route` data ends with in_amount (u64), quoted_out_amount (u64), slippage_bps (u16), platform_fee_bps (u8). */
export const ROUTE_DATA_AMOUNTS_SIZE = 19;

/** The made-up taker: fixed keys no real chain holds a token account for. */
const TAKER = Keypair.fromSeed(new Uint8Array(32).fill(7));
/** One key object (`Keypair.publicKey` makes a new one per use, whose base58 text is then computed anew). */
export const TAKER_KEY = TAKER.publicKey;
const TAKER_SOURCE = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
const TAKER_DESTINATION = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey;
export const TAKER_TEXT = TAKER_KEY.toBase58();
export const TAKER_SOURCE_TEXT = TAKER_SOURCE.toBase58();
export const TAKER_DESTINATION_TEXT = TAKER_DESTINATION.toBase58();
/** The taker's accounts and the instructions sysvar, which the runtime makes per transaction. */
const NOT_STATE = new Set([TAKER_KEY.toBase58(), TAKER_SOURCE.toBase58(), TAKER_DESTINATION.toBase58(), INSTRUCTIONS_SYSVAR_ID.toBase58()]);

/** The swap a quote makes: the taker's step for `params` and the Jupiter route around it. */
export interface QuoteSwap {
  readonly route: TransactionInstruction;
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  /** The route's keys and its data up to the amounts: equal for every amount of one step. */
  readonly shape: string;
}

/** A quote's swap, and the versions of the accounts its build read (`undefined`: not read yet). */
export interface CachedSwap<Prepared> {
  readonly reads: readonly (AccountData | null | undefined)[];
  readonly tokenProgram: PublicKey;
  readonly swap: QuoteSwap;
  /** The accounts the quote writes into the SVM, and their base58 text. */
  readonly stateKeys: readonly PublicKey[];
  readonly stateKeyTexts: readonly string[];
  /** Its quote over the state last quoted (program-quoter.ts). */
  prepared?: Prepared;
}

/** `Prepared`: what the quoter keeps on a swap over the state last quoted. */
export class QuoteSwaps<Prepared> {
  private readonly resident = new Map<string, boolean>();
  /**
   * Per pool (decoded per account version), by direction: its swap for any amount. Route search
   * asks each pool for up to ~13 amounts per request, and building the step, encoding Jupiter's route and
   * printing its keys per amount was a third of a six-venue quote's CPU.
   */
  private swaps = new WeakMap<object, [CachedSwap<Prepared> | undefined, CachedSwap<Prepared> | undefined]>();

  /** `programs`: those loaded; `isResident`: whether the SVM holds an account itself (a builtin, a sysvar). */
  constructor(
    private readonly programs: ReadonlySet<string>,
    private readonly isResident: (address: string) => boolean,
  ) {}

  /** Forgets the built swaps: which accounts are resident changed (a program was loaded). */
  reset(): void {
    this.swaps = new WeakMap();
  }

  swapParams<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams): SwapParams {
    const [first, second] = adapter.mints(pool);
    const [sourceMint, destinationMint] = params.aToB ? [first, second] : [second, first];
    return {
      sourceMint,
      destinationMint,
      sourceTokenAccount: TAKER_SOURCE,
      destinationTokenAccount: TAKER_DESTINATION,
      tokenTransferAuthority: TAKER_KEY,
      user: TAKER_KEY,
      inAmount: params.amount,
      outAmount: 0n,
      swapMode: "ExactIn",
    };
  }

  /**
   * The quote's swap through `pool` in `params`' direction (for any amount: the route's amounts are
   * written per quote) and the state accounts it reads, built again only when what the build read
   * changed: the adapter's dependencies, and the route's token program (the source mint's owner).
   */
  swapOf<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, params: QuoteParams, accounts: AccountMap): CachedSwap<Prepared> {
    const swapParams = this.swapParams(adapter, pool, params);
    const reads = adapter.dependencies(pool, swapParams).map((key) => accounts.get(base58Of(key)));
    const tokenProgram = tokenProgramOf(swapParams.sourceMint, accounts);
    if (typeof pool !== "object" || pool === null) return this.cachedSwap(adapter, pool, swapParams, tokenProgram, accounts, reads);
    let byDirection = this.swaps.get(pool);
    if (byDirection === undefined) {
      byDirection = [undefined, undefined];
      this.swaps.set(pool, byDirection);
    }
    const direction = params.aToB ? 1 : 0;
    const cached = byDirection[direction];
    if (
      cached &&
      cached.tokenProgram.equals(tokenProgram) &&
      cached.reads.length === reads.length &&
      cached.reads.every((account, i) => account === reads[i])
    ) {
      return cached;
    }
    return (byDirection[direction] = this.cachedSwap(adapter, pool, swapParams, tokenProgram, accounts, reads));
  }

  private cachedSwap<Pool>(
    adapter: AmmAdapter<Pool>,
    pool: Pool,
    swapParams: SwapParams,
    tokenProgram: PublicKey,
    accounts: AccountMap,
    reads: CachedSwap<Prepared>["reads"],
  ): CachedSwap<Prepared> {
    const swap = swapFor(adapter, pool, swapParams, tokenProgram, accounts);
    const stateKeys = this.stateKeys(swap);
    return { reads, tokenProgram, swap, stateKeys, stateKeyTexts: stateKeys.map(base58Of) };
  }

  /** The accounts a quote writes into the SVM: the route's, less programs, sysvars and the taker's. */
  private stateKeys(swap: QuoteSwap): PublicKey[] {
    const keys = new Map<string, PublicKey>();
    for (const { pubkey } of swap.route.keys) {
      const text = base58Of(pubkey);
      if (NOT_STATE.has(text) || keys.has(text) || this.residentInSvm(text)) continue;
      keys.set(text, pubkey);
    }
    for (const mint of [swap.sourceMint, swap.destinationMint]) keys.set(base58Of(mint), mint);
    return [...keys.values()];
  }

  /** Programs and sysvars the SVM holds itself (loaded programs, builtins, sysvars, Jupiter's PDAs are not), asked once per address. */
  private residentInSvm(address: string): boolean {
    if (this.programs.has(address)) return true;
    let resident = this.resident.get(address);
    if (resident === undefined) {
      resident = this.isResident(address);
      this.resident.set(address, resident);
    }
    return resident;
  }
}

function swapFor<Pool>(adapter: AmmAdapter<Pool>, pool: Pool, swapParams: SwapParams, tokenProgram: PublicKey, accounts: AccountMap): QuoteSwap {
  const { sourceMint, destinationMint } = swapParams;
  const step = adapter.build(pool, swapParams, accounts);
  const route = getRouteInstruction(
    {
      tokenProgram,
      userTransferAuthority: TAKER_KEY,
      userSourceTokenAccount: TAKER_SOURCE,
      userDestinationTokenAccount: TAKER_DESTINATION,
      destinationMint,
      remainingAccounts: step.accounts,
    },
    {
      routePlan: [{ swap: step.swap, percent: 100, inputIndex: 0, outputIndex: 1 }],
      inAmount: swapParams.inAmount,
      quotedOutAmount: 0n,
      slippageBps: 0,
      platformFeeBps: 0,
    },
  );
  const data = Buffer.from(route.data);
  const shape = `${route.keys.map((k) => base58Of(k.pubkey)).join(",")}|${data.subarray(0, data.length - ROUTE_DATA_AMOUNTS_SIZE).toString("hex")}`;
  return { route, sourceMint, destinationMint, shape };
}

/** A mint's token program, from its account (SPL Token until the mint has been read). */
function tokenProgramOf(mint: PublicKey, accounts: AccountMap): PublicKey {
  return accounts.get(base58Of(mint))?.owner ?? TOKEN_PROGRAM_ID;
}
