import bs58 from "bs58";
import type { TransactionRecord } from "./transaction-history.js";

/** A recorded transaction in the shape of `getTransaction` (`json` or `base64` encoding). */
export function transactionJson(record: TransactionRecord, encoding: "json" | "base64"): unknown {
  const { transaction: tx } = record;
  const message = tx.message;
  const version = message.version;
  const transaction =
    encoding === "base64"
      ? [Buffer.from(record.wire).toString("base64"), "base64"]
      : {
          signatures: tx.signatures.map((s) => bs58.encode(s)),
          message: {
            accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
            header: message.header,
            recentBlockhash: message.recentBlockhash,
            instructions: message.compiledInstructions.map((ix) => ({
              programIdIndex: ix.programIdIndex,
              accounts: ix.accountKeyIndexes,
              data: bs58.encode(ix.data),
              stackHeight: null,
            })),
            ...(version === 0
              ? {
                  addressTableLookups: message.addressTableLookups.map((l) => ({
                    accountKey: l.accountKey.toBase58(),
                    writableIndexes: l.writableIndexes,
                    readonlyIndexes: l.readonlyIndexes,
                  })),
                }
              : {}),
          },
        };
  return {
    slot: record.slot,
    blockTime: record.blockTime,
    version,
    transaction,
    meta: {
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      fee: record.fee,
      preBalances: record.preBalances,
      postBalances: record.postBalances,
      innerInstructions: record.innerInstructions,
      logMessages: record.logs,
      preTokenBalances: record.preTokenBalances,
      postTokenBalances: record.postTokenBalances,
      rewards: [],
      loadedAddresses: record.loadedAddresses,
      computeUnitsConsumed: record.unitsConsumed,
      ...(record.returnData ? { returnData: record.returnData } : {}),
    },
  };
}
