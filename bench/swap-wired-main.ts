/**
 * Stop-gap service entry for `npm run bench -- --entry bench/swap-wired-main.ts`, for as long as
 * src/main.ts does not serve SwapInstructions yet: the same `runService` (chain, store, server),
 * plus the swap API on its own `RpcSolanaChain` pointed at SOLANA_RPC_URL. Remove once src/main.ts
 * wires `createSwapApi`.
 */
import { createSwapApi } from "../src/api/swap/swap-api.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { loadConfig } from "../src/config.js";
import { runService } from "../src/main.js";
import { createLogger } from "../src/server/logger.js";
import { installSignalHandlers } from "../src/server/shutdown.js";

const config = loadConfig(process.env);
if (!config.solanaRpcUrl) throw new Error("bench/swap-wired-main.ts needs SOLANA_RPC_URL");
const logger = createLogger(config.logLevel);
const swap = createSwapApi({
  chain: new RpcSolanaChain({ url: config.solanaRpcUrl, timeoutMs: config.rpcTimeoutMs }),
  lookupTables: config.lookupTables,
  relayTipAccounts: config.relayTipAccounts,
});
const service = await runService(config, logger, { services: { swap: swap.service }, restRoutes: swap.restRoutes });
installSignalHandlers(service.shutdown);
