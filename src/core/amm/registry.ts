import type { PublicKey } from "@solana/web3.js";
import { base58Of } from "../solana/base58-strings.js";
import type { AnyAmmAdapter } from "./adapter.js";
import { raydiumCpmmAdapter } from "./raydium-cpmm.js";
import { whirlpoolAdapter } from "./whirlpool.js";
import { raydiumClmmAdapter } from "./raydium-clmm.js";
import { raydiumAmmV4Adapter } from "./raydium-amm-v4.js";
import { meteoraDlmmAdapter } from "./meteora-dlmm.js";
import { meteoraDammV1Adapter } from "./meteora-damm-v1.js";
import { meteoraDammV2Adapter } from "./meteora-damm-v2.js";
import { pumpSwapAdapter } from "./pump-swap.js";
import { solFiV2Adapter } from "./solfi-v2.js";
import { humidiFiAdapter } from "./humidifi.js";
import { tesseraVAdapter } from "./tessera-v.js";
import { bisonFiAdapter } from "./bisonfi.js";
import { obricV2Adapter } from "./obric-v2.js";
import { meteoraDbcAdapter } from "./meteora-dbc.js";
import { manifestAdapter } from "./manifest.js";

/** Every supported AMM, one adapter per file; adding an AMM = one file + one line here. */
export const ammAdapters: readonly AnyAmmAdapter[] = [
  raydiumCpmmAdapter,
  whirlpoolAdapter,
  raydiumClmmAdapter,
  raydiumAmmV4Adapter,
  meteoraDlmmAdapter,
  meteoraDammV1Adapter,
  meteoraDammV2Adapter,
  pumpSwapAdapter,
  solFiV2Adapter,
  humidiFiAdapter,
  tesseraVAdapter,
  bisonFiAdapter,
  obricV2Adapter,
  meteoraDbcAdapter,
  manifestAdapter,
];

const byProgram = new Map(ammAdapters.map((a) => [base58Of(a.programId), a]));

/** The adapter for a pool account's owner program, if supported. */
export function adapterForOwner(owner: PublicKey): AnyAmmAdapter | undefined {
  return byProgram.get(base58Of(owner)); // the text is cached per key object (a pool's owner key comes with the account)
}
