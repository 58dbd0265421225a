// swapd from TypeScript on Node, with the stubs generated from proto/ and @connectrpc/connect-node
// (docs/api.md "Clients in other languages"). Calls Health/Check, Quote (1 SOL -> USDC over the
// embedded chain's demo pool), SwapInstructions with that quote as it is, and lists the wallet's
// trigger orders on both trigger services. Run it against `npm start` (embedded chain):
//
//   npm run build && node dist/example.js [base URL] [--protocol connect|grpc|grpc-web] [--wallet <base58>]
//
// The default is http://127.0.0.1:8080 over the Connect protocol (HTTP/1.1); `grpc` speaks gRPC over
// HTTP/2 (cleartext for http://), `grpc-web` gRPC-web over HTTP/1.1: all three on the service's one port.
import { parseArgs } from "node:util";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { createSwapdClients, healthV1 } from "./index.js";

// The embedded chain's demo content (README section "chain").
const SOL = "So11111111111111111111111111111111111111112";
const USDC = "BbMrRgZcZnMaW6SjwnnoniBpMM5t6FmEgfPUYGb5VZuC";
const DEMO_WALLET = "HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1";

const PROTOCOLS = ["connect", "grpc", "grpc-web"] as const;
type Protocol = (typeof PROTOCOLS)[number];

function transportFor(protocol: Protocol, baseUrl: string): Transport {
  switch (protocol) {
    case "connect":
      return createConnectTransport({ baseUrl, httpVersion: "1.1" });
    case "grpc":
      return createGrpcTransport({ baseUrl });
    case "grpc-web":
      return createGrpcWebTransport({ baseUrl, httpVersion: "1.1" });
  }
}

async function run(baseUrl: string, protocol: Protocol, wallet: string): Promise<void> {
  const { health, swap, trigger, nonceTrigger } = createSwapdClients(transportFor(protocol, baseUrl));
  const callOptions = { timeoutMs: 30_000 };

  const status = await health.check({ service: "" }, callOptions);
  console.log(`Health/Check: ${healthV1.HealthCheckResponse_ServingStatus[status.status]} (${protocol})`);

  // uint64 fields are bigint in protobuf-es.
  const quote = await swap.quote({ inputMint: SOL, outputMint: USDC, amount: 1_000_000_000n, slippageBps: 50 }, callOptions);
  const route = quote.routePlan.map((step) => `${step.swapInfo?.label} ${step.swapInfo?.ammKey}`).join(" + ");
  console.log(
    `Quote: ${quote.inAmount} ${quote.inputMint} -> ${quote.outAmount} ${quote.outputMint}` +
      ` (at least ${quote.otherAmountThreshold}, ${quote.swapMode}) via ${route}`,
  );

  const instructions = await swap.swapInstructions({ userPublicKey: wallet, quoteResponse: quote }, callOptions);
  const swapInstruction = instructions.swapInstruction;
  if (!swapInstruction) throw new Error("SwapInstructions answered without a swap instruction");
  console.log(
    `SwapInstructions: swap instruction to ${swapInstruction.programId} with ${swapInstruction.accounts.length} accounts` +
      ` and ${swapInstruction.data.length} bytes of data (base64 ${Buffer.from(swapInstruction.data).toString("base64")}),` +
      ` ${instructions.setupInstructions.length} setup instructions, compute unit limit ${instructions.computeUnitLimit},` +
      ` lookup tables [${instructions.addressLookupTableAddresses.join(", ")}]`,
  );

  // Limit orders (Jupiter Limit Order v2): the wallet's open orders, read from the chain.
  const limitOrders = await trigger.getTriggerOrders({ user: wallet, orderStatus: "active" }, callOptions);
  console.log(
    `TriggerService/GetTriggerOrders: ${limitOrders.orders.length} active orders of ${limitOrders.user} (page ${limitOrders.page} of ${limitOrders.totalPages})`,
  );
  for (const order of limitOrders.orders) {
    console.log(`  ${order.orderKey}: ${order.makingAmount} ${order.inputMint} for ${order.takingAmount} ${order.outputMint}`);
  }

  // Take-profit / stop-loss orders on a durable nonce: the orders the wallet armed, newest first.
  const nonceOrders = await nonceTrigger.getOrders({ taker: wallet }, callOptions);
  console.log(`NonceTriggerService/GetOrders: ${nonceOrders.orders.length} orders of ${wallet}`);
  for (const order of nonceOrders.orders) {
    const legs = order.legs.map((leg) => `${leg.kind} at ${leg.triggerOutAmount} (${leg.status})`).join(", ");
    console.log(`  ${order.orderId}: ${order.kind} ${order.status}, ${order.amount} ${order.inputMint} -> ${order.outputMint}, legs ${legs}`);
  }
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { protocol: { type: "string", default: "connect" }, wallet: { type: "string", default: DEMO_WALLET } },
});
const protocol = values.protocol as Protocol;
if (!PROTOCOLS.includes(protocol)) {
  console.error(`--protocol: must be one of ${PROTOCOLS.join(", ")}, got "${values.protocol}"`);
  process.exit(2);
}
try {
  await run(positionals[0] ?? "http://127.0.0.1:8080", protocol, values.wallet);
} catch (error) {
  // A ConnectError carries the gRPC code and the service's message (which names the field at fault).
  const reason = error instanceof ConnectError ? `${Code[error.code]}: ${error.rawMessage}` : String(error);
  console.error(`error: ${reason}`);
  process.exit(1);
}
