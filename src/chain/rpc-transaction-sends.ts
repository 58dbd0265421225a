/** Simulating and sending transactions over direct JSON-RPC (full control of errors; a send is never retried). */
import type { Transaction, VersionedTransaction } from "@solana/web3.js";
import { contextValue } from "./account-json.js";
import { ChainUnavailableError } from "./chain-errors.js";
import type { LatestBlockhash, SimulationResult } from "./solana-chain.js";
import { parseAnswer, parseBlockhash, wireOf } from "./rpc-context.js";
import type { RpcContext } from "./rpc-context.js";

export async function simulateTransaction(rpc: RpcContext, tx: VersionedTransaction | Transaction | Uint8Array): Promise<SimulationResult> {
  const config = { encoding: "base64", sigVerify: false, replaceRecentBlockhash: true, commitment: rpc.commitment };
  const answer = await rpc.transport.call("simulateTransaction", [Buffer.from(wireOf(tx)).toString("base64"), config], { retry: true });
  return parseAnswer("simulateTransaction", () => {
    const v = contextValue(answer) as {
      err?: SimulationResult["err"];
      logs?: string[] | null;
      unitsConsumed?: number;
      replacementBlockhash?: LatestBlockhash | null;
      returnData?: { programId?: unknown; data?: unknown } | null;
    };
    if (v === null || typeof v !== "object") throw new TypeError("unexpected simulateTransaction value");
    return {
      err: v.err ?? null,
      logs: v.logs ?? [],
      unitsConsumed: typeof v.unitsConsumed === "number" ? v.unitsConsumed : null,
      replacementBlockhash: v.replacementBlockhash ? parseBlockhash(v.replacementBlockhash) : null,
      returnData: parseReturnData(v.returnData),
    };
  });
}

export async function sendTransaction(rpc: RpcContext, wire: Uint8Array, options: { skipPreflight?: boolean } = {}): Promise<string> {
  const config = {
    encoding: "base64",
    skipPreflight: options.skipPreflight ?? false,
    preflightCommitment: rpc.commitment,
  };
  const answer = await rpc.transport.call("sendTransaction", [Buffer.from(wire).toString("base64"), config], { retry: false });
  if (typeof answer !== "string") throw new ChainUnavailableError("sendTransaction", "malformed answer (expected a signature)", 1);
  return answer;
}

/** `returnData: {programId, data: [base64, "base64"]}` of a simulation; null when absent or malformed. */
function parseReturnData(value: { programId?: unknown; data?: unknown } | null | undefined): SimulationResult["returnData"] {
  if (value === null || value === undefined || typeof value.programId !== "string" || !Array.isArray(value.data) || typeof value.data[0] !== "string")
    return null;
  return { programId: value.programId, data: new Uint8Array(Buffer.from(value.data[0], "base64")) };
}
