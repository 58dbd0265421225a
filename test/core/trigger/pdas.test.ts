import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import {
  findDefaultFeeTokenAccount,
  findEventAuthorityAddress,
  findFeeAddress,
  findInputMintReserveAddress,
  findOrderAddress,
} from "../../../src/core/trigger/pdas.js";
import { TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { decodedReferenceTransactions } from "./reference.js";

const maker = new PublicKey("devjnEpxbJUhJ39FSsFz7YPerr5bdxN8VWUXvfbFUK4");
const SOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");

describe("Limit Order v2 PDAs (values from trigger-api.md §2.1 and real transactions)", () => {
  it("fee config and event authority", () => {
    expect(findFeeAddress().toBase58()).toBe("27ZASRjinQgXKsrijKqb9xyRnH6W5KWgLSDveRghvHqc");
    expect(findEventAuthorityAddress().toBase58()).toBe("ArsDfE54RTkC3zhtzPdtvTtKw9XSV5w1PCTBFVGiLd52");
  });

  it("order PDAs and reserves of the two real create transactions", () => {
    const spec = findOrderAddress(maker, 7280981023822104910n);
    expect(spec.toBase58()).toBe("CX2iPk4nxarGPkk7ziViJTfL1z2e1LnGWRDimVQ4tzYf");
    expect(findInputMintReserveAddress(spec, SOL, TOKEN_PROGRAM_ID).toBase58()).toBe("GvHzyNFiTCe6idxbFZk65LSUpnEKDeLGeUd8WCBC7aeL");
    const legacy = findOrderAddress(maker, 10267953854392421083n);
    expect(legacy.toBase58()).toBe("EWxFUCUAzvo2siM9gYVPWkaouvCfemwnwkfdVw2ib7JH");
    expect(findInputMintReserveAddress(legacy, USDC, TOKEN_PROGRAM_ID).toBase58()).toBe("48a8e4UpAr8gVZQooPGXEASKBrMYFkJmqQcRbSj8W4YJ");
    // The same accounts appear in the decoded transactions' initialize_order account lists.
    const initializeAccounts = decodedReferenceTransactions
      .slice(0, 2)
      .map((tx) => tx.decoded.instructions.find((ix) => ix.dataHex.startsWith("856e4aaf709ff59f"))!.accounts);
    expect(initializeAccounts[0][2]).toBe(spec.toBase58());
    expect(initializeAccounts[1][2]).toBe(legacy.toBase58());
  });

  it("the default order fee account is the fee PDA's ATA for the output mint", () => {
    expect(findDefaultFeeTokenAccount(USDC, TOKEN_PROGRAM_ID).toBase58()).toBe("APWoLnZc8g8iXLA8qLdHJ4w42ybRrq2Vm8UGQhH7TJ3r");
  });
});
