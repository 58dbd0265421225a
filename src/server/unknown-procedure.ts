import { Code } from "@connectrpc/connect";
import type { CallInfo } from "./context.js";
import type { NodeRequest, NodeResponse } from "./rest.js";

/** Answers a POST to a `/pkg.Service/Method` that is not served with UNIMPLEMENTED, in the caller's protocol. */
export function answerUnknownProcedure(req: NodeRequest, res: NodeResponse, path: string, info: CallInfo): void {
  const message = `unknown procedure ${path}`;
  info.code = Code.Unimplemented;
  const ct = String(req.headers["content-type"] ?? "");
  if (ct.startsWith("application/grpc")) {
    const status = { "grpc-status": String(Code.Unimplemented), "grpc-message": encodeURIComponent(message) };
    if (req.httpVersion === "2.0" && !ct.startsWith("application/grpc-web")) {
      // gRPC over HTTP/2: the status goes in trailers.
      res.writeHead(200, { "content-type": ct.split(";")[0] });
      res.addTrailers(status);
    } else {
      // gRPC-web: a trailers-only response carries the status in the headers.
      res.writeHead(200, { "content-type": ct.split(";")[0], ...status });
    }
    res.end();
    req.resume();
    return;
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ code: "unimplemented", message }));
  req.resume();
}
