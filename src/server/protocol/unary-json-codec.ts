/**
 * A faster Connect JSON path for a hot unary method. protobuf-es's generic JSON reader and writer
 * cost more than the rest of a SwapInstructions call above a no-op (reflection over every field,
 * a duplicate-key scan, an intermediate JSON object tree); a codec written for one method's
 * messages does the same in a fraction of the time (json-reader-from-descriptor.ts and
 * json-writer-from-descriptor.ts compile one from the descriptors). json-codec-stage.ts decides
 * which calls take it; json-codec-answer.ts answers them.
 */
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import type { Interceptor, MethodImplSpec } from "@connectrpc/connect";
import type { Compression } from "@connectrpc/connect/protocol";
import type { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";

export interface UnaryJsonCodec<I extends DescMessage = DescMessage, O extends DescMessage = DescMessage> {
  readonly method: DescMethodUnary<I, O>;
  /**
   * The request message of a parsed JSON body, equal to protobuf-es's `fromJson` with
   * `ignoreUnknownFields`; undefined when any value is not in its plain JSON form (protobuf-es
   * then decides, and answers its errors).
   */
  readRequest(json: unknown): MessageShape<I> | undefined;
  /** The response message as JSON text, equal to protobuf-es's `toJsonString` with `alwaysEmitImplicit`. */
  writeResponse(message: MessageShape<O>): string;
}

/** What the codec path needs of the router, so that it answers as the router would. */
export interface RouterSettings {
  /** The router's interceptors, in the router's order. */
  readonly interceptors: readonly Interceptor[];
  /** The router's compressions (`acceptCompression`). */
  readonly acceptCompression: readonly Compression[];
  readonly readMaxBytes: number;
  /** Responses at least this long are compressed when the caller accepts it (connect-es's `compressMinBytes`). */
  readonly compressMinBytes: number;
  readonly shutdownSignal?: AbortSignal;
  /** The router's JSON options (error details are written with them). */
  readonly jsonOptions?: Parameters<typeof errorToJsonBytes>[1];
}

export interface UnaryJsonCodecOptions extends RouterSettings {
  /** The method's implementation, as the router holds it (`createServiceImplSpec`). */
  readonly spec: MethodImplSpec;
}
