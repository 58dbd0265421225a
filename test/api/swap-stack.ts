// Test helpers for the swap API: a localnet with the demo seed (wallet, USDC, demo pools), the real
// chain layer pointed at it, the real server on port 0, and the three kinds of client.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { fileURLToPath } from "node:url";
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import type { RpcSolanaChainOptions } from "../../src/chain/rpc-solana-chain.js";
import type { ReadBatchRequest, SolanaChain } from "../../src/chain/solana-chain.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import type { SwapApi } from "../../src/api/swap-api.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import type { DemoSeeder } from "../../src/localnet/demo-seed.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "../server/helpers.js";

export const SOL = "So11111111111111111111111111111111111111112";
export const USDC = DEMO.usdcMint.toBase58();
export const WALLET = DEMO.wallet.toBase58();
export const DEMO_POOL = DEMO_POOLS.raydiumCpSolUsdc.toBase58();
export const JUP6 = new PublicKey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");

export interface StepJson {
  ammKey: string;
  label?: string;
  inputMint: string;
  outputMint: string;
  inAmount: string;
  outAmount: string;
  percent?: number;
}

/** A Jupiter `/quote` response (JSON) for the given steps. */
export function jupiterQuote(
  steps: readonly StepJson[],
  q: { inputMint: string; outputMint: string; inAmount: string; outAmount: string; swapMode?: "ExactIn" | "ExactOut"; slippageBps?: number },
): Record<string, any> {
  const swapMode = q.swapMode ?? "ExactIn";
  const threshold = swapMode === "ExactIn" ? (BigInt(q.outAmount) * 995n) / 1000n : (BigInt(q.inAmount) * 1005n) / 1000n;
  return {
    inputMint: q.inputMint,
    inAmount: q.inAmount,
    outputMint: q.outputMint,
    outAmount: q.outAmount,
    otherAmountThreshold: threshold.toString(),
    swapMode,
    slippageBps: q.slippageBps ?? 50,
    platformFee: null,
    priceImpactPct: "0.001",
    routePlan: steps.map((s) => ({
      swapInfo: {
        ammKey: s.ammKey,
        label: s.label ?? "Raydium CP",
        inputMint: s.inputMint,
        outputMint: s.outputMint,
        inAmount: s.inAmount,
        outAmount: s.outAmount,
        feeAmount: "0",
        feeMint: s.inputMint,
      },
      percent: s.percent ?? 100,
      bps: (s.percent ?? 100) * 100,
    })),
    contextSlot: 1234,
    timeTaken: 0.002,
  };
}

/** 1 SOL → USDC through the demo pool, as Jupiter's JSON request. */
export function demoSolToUsdc(extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    userPublicKey: WALLET,
    quoteResponse: jupiterQuote([{ ammKey: DEMO_POOL, inputMint: SOL, outputMint: USDC, inAmount: "1000000000", outAmount: "149175000" }], {
      inputMint: SOL,
      outputMint: USDC,
      inAmount: "1000000000",
      outAmount: "149175000",
    }),
    ...extra,
  };
}

/**
 * Jupiter's JSON request in the contract's proto3 JSON form (Connect JSON; also grpc-js objects).
 * `swapMode` and `priorityLevel` stay as they are: the contract takes Jupiter's spellings.
 */
export function toProtoJson(jupiter: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = structuredClone(jupiter);
  const fee = out.prioritizationFeeLamports;
  if (fee !== undefined) {
    if (typeof fee === "number") out.prioritizationFeeLamports = { lamports: String(fee) };
    else if (fee === "auto") out.prioritizationFeeLamports = { auto: true };
    else if (fee === "disabled") out.prioritizationFeeLamports = { disabled: true };
    else if (fee.jitoTipLamports !== undefined) out.prioritizationFeeLamports = { relayTipLamports: String(fee.jitoTipLamports) };
    else if (fee.jitoTipLamportsWithPayer) out.prioritizationFeeLamports = { relayTipLamportsWithPayer: fee.jitoTipLamportsWithPayer };
  }
  return out;
}

export interface InstructionJson {
  programId: string;
  accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  data: string; // base64
}

/** An instruction of Jupiter's JSON as web3.js builds it, for tests that sign and send the answer. */
export function toTransactionInstruction(ix: InstructionJson): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(ix.programId),
    keys: ix.accounts.map((a) => ({ pubkey: new PublicKey(a.pubkey), isSigner: a.isSigner, isWritable: a.isWritable })),
    data: Buffer.from(ix.data, "base64"),
  });
}

/** The instruction groups of any of the three responses, in one comparable form. */
export interface Groups {
  computeBudgetInstructions: InstructionJson[];
  setupInstructions: InstructionJson[];
  swapInstruction: InstructionJson;
  cleanupInstruction: InstructionJson | null;
  otherInstructions: InstructionJson[];
  addressLookupTableAddresses: string[];
  computeUnitLimit: number;
  prioritizationFeeLamports: string;
}

function normalizeInstruction(ix: any): InstructionJson {
  return {
    programId: ix.programId,
    accounts: ix.accounts.map((a: any) => ({ pubkey: a.pubkey, isSigner: !!a.isSigner, isWritable: !!a.isWritable })),
    data: Buffer.isBuffer(ix.data) ? ix.data.toString("base64") : ix.data,
  };
}

