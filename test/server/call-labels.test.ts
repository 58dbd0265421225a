/** How calls are named in metrics and log lines (call-labels.ts), without a server. */
import { describe, expect, it } from "vitest";
import { callCode, labelCall, requestIdFrom } from "../../src/server/call-labels.js";
import { RestRouter } from "../../src/server/rest.js";

describe("call labels", () => {
  const rpcPaths = new Set(["/grpc.health.v1.Health/Check"]);
  const rest = new RestRouter([
    { method: "POST", path: "/swap/v1/swap-instructions", handler: () => ({ status: 200, body: {} }) },
    // A REST route whose path looks like a procedure is still REST.
    { method: "POST", path: "/acme.v1.Thing/Do", handler: () => ({ status: 200, body: {} }) },
  ]);

  it("labels served RPCs by path, REST routes by route, other procedure-shaped POSTs as unknown RPCs", () => {
    expect(labelCall("POST", "/grpc.health.v1.Health/Check", rpcPaths, rest)).toEqual({ procedure: "/grpc.health.v1.Health/Check", kind: "rpc" });
    expect(labelCall("POST", "/swap/v1/swap-instructions", rpcPaths, rest)).toEqual({ procedure: "POST /swap/v1/swap-instructions", kind: "rest" });
    expect(labelCall("POST", "/acme.v1.Thing/Do", rpcPaths, rest)).toEqual({ procedure: "POST /acme.v1.Thing/Do", kind: "rest" });
    expect(labelCall("POST", "/acme.v1.Other/Do", rpcPaths, rest)).toEqual({ procedure: "unknown", kind: "rpc" });
    // Not a POST, a known path with the wrong method, or no procedure shape: unmatched REST.
    expect(labelCall("GET", "/acme.v1.Other/Do", rpcPaths, rest)).toEqual({ procedure: "unmatched", kind: "rest" });
    expect(labelCall("GET", "/swap/v1/swap-instructions", rpcPaths, rest)).toEqual({ procedure: "unmatched", kind: "rest" });
    expect(labelCall("POST", "/nope", rpcPaths, rest)).toEqual({ procedure: "unmatched", kind: "rest" });
  });

  it("keeps a sane x-request-id and replaces anything else with a UUID", () => {
    expect(requestIdFrom("abc-123.x:y_z")).toBe("abc-123.x:y_z");
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const bad of [undefined, "", "a b", "x".repeat(129), "id\nforged: 1", ["a", "b"]]) {
      expect(requestIdFrom(bad)).toMatch(uuid);
    }
  });

  it("codes RPCs by Connect code name (handler first, then grpc-status), REST by HTTP status", () => {
    // gRPC status codes: 0 OK, 5 NOT_FOUND, 14 UNAVAILABLE (grpc/doc/statuscodes.md).
    expect(callCode("rpc", undefined, "0", 200)).toBe("ok");
    expect(callCode("rpc", undefined, "5", 200)).toBe("not_found");
    expect(callCode("rpc", 14, "5", 200)).toBe("unavailable");
    expect(callCode("rpc", undefined, undefined, 200)).toBe("ok");
    expect(callCode("rest", 14, "5", 404)).toBe("404");
  });
});
