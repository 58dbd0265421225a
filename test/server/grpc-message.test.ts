import { describe, expect, it } from "vitest";
import { specEncodedGrpcMessage } from "../../src/server/grpc-message.js";

describe("grpc-message encoding", () => {
  it("leaves printable ASCII but % alone, so decodeURI-style clients (grpc-js) read it verbatim", () => {
    const text = "quoteResponse.routePlan[1].swapInfo.inputMint: must be a base58 public key (50% off?)";
    const encoded = specEncodedGrpcMessage(encodeURIComponent(text));
    expect(encoded).toBe("quoteResponse.routePlan[1].swapInfo.inputMint: must be a base58 public key (50%25 off?)");
    expect(decodeURIComponent(encoded)).toBe(text);
  });

  it("percent-encodes non-ASCII bytes as UTF-8 and passes malformed input through", () => {
    expect(specEncodedGrpcMessage(encodeURIComponent("amount ≥ 1\n"))).toBe("amount %E2%89%A5 1%0A");
    expect(specEncodedGrpcMessage("%E0%A4%A")).toBe("%E0%A4%A");
  });
});
