import { VersionedMessage } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import { hasDiscriminator } from "../solana/discriminator.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../solana/programs.js";
import { INITIALIZE_ORDER_DISCRIMINATOR, getInitializeOrderInstructionDataCodec } from "./instructions/initialize-order.js";
import type { InitializeOrderParams } from "./instructions/initialize-order.js";

/** The order a create transaction opens, as its `initialize_order` instruction states it. */
export interface CreatedOrder extends InitializeOrderParams {
  readonly order: PublicKey;
  readonly maker: PublicKey;
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inputTokenProgram: PublicKey;
  readonly outputTokenProgram: PublicKey;
}

// Positions in initialize_order's account list (see instructions/initialize-order.ts).
const MAKER = 1;
const ORDER = 2;
const INPUT_MINT = 7;
const OUTPUT_MINT = 8;
const INPUT_TOKEN_PROGRAM = 9;
const OUTPUT_TOKEN_PROGRAM = 10;

/**
 * Finds and decodes the `initialize_order` of a serialized message (legacy or v0). Messages this
 * service issues use no lookup tables, so every account is a static key. Null when there is none.
 */
export function createdOrderOfMessage(serializedMessage: Uint8Array): CreatedOrder | null {
  const message = VersionedMessage.deserialize(serializedMessage);
  const keys = message.staticAccountKeys;
  for (const ix of message.compiledInstructions) {
    if (!keys[ix.programIdIndex]?.equals(LIMIT_ORDER_V2_PROGRAM_ID)) continue;
    if (!hasDiscriminator(ix.data, INITIALIZE_ORDER_DISCRIMINATOR)) continue;
    const account = (position: number): PublicKey => {
      const key = keys[ix.accountKeyIndexes[position] ?? -1];
      if (!key) throw new Error(`initialize_order account ${position} is not a static key of the message`);
      return key;
    };
    // Older clients end the data before the trailing Options (the program reads them as None):
    // zero bytes are None tags, so padding makes both forms decode alike.
    const data = new Uint8Array([...ix.data, 0, 0, 0]);
    const params = getInitializeOrderInstructionDataCodec().decode(data);
    return {
      ...params,
      order: account(ORDER),
      maker: account(MAKER),
      inputMint: account(INPUT_MINT),
      outputMint: account(OUTPUT_MINT),
      inputTokenProgram: account(INPUT_TOKEN_PROGRAM),
      outputTokenProgram: account(OUTPUT_TOKEN_PROGRAM),
    };
  }
  return null;
}
