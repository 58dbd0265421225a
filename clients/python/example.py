#!/usr/bin/env python3
"""swapd from Python, over gRPC with the stubs generated from proto/ (see README "Clients in other languages").

Calls Health/Check, Quote (1 SOL -> USDC over the embedded chain's demo pool), SwapInstructions with
that quote as it is, and CreateOrder (sell 0.1 SOL for 15 USDC) for the demo wallet. Run it against
`npm start` (embedded chain):

    python3 clients/python/example.py [host:port]      # default 127.0.0.1:8080

Needs grpcio and protobuf (Debian: python3-grpcio python3-protobuf).
"""
import os
import sys
import time

# The generated packages (swapd/, grpc_health/) sit next to this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from swapd.swap.v1 import swap_pb2, swap_pb2_grpc  # noqa: E402
from swapd.trigger.v1 import trigger_pb2, trigger_pb2_grpc  # noqa: E402
from swapd.trigger.v2 import nonce_trigger_pb2, nonce_trigger_pb2_grpc  # noqa: E402

# The embedded chain's demo content (README section "chain").
SOL = "So11111111111111111111111111111111111111112"
USDC = "BbMrRgZcZnMaW6SjwnnoniBpMM5t6FmEgfPUYGb5VZuC"
DEMO_WALLET = "HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1"


def main(target: str) -> None:
    with grpc.insecure_channel(target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        status = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
        print("Health/Check:", health_pb2.HealthCheckResponse.ServingStatus.Name(status.status))

        swap = swap_pb2_grpc.SwapServiceStub(channel)
        quote = swap.Quote(
            swap_pb2.QuoteRequest(input_mint=SOL, output_mint=USDC, amount=1_000_000_000, slippage_bps=50),
            timeout=30,
        )
        step = quote.route_plan[0].swap_info
        print(f"Quote: {quote.in_amount} {quote.input_mint} -> {quote.out_amount} {quote.output_mint}"
              f" (at least {quote.other_amount_threshold}, {quote.swap_mode}) via {step.label} {step.amm_key}")

        instructions = swap.SwapInstructions(
            swap_pb2.SwapInstructionsRequest(user_public_key=DEMO_WALLET, quote_response=quote), timeout=30
        )
        print(f"SwapInstructions: swap instruction to {instructions.swap_instruction.program_id}"
              f" with {len(instructions.swap_instruction.accounts)} accounts,"
              f" {len(instructions.setup_instructions)} setup instructions,"
              f" compute unit limit {instructions.compute_unit_limit}")

        trigger = trigger_pb2_grpc.TriggerServiceStub(channel)
        order = trigger.CreateOrder(
            trigger_pb2.CreateOrderRequest(
                input_mint=SOL,
                output_mint=USDC,
                maker=DEMO_WALLET,
                payer=DEMO_WALLET,
                params=trigger_pb2.CreateOrderParams(
                    making_amount=100_000_000, taking_amount=15_000_000, expired_at=int(time.time()) + 86_400
                ),
                compute_unit_price="auto",
            ),
            timeout=30,
        )
        print(f"CreateOrder: order {order.order}, request {order.request_id},"
              f" unsigned transaction of {len(order.transaction)} bytes")

        # Nonce trigger orders (stop-loss / take-profit without custody): the taker's orders.
        nonce_orders = nonce_trigger_pb2_grpc.NonceTriggerServiceStub(channel).GetOrders(
            nonce_trigger_pb2.GetOrdersRequest(taker=DEMO_WALLET), timeout=30
        )
        print(f"NonceTrigger GetOrders: {len(nonce_orders.orders)} orders of {DEMO_WALLET}")


if __name__ == "__main__":
    try:
        main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:8080")
    except grpc.RpcError as error:
        print(f"error: {error.code().name}: {error.details()}", file=sys.stderr)
        sys.exit(1)
