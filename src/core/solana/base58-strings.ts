/**
 * Base58 text of public keys, computed at most once per key object. Encoding base58 is quadratic
 * in the length: the request profile showed it at ~30 % of a swap's CPU, mostly for the same keys
 * (program ids, memoised PDAs/ATAs, the request's own keys) again and again. `publicKeyFromBase58`
 * remembers the text a key was parsed from and hands out one (immutable) key object per text, so
 * keys parsed from requests, derived from them (memoised by key object identity downstream) and
 * printed back all hit these caches.
 */
import { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { BoundedLruMap } from "./bounded-lru-map.js";

const textOf = new WeakMap<PublicKey, string>();
/**
 * 32 bytes are at most 44 base58 digits. Longer text is refused before decoding: base58 decoding
 * is quadratic, and a request-sized string (1 MiB) would block the event loop for minutes.
 */
const MAX_PUBLIC_KEY_TEXT_LENGTH = 44;
/** Key objects by base58 text: a few hundred bytes each. */
const PARSED_KEY_ENTRIES = 50_000;
const parsed = new BoundedLruMap<string, PublicKey>(PARSED_KEY_ENTRIES);

/**
 * `text` as one flat string. bs58 builds its text a character at a time, which V8 keeps as a rope
 * of ~44 pieces (~1 KB) until something reads it whole; a text kept for long (a cache, an index)
 * is read once here so the pieces go.
 */
function flat(text: string): string {
  text.charCodeAt(0); // reading a character makes V8 flatten the rope in place
  return text;
}

/** The base58 text of 32 bytes (or any bytes), as one flat string. */
export function base58OfBytes(bytes: Uint8Array): string {
  return flat(bs58.encode(bytes));
}

/** `key.toBase58()`, cached per key object. */
export function base58Of(key: PublicKey): string {
  let text = textOf.get(key);
  if (text === undefined) {
    text = flat(key.toBase58());
    textOf.set(key, text);
  }
  return text;
}

/** `new PublicKey(text)` (throws the same way on bad input), one shared object per text. */
export function publicKeyFromBase58(text: string): PublicKey {
  let key = parsed.get(text);
  if (key === undefined) {
    if (text.length > MAX_PUBLIC_KEY_TEXT_LENGTH) throw new Error(`Invalid public key input (${text.length} characters)`);
    key = new PublicKey(text);
    // A text that decodes to 32 bytes is canonical: toBase58 gives it back, so it can stand in.
    textOf.set(key, text);
    parsed.set(text, key);
  }
  return key;
}
