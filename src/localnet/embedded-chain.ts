import { RpcSolanaChain } from "../chain/rpc-solana-chain.js";
import type { RpcSolanaChainOptions } from "../chain/rpc-solana-chain.js";
import { DEMO } from "./demo-accounts.js";
import { seedDemo } from "./demo-seed.js";
import type { DemoSeeder } from "./demo-seed.js";
import { startLocalnet } from "./start-localnet.js";
import type { Localnet, LocalnetOptions } from "./start-localnet.js";

export interface EmbeddedChain {
  /** The chain layer, pointed at the embedded chain's URL (same code path as a real RPC). */
  readonly chain: RpcSolanaChain;
  readonly localnet: Localnet;
  /** Mints the demo pools route through (the demo USDC), for the quote's intermediate tokens. */
  readonly intermediateTokens: readonly string[];
  close(): Promise<void>;
}

/**
 * What `npm start` runs without `SOLANA_RPC_URL`: the localnet (with LOCALNET_* folders), the demo
 * content, and a `SolanaChain` talking to it over loopback JSON-RPC.
 */
export async function startEmbeddedChain(
  options: LocalnetOptions & { readonly chain?: Omit<RpcSolanaChainOptions, "url">; readonly extraSeeders?: readonly DemoSeeder[] } = {},
): Promise<EmbeddedChain> {
  const localnet = await startLocalnet(options);
  try {
    await seedDemo(localnet, options.extraSeeders);
  } catch (error) {
    await localnet.close();
    throw error;
  }
  const chain = new RpcSolanaChain({ ...options.chain, url: localnet.url });
  return {
    chain,
    localnet,
    intermediateTokens: [DEMO.usdcMint.toBase58()],
    close: async () => {
      chain.close();
      await localnet.close();
    },
  };
}
