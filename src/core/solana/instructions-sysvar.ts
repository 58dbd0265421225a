import { PublicKey } from "@solana/web3.js";

/**
 * The Instructions sysvar: proprietary AMMs read it to see which program called them (they accept
 * swaps only from routers they allow, Jupiter among them), so their swaps pass it.
 */
export const INSTRUCTIONS_SYSVAR_ID = new PublicKey("Sysvar1nstructions1111111111111111111111111");
