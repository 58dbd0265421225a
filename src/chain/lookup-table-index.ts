/**
 * Address lookup tables found on chain: every table whose authority is one of
 * `LOOKUP_TABLE_AUTHORITIES` (getProgramAccounts on the Address Lookup Table program with the
 * authority as a `memcmp` filter), loaded at start and refreshed every `refreshMs`. The swap builder
 * takes them as candidates next to `LOOKUP_TABLES` and picks the smallest set covering the most
 * accounts; requests read them from memory.
 */
import { AddressLookupTableAccount, AddressLookupTableProgram } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "./solana-chain.js";
import { base58Of } from "../core/solana/base58-strings.js";

/** Offset of the authority key in a lookup table account (type u32, deactivation slot u64,
 * last extended slot u64, start index u8, then `Option<Pubkey>`: tag at 21, key at 22). */
const AUTHORITY_OFFSET = 22;
export const DEFAULT_LOOKUP_TABLE_REFRESH_MS = 60_000;

export class LookupTableIndex {
  private tables: AddressLookupTableAccount[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly chain: SolanaChain,
    private readonly authorities: readonly PublicKey[],
    private readonly options: { refreshMs?: number; onError?: (error: unknown) => void } = {},
  ) {}

  /** The tables found so far (memory). */
  current(): readonly AddressLookupTableAccount[] {
    return this.tables;
  }

  /** Reads the tables of every authority now. */
  async refresh(): Promise<readonly AddressLookupTableAccount[]> {
    if (this.authorities.length === 0) return this.tables;
    const lists = await Promise.all(
      this.authorities.map((authority) =>
        this.chain.getProgramAccounts(AddressLookupTableProgram.programId, [{ memcmp: { offset: AUTHORITY_OFFSET, bytes: base58Of(authority) } }]),
      ),
    );
    const found: AddressLookupTableAccount[] = [];
    for (const account of lists.flat()) {
      try {
        const state = AddressLookupTableAccount.deserialize(account.data);
        // A deactivated table cannot be used by new transactions.
        if (state.deactivationSlot !== BigInt("0xffffffffffffffff")) continue;
        found.push(new AddressLookupTableAccount({ key: account.address, state }));
      } catch {
        // not a table (uninitialized): ignore
      }
    }
    this.tables = found;
    return found;
  }

  /** First read now (failures reported, retried on the next round), then every `refreshMs`. */
  async start(): Promise<void> {
    if (this.authorities.length === 0) return;
    const report = (error: unknown) => this.options.onError?.(error);
    await this.refresh().catch(report);
    this.timer = setInterval(() => void this.refresh().catch(report), this.options.refreshMs ?? DEFAULT_LOOKUP_TABLE_REFRESH_MS);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