export function groupsOf(res: any): Groups {
  return {
    computeBudgetInstructions: res.computeBudgetInstructions.map(normalizeInstruction),
    setupInstructions: res.setupInstructions.map(normalizeInstruction),
    swapInstruction: normalizeInstruction(res.swapInstruction),
    cleanupInstruction: res.cleanupInstruction ? normalizeInstruction(res.cleanupInstruction) : null,
    otherInstructions: res.otherInstructions.map(normalizeInstruction),
    addressLookupTableAddresses: res.addressLookupTableAddresses,
    computeUnitLimit: Number(res.computeUnitLimit),
    prioritizationFeeLamports: String(res.prioritizationFeeLamports),
  };
}

export interface HttpAnswer {
  status: number;
  body: any;
}

export interface SwapStack {
  readonly localnet: Localnet;
  readonly chain: RpcSolanaChain;
  /** Every `readBatch` request the API made (the real chain underneath answers). */
  readonly batches: RecordedReadBatch[];
  readonly api: SwapApi;
  readonly server: RunningServer;
  rest(body: unknown): Promise<HttpAnswer>;
  connect(body: unknown): Promise<HttpAnswer>;
  grpc(req: unknown, deadlineMs?: number): Promise<any>;
  close(): Promise<void>;
}

/** A `readBatch` request as the API made it, with `mintsRead`: its mints the chain's mint cache did not hold (read over the wire). */
export interface RecordedReadBatch extends ReadBatchRequest {
  readonly mintsRead: PublicKey[];
}

/** Keys a recorded batch reads over the wire: its accounts and the mints no cache served. */
export function keysRead(batch: RecordedReadBatch): string[] {
  return [...batch.accounts, ...batch.mintsRead].map((k) => k.toBase58());
}

/** The chain as the API sees it, recording the batched reads it asks for. */
export function recording(chain: SolanaChain, batches: RecordedReadBatch[]): SolanaChain {
  return new Proxy(chain, {
    get(target, prop) {
      if (prop === "readBatch") {
        return (req: ReadBatchRequest) => {
          batches.push({ ...req, mintsRead: target.mintAccounts.lookup(req.mints ?? []).unknown });
          return target.readBatch(req);
        };
      }
      const value = (target as any)[prop];
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export async function startSwapStack(
  options: {
    extraSeeders?: readonly DemoSeeder[];
    chainUrl?: string;
    chainOptions?: Partial<RpcSolanaChainOptions>;
    random?: () => number;
    relayTipAccounts?: readonly string[];
    /** LOOKUP_TABLES, known after seeding. */
    lookupTables?: () => readonly string[];
    /** CHAIN_STATE_TTL_MS (default: the service's default). */
    chainStateTtlMs?: number;
    /** Programs and account snapshots to load into the embedded chain (on-chain tests). */
    localnet?: { programsDir?: string | readonly string[]; accountsDir?: string };
    /** More server settings from the environment (e.g. API_KEYS, TLS_CERT_FILE). */
    serverEnv?: Record<string, string>;
    /** false: Connect JSON through protobuf-es only, without the service's SwapInstructions codec path. */
    jsonCodecs?: false;
  } = {},
): Promise<SwapStack> {
  const localnet = await startLocalnet({ port: 0, ...options.localnet });
  await seedDemo(localnet, options.extraSeeders);
  const chain = new RpcSolanaChain({ url: options.chainUrl ?? localnet.url, ...options.chainOptions });
  const batches: RecordedReadBatch[] = [];
  const api = createSwapApi({
    chain: recording(chain, batches),
    relayTipAccounts: options.relayTipAccounts ?? DEFAULT_RELAY_TIP_ACCOUNTS,
    lookupTables: options.lookupTables?.() ?? [],
    random: options.random ?? (() => 0.5),
    ...(options.chainStateTtlMs !== undefined ? { chainStateTtlMs: options.chainStateTtlMs } : {}),
  });
  const { server } = await startTestServer({
    services: { swap: api.service },
    restRoutes: api.restRoutes,
    // As the service runs (main.ts): the hot call's Connect JSON takes its codec path.
    ...(options.jsonCodecs === false ? {} : { jsonCodecs: api.jsonCodecs }),
    ...(options.serverEnv ? { env: options.serverEnv } : {}),
  });

  const protoDir = fileURLToPath(new URL("../../proto/", import.meta.url));
  const defs = protoLoader.loadSync(["swapd/swap/v1/swap.proto"], {
    includeDirs: [protoDir],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(defs) as any;
  const grpcClient = new pkg.swapd.swap.v1.SwapService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());

  const post = async (path: string, body: unknown): Promise<HttpAnswer> => {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    localnet,
    chain,
    batches,
    api,
    server,
    rest: (body) => post("/swap/v1/swap-instructions", body),
    connect: (body) => post("/swapd.swap.v1.SwapService/SwapInstructions", body),
    grpc: (req, deadlineMs = 10_000) =>
      new Promise((resolve, reject) => {
        grpcClient.SwapInstructions(req, { deadline: Date.now() + deadlineMs }, (err: grpc.ServiceError | null, res: any) =>
          err ? reject(err) : resolve(res),
        );
      }),
    async close() {
      grpcClient.close();
      await server.close();
      await localnet.close();
    },
  };
}

/** Jupiter's program authority PDA `["authority", [id]]`, derived here from the seeds. */
export function programAuthority(id: number): PublicKey {
  return PublicKey.findProgramAddressSync([Buffer.from("authority"), Buffer.from([id])], JUP6)[0];
}
