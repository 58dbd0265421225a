// swapd from Go, over gRPC with the stubs generated from proto/ (see README "Clients in other languages").
//
// Calls Health/Check, Quote (1 SOL -> USDC over the embedded chain's demo pool), SwapInstructions
// with that quote as it is, CreateOrder (sell 0.1 SOL for 15 USDC) for the demo wallet, signs the
// order's transaction with the demo wallet's key and hands it to Execute. Run it against `npm start`
// (embedded chain):
//
//	go run ./example [host:port]      # in clients/go; default 127.0.0.1:8080
//
// The demo wallet's key is public (README section "chain"): never use it for anything else.
package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	swapv1 "swapd.dev/clients/go/gen/swapd/swap/v1"
	triggerv1 "swapd.dev/clients/go/gen/swapd/trigger/v1"
)

// The embedded chain's demo content (README section "chain").
const (
	sol        = "So11111111111111111111111111111111111111112"
	usdc       = "BbMrRgZcZnMaW6SjwnnoniBpMM5t6FmEgfPUYGb5VZuC"
	demoWallet = "HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1"
)

func main() {
	target := "127.0.0.1:8080"
	if len(os.Args) > 1 {
		target = os.Args[1]
	}
	if err := run(target); err != nil {
		if s, ok := status.FromError(err); ok {
			fmt.Fprintf(os.Stderr, "error: %s: %s\n", s.Code(), s.Message())
		} else {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
		}
		os.Exit(1)
	}
}

func run(target string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dialCtx, dialCancel := context.WithTimeout(ctx, 10*time.Second)
	defer dialCancel()
	conn, err := grpc.DialContext(dialCtx, target, grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		return fmt.Errorf("connect to %s: %w", target, err)
	}
	defer conn.Close()

	health, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: ""})
	if err != nil {
		return err
	}
	fmt.Println("Health/Check:", health.GetStatus())

	swap := swapv1.NewSwapServiceClient(conn)
	slippage := uint32(50)
	quote, err := swap.Quote(ctx, &swapv1.QuoteRequest{InputMint: sol, OutputMint: usdc, Amount: 1_000_000_000, SlippageBps: &slippage})
	if err != nil {
		return err
	}
	step := quote.GetRoutePlan()[0].GetSwapInfo()
	fmt.Printf("Quote: %d %s -> %d %s (at least %d, %s) via %s %s\n", quote.GetInAmount(), quote.GetInputMint(),
		quote.GetOutAmount(), quote.GetOutputMint(), quote.GetOtherAmountThreshold(), quote.GetSwapMode(), step.GetLabel(), step.GetAmmKey())

	instructions, err := swap.SwapInstructions(ctx, &swapv1.SwapInstructionsRequest{UserPublicKey: demoWallet, QuoteResponse: quote})
	if err != nil {
		return err
	}
	fmt.Printf("SwapInstructions: swap instruction to %s with %d accounts, %d setup instructions, compute unit limit %d\n",
		instructions.GetSwapInstruction().GetProgramId(), len(instructions.GetSwapInstruction().GetAccounts()),
		len(instructions.GetSetupInstructions()), instructions.GetComputeUnitLimit())

	trigger := triggerv1.NewTriggerServiceClient(conn)
	expiredAt := time.Now().Unix() + 86_400
	order, err := trigger.CreateOrder(ctx, &triggerv1.CreateOrderRequest{
		InputMint:        sol,
		OutputMint:       usdc,
		Maker:            demoWallet,
		Payer:            demoWallet,
		Params:           &triggerv1.CreateOrderParams{MakingAmount: 100_000_000, TakingAmount: 15_000_000, ExpiredAt: &expiredAt},
		ComputeUnitPrice: "auto",
	})
	if err != nil {
		return err
	}
	fmt.Printf("CreateOrder: order %s, request %s, unsigned transaction of %d bytes\n", order.GetOrder(), order.GetRequestId(), len(order.GetTransaction()))

	// The demo wallet: Keypair.fromSeed(sha256("swapd demo wallet")).
	seed := sha256.Sum256([]byte("swapd demo wallet"))
	signed, err := signTransaction(order.GetTransaction(), ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		return err
	}
	executed, err := trigger.Execute(ctx, &triggerv1.ExecuteRequest{RequestId: order.GetRequestId(), SignedTransaction: signed})
	if err != nil {
		return err
	}
	fmt.Printf("Execute: %s, code %d, signature %s, error %q\n", executed.GetStatus(), executed.GetCode(), executed.GetSignature(), executed.GetError())
	return nil
}

// signTransaction puts key's signature of the message into its signature slot of a serialized
// Solana transaction (legacy or v0): a compact-u16 count of signatures, the 64-byte signatures,
// then the message, whose first account keys are the required signers in slot order.
func signTransaction(tx []byte, key ed25519.PrivateKey) ([]byte, error) {
	count, n := compactU16(tx)
	if n == 0 {
		return nil, errors.New("transaction: bad signature count")
	}
	message := tx[n+count*64:]
	header := message
	if len(header) > 0 && header[0]&0x80 != 0 { // versioned message: a version prefix byte
		header = header[1:]
	}
	if len(header) < 4 {
		return nil, errors.New("transaction: message too short")
	}
	required := int(header[0])
	keys, m := compactU16(header[3:])
	accounts := header[3+m:]
	if m == 0 || required > keys || len(accounts) < keys*32 || required > count {
		return nil, errors.New("transaction: bad message header")
	}
	public := key.Public().(ed25519.PublicKey)
	for i := 0; i < required; i++ {
		if bytes.Equal(accounts[i*32:(i+1)*32], public) {
			signed := append([]byte(nil), tx...)
			copy(signed[n+i*64:], ed25519.Sign(key, message))
			return signed, nil
		}
	}
	return nil, errors.New("transaction: the key is not one of its signers")
}

// compactU16 reads Solana's compact-u16 (shortvec) length; n = 0 when malformed.
func compactU16(b []byte) (value int, n int) {
	for shift := 0; n < 3 && n < len(b); shift += 7 {
		value |= int(b[n]&0x7f) << shift
		n++
		if b[n-1]&0x80 == 0 {
			return value, n
		}
	}
	return 0, 0
}
