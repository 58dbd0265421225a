/**
 * The instruction and blockhash JSON that `/swap/v1/swap-instructions` and `/swap/v2/build` answer
 * alike (api/swap/jupiter-response-json.ts): Jupiter's shapes, the blockhash as its 32 bytes and its
 * fetch time as Rust's `SystemTime`.
 */
import { arrayOf, BASE64, BOOLEAN, INTEGER, object, PUBLIC_KEY, ref } from "../../server/json-schema.js";
import type { JsonSchema } from "../../server/route-doc.js";

export const INSTRUCTION_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Instruction: object({ programId: PUBLIC_KEY, accounts: arrayOf(ref("AccountMeta")), data: BASE64 }, { describedBy: "swapd.swap.v1.Instruction" }),
  AccountMeta: object({ pubkey: PUBLIC_KEY, isSigner: BOOLEAN, isWritable: BOOLEAN }, { describedBy: "swapd.swap.v1.AccountMeta" }),
  BlockhashWithMetadata: object(
    {
      blockhash: { type: "array", items: { type: "integer", minimum: 0, maximum: 255 }, minItems: 32, maxItems: 32, description: "The blockhash's 32 bytes." },
      lastValidBlockHeight: INTEGER,
      fetchedAt: object(
        { secs_since_epoch: INTEGER, nanos_since_epoch: INTEGER },
        { description: "When the blockhash was read (Rust's `SystemTime`, as Jupiter writes it)." },
      ),
    },
    { describedBy: "swapd.swap.v1.BlockhashWithMetadata" },
  ),
};
