import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";

/** The keypair whose ed25519 seed is sha256(`seed`): the same on every machine (embedded-chain keys only, never real funds). */
export function keypairFromSeedText(seed: string): Keypair {
  return Keypair.fromSeed(createHash("sha256").update(seed).digest());
}
