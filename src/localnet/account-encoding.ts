import { Zstd } from "@hpcc-js/wasm-zstd";
import bs58 from "bs58";
import type { AccountData } from "../core/solana/account.js";
import { JsonRpcError, RpcErrorCode, invalidParams } from "./json-rpc-error.js";
import type { RpcConfig } from "./rpc-params.js";

/**
 * The most account data (after `dataSlice`) the RPC encodes as base58: base58 encoding is
 * quadratic in its input, so the validator refuses more (agave rpc.rs `encode_account`,
 * solana-account-decoder `MAX_BASE58_BYTES`).
 */
export const MAX_BASE58_ACCOUNT_BYTES = 128;

/** u64::MAX: what validators report as `rentEpoch` for rent-exempt accounts. */
const RENT_EXEMPT_EPOCH = 18446744073709551615;

/**
 * Zstandard (wasm, no native build): `base64+zstd` is what many clients ask for large accounts
 * (Jupiter's router reads its pools so). Loaded once, when the localnet is first imported.
 */
const zstd = await Zstd.load();
/** The level validators compress account data with (solana-account-decoder: `zstd::stream::write::Encoder::new(_, 0)`, the default, 3). */
const ZSTD_LEVEL = 3;

export interface AccountJson {
  data: [string, "base64" | "base58" | "base64+zstd"];
  executable: boolean;
  lamports: number;
  owner: string;
  rentEpoch: number;
  space: number;
}

/**
 * An account in the RPC's JSON form. `jsonParsed` falls back to base64, as a validator does for
 * accounts it has no parser for; base58 is refused above MAX_BASE58_ACCOUNT_BYTES; `base64+zstd` is
 * the (sliced) data compressed as one Zstandard frame, then base64.
 */
export function encodeAccount(account: AccountData, config: RpcConfig): AccountJson {
  const encoding = config.encoding ?? "base64";
  let data = account.data;
  const slice = config.dataSlice as { offset?: unknown; length?: unknown } | undefined;
  if (slice) {
    const offset = Number(slice.offset ?? 0);
    const length = Number(slice.length ?? 0);
    data = data.subarray(offset, offset + length);
  }
  let encoded: AccountJson["data"];
  if (encoding === "base64" || encoding === "jsonParsed") {
    encoded = [Buffer.from(data).toString("base64"), "base64"];
  } else if (encoding === "base58") {
    if (data.length > MAX_BASE58_ACCOUNT_BYTES) {
      // The validator's own answer: -32600 Invalid Request with this message. Clients surface it
      // as a JSON-RPC error (web3.js SolanaJSONRPCError code -32600; @solana/kit
      // SOLANA_ERROR__JSON_RPC__INVALID_REQUEST), as they would from a real node.
      throw new JsonRpcError(
        RpcErrorCode.invalidRequest,
        `Encoded binary (base 58) data should be less than ${MAX_BASE58_ACCOUNT_BYTES} bytes, please use Base64 encoding.`,
      );
    }
    encoded = [bs58.encode(data), "base58"];
  } else if (encoding === "base64+zstd") {
    encoded = [Buffer.from(zstd.compress(data, ZSTD_LEVEL)).toString("base64"), "base64+zstd"];
  } else {
    throw invalidParams(`encoding: unsupported ${JSON.stringify(encoding)}`);
  }
  return {
    data: encoded,
    executable: account.executable,
    lamports: Number(account.lamports),
    owner: account.owner.toBase58(),
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: account.data.length,
  };
}
