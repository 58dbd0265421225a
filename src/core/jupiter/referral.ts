/**
 * Jupiter's referral program: a referral account's token account for a mint is the PDA
 * ["referral_ata", referral account, mint] of the referral program (Jupiter's docs, and the v6 swap
 * API's derivation of `feeAccount` from a referral account). Jupiter v6 takes a platform fee into
 * it like into any fee account (`platform_fee_bps`, `platform_fee_account`).
 */
import { PublicKey } from "@solana/web3.js";

export const REFERRAL_PROGRAM_ID = new PublicKey("REFER4ZgmyYx9c6He5XfaTMiGfdLwRnkV4RPp9t9iF3");
const REFERRAL_ATA_SEED = Buffer.from("referral_ata");

/** The referral token account of `referralAccount` for `mint`. */
export function referralTokenAccount(referralAccount: PublicKey, mint: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([REFERRAL_ATA_SEED, referralAccount.toBuffer(), mint.toBuffer()], REFERRAL_PROGRAM_ID)[0];
}
