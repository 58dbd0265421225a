/** JSON-RPC error codes the Solana RPC uses (agave rpc-client-api custom_error.rs + JSON-RPC 2.0). */
export const RpcErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
} as const;

/** An error answered to the client as a JSON-RPC `error` object. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export function invalidParams(message: string): JsonRpcError {
  return new JsonRpcError(RpcErrorCode.invalidParams, `Invalid params: ${message}`);
}
