/**
 * The order tracker on a recorded mainnet transaction: keeper `j1oxqt…`'s `fill_order` of Limit Order v2 order
 * `Dme3Cn7U…` (mainnet transaction VLzYfuPu…, recorded by yellowstone-vixen: test/fixtures/reference/fixtures/
 * yellowstone-vixen/README.md), served in getTransaction form by a real JSON-RPC server. What the tracker must
 * record comes from the transaction itself, decoded here with Anchor's BorshCoder over the Limit Order v2 IDL:
 * the instruction's accounts by the IDL's names, and the TradeEvent its self-CPI emitted. No public recording of a
 * creation or a cancel was found (order-tracker.test.ts covers those with IDL-encoded events).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BN } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { OrderChangeFeed } from "../../src/runtime/order-change-feed.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/open-store.js";
import { OrderTracker } from "../../src/tracker/order-tracker.js";
import { startFixtureRpcServer } from "./fixtures/fixture-rpc-server.js";
import type { FixtureRpcServer } from "./fixtures/fixture-rpc-server.js";
import { EVENT_AUTHORITY, LO_V2, coder, idl, mintData } from "./fixtures/limit-order-fixtures.js";
import { readRecordedTransaction, recordedTransactionJson } from "./fixtures/recorded-transactions.js";

const SIGNATURE = "VLzYfuPuxFcAV841yKgyvuYeJK9VgBKf9YSH4jHGLAJhc84jJZzYbrh97XJRQh3tfsLEAEkws3CRcmhsGeDEdFk";
const recorded = readRecordedTransaction(SIGNATURE);

/** Anchor's `EVENT_IX_TAG: u64 = 0x1d9acb512ea545e4`, little-endian: the first bytes of every emit_cpi! instruction. */
const EVENT_IX_TAG = Buffer.from("e445a52e51cb9a1d", "hex");

// The recorded instruction, by the IDL: its name and its accounts by name.
const instruction = coder.instruction.decode(recorded.instruction.data);
const accountNames = idl.instructions.find((ix) => ix.name === "fill_order")!.accounts.map((a) => a.name);
const account = (name: string): PublicKey => recorded.instruction.accounts[accountNames.indexOf(name)];
// The recorded event: the inner instruction to the program from its event authority, after the tag.
const eventIx = recorded.inner.find((ix) => ix.program.equals(LO_V2) && ix.accounts[0]?.equals(EVENT_AUTHORITY))!;
const event = coder.events.decode(eventIx.data.subarray(EVENT_IX_TAG.length).toString("base64"))!;
const eventField = (name: string) => event.data[name] as BN & PublicKey;

/** Not in the recording: the order's fee rate, as the store holds it from CreateOrder (test setup). */
const STORED_FEE_BPS = 10;
/** Not in the recording either: the block time; the tracker dates a trade without one by its clock. */
const TRACKER_NOW = new Date("2026-05-01T00:00:00Z");

let rpc: FixtureRpcServer;
let dataDir: string;
let store: Store;

beforeAll(async () => {
  rpc = await startFixtureRpcServer();
  rpc.setAccount(account("input_mint"), { owner: account("input_token_program"), lamports: 1, data: mintData(6) });
  rpc.setAccount(account("output_mint"), { owner: account("output_token_program"), lamports: 1, data: mintData(9) });
  dataDir = mkdtempSync(join(tmpdir(), "swapd-recorded-fill-"));
  store = await openStore({ dataDir });
});

afterAll(async () => {
  await store?.close();
  await rpc?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("order tracker on a recorded mainnet Limit Order v2 fill", () => {
  it("the recording is what the test says it is: fill_order of the order its TradeEvent names, with the event under Anchor's tag", () => {
    expect(instruction?.name).toBe("fill_order");
    expect(recorded.instruction.program.equals(LO_V2)).toBe(true);
    expect(eventIx.data.subarray(0, 8)).toEqual(EVENT_IX_TAG);
    expect(event.name).toBe("TradeEvent");
    expect(eventField("order_key").equals(account("order"))).toBe(true);
    expect(eventField("taker").equals(account("taker"))).toBe(true);
    const invoked = recorded.logMessages.indexOf(`Program ${LO_V2.toBase58()} invoke [1]`);
    expect(recorded.logMessages[invoked + 1]).toBe("Program log: Instruction: FillOrder");
    expect(recorded.logMessages.at(-1)).toBe(`Program ${LO_V2.toBase58()} success`);
  });

  it("records the fill with the event's amounts and keeper, and completes the order it emptied", async () => {
    const making = BigInt(eventField("making_amount").toString());
    const taking = BigInt(eventField("taking_amount").toString());
    const remainingMaking = BigInt(eventField("remaining_making_amount").toString());
    const remainingTaking = BigInt(eventField("remaining_taking_amount").toString());
    expect(remainingMaking).toBe(0n); // this fill took what was left: the order ends with it
    const order = account("order");
    const maker = account("maker");
    // The order as the store knew it before the fill: open, with what this fill took still to sell.
    await store.orders.upsert({
      orderKey: order.toBase58(),
      maker: maker.toBase58(),
      inputMint: account("input_mint").toBase58(),
      outputMint: account("output_mint").toBase58(),
      inputTokenProgram: account("input_token_program").toBase58(),
      outputTokenProgram: account("output_token_program").toBase58(),
      inputDecimals: null,
      outputDecimals: null,
      uniqueId: null,
      rawMakingAmount: making + remainingMaking,
      rawTakingAmount: taking + remainingTaking,
      rawRemainingMakingAmount: making + remainingMaking,
      rawRemainingTakingAmount: taking + remainingTaking,
      slippageBps: 0,
      feeBps: STORED_FEE_BPS,
      feeAccount: account("fee_account").toBase58(),
      expiredAt: null,
      status: "Open",
      openTx: "",
      closeTx: "",
      programId: LO_V2.toBase58(),
      createdAt: new Date("2026-04-01T00:00:00Z"),
      updatedAt: new Date("2026-04-01T00:00:00Z"),
    });
    // The fill closed the order's account; its one transaction is the recorded one (no slot or time recorded).
    rpc.setAccount(order, null);
    rpc.addTransaction([order, account("taker")], { signature: SIGNATURE, slot: 0, blockTime: null, err: null }, recordedTransactionJson(recorded, 0, null));

    const tracker = new OrderTracker({ chain: new RpcSolanaChain({ url: rpc.url }), store, feed: new OrderChangeFeed(), now: () => TRACKER_NOW });
    expect(await tracker.runOnce()).toMatchObject({ checked: 1, changed: 1, newTrades: 1 });

    expect(await store.orders.get(order.toBase58())).toMatchObject({
      status: "Completed",
      closeTx: SIGNATURE,
      rawRemainingMakingAmount: remainingMaking,
      rawRemainingTakingAmount: remainingTaking,
    });
    const trades = await store.trades.listByOrders([order.toBase58()]);
    expect(
      trades.map((t) => [t.txSignature, t.keeper, t.rawInputAmount, t.rawOutputAmount, t.rawFeeAmount, t.feeAccount, t.confirmedAt.toISOString()]),
    ).toEqual([
      [
        SIGNATURE,
        account("taker").toBase58(),
        making,
        taking,
        (taking * BigInt(STORED_FEE_BPS)) / 10_000n,
        account("fee_account").toBase58(),
        TRACKER_NOW.toISOString(),
      ],
    ]);

    // Read again (a restart, or the same signature listed twice): nothing is added.
    expect(await tracker.runOnce()).toMatchObject({ newTrades: 0 });
    expect(await store.trades.listByOrders([order.toBase58()])).toHaveLength(1);
  });
});
