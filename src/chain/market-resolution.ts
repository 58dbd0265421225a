/**
 * Markets learnt from what the operator names: pool addresses read from the chain in groups (each
 * to learn its AMM and mints), or a snapshot's entries taken as listed (no RPC call).
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "./solana-chain.js";
import type { AnyAmmAdapter } from "../core/amm/adapter.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { marketOfAccount } from "../core/quote/market.js";
import type { Market, MarketSource as MarketOrigin } from "../core/quote/market.js";
import { marketOfSnapshotEntry } from "../core/quote/market-snapshot.js";
import type { SnapshotMarket } from "../core/quote/market-snapshot.js";

/** Listed pools read per group: 10 getMultipleAccounts of 100 keys in parallel, groups one after another. */
const RESOLVE_GROUP = 1_000;

/** Result of adding markets by address: what was added and what was refused, with why. */
export interface AddMarketsResult {
  readonly added: Market[];
  readonly refused: { readonly address: string; readonly reason: string }[];
}

/** Reads each address's account and keeps the pools of the given AMMs; the rest are refused by name. */
export async function resolveMarkets(
  chain: SolanaChain,
  adapters: ReadonlyMap<string, AnyAmmAdapter>,
  addresses: readonly string[],
  origin: MarketOrigin,
): Promise<AddMarketsResult> {
  const refused: { address: string; reason: string }[] = [];
  const keys: PublicKey[] = [];
  for (const address of addresses) {
    try {
      keys.push(publicKeyFromBase58(address));
    } catch {
      // Not a key: refused by name in the answer (POST /markets) or the operator's log (MARKETS_FILE).
      refused.push({ address: String(address).slice(0, 64), reason: "not a base58 public key (32 bytes)" });
    }
  }
  const added: Market[] = [];
  for (let i = 0; i < keys.length; i += RESOLVE_GROUP) {
    const group = keys.slice(i, i + RESOLVE_GROUP);
    const accounts = await chain.getMultipleAccounts(group);
    group.forEach((key, j) => {
      const account = accounts[j];
      if (!account) {
        refused.push({ address: base58Of(key), reason: "no such account on chain" });
        return;
      }
      const market = marketOfAccount(adapters, account, origin);
      if (typeof market === "string") refused.push({ address: base58Of(key), reason: market });
      else added.push(market);
    });
  }
  return { added, refused };
}

/** A snapshot's (or a listing's) markets as they are listed (program and mints given): no RPC call. */
export function snapshotMarkets(
  adapters: ReadonlyMap<string, AnyAmmAdapter>,
  entries: readonly SnapshotMarket[],
  origin: MarketOrigin = "file",
): AddMarketsResult {
  const added: Market[] = [];
  const refused: { address: string; reason: string }[] = [];
  const shared = sharedMints();
  for (const entry of entries) {
    const market = marketOfSnapshotEntry(adapters, shared(entry), origin);
    if (typeof market === "string") refused.push({ address: entry.address, reason: market });
    else added.push(market);
  }
  return { added, refused };
}

/**
 * Entries whose mints are one text per mint: most pools share a few quote mints (SOL, USDC), and
 * each parsed or decoded copy would otherwise be kept (64 bytes a copy).
 */
function sharedMints(): (entry: SnapshotMarket) => SnapshotMarket {
  const texts = new Map<string, string>();
  const one = (mint: string) => texts.get(mint) ?? (texts.set(mint, mint), mint);
  return (entry) => ({ ...entry, mints: [one(entry.mints[0]), one(entry.mints[1])] });
}
