/**
 * API keys: the configured set (`API_KEYS`, and `API_KEYS_FILE` reloaded when the file changes or
 * on SIGHUP), the key a request presents (`x-api-key: <key>` as Jupiter's API, or
 * `authorization: Bearer <key>`), and a constant-time check. Keys are kept only as SHA-256 digests
 * and named in logs and metrics by a short fingerprint, never by themselves.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import type { Logger } from "pino";
import { API_KEY_RULE, isValidApiKey } from "../config/edge-settings.js";
import { fileVersion, pollFileVersions, type FileVersionPoll } from "./file-versions.js";

export type KeyVerdict =
  | { readonly kind: "missing" }
  | { readonly kind: "wrong"; readonly fingerprint: string }
  | { readonly kind: "valid"; readonly fingerprint: string; readonly id: string };

/** A short, stable name of a key for logs and metrics: the first 8 hex digits of its SHA-256. */
const fingerprintOf = (keyDigest: Buffer) => keyDigest.toString("hex", 0, 4);

/**
 * A valid key's id, what data bound to a key (nonce orders) is stored under: the first 128 bits of
 * its SHA-256, so two keys never share one and the stored id does not give the key back.
 */
const idOf = (keyDigest: Buffer) => keyDigest.toString("hex", 0, 16);

/** The key a request presents: `x-api-key`, else `authorization: Bearer …`; undefined if none. */
export function presentedKey(headers: { readonly [name: string]: string | string[] | undefined }): string | undefined {
  const x = headers["x-api-key"];
  const xKey = (Array.isArray(x) ? x[0] : x)?.trim();
  if (xKey) return xKey;
  const auth = headers["authorization"];
  const m = /^Bearer\s+(\S+)\s*$/i.exec((Array.isArray(auth) ? auth[0] : auth) ?? "");
  return m?.[1];
}

/** Parses a keys file: one key per line; blank lines and `#` comments ignored. Throws naming the line. */
export function parseKeysFile(text: string, file: string): string[] {
  const keys: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    if (!isValidApiKey(line)) throw new Error(`API_KEYS_FILE ${file}: line ${i + 1}: ${API_KEY_RULE}`);
    if (!keys.includes(line)) keys.push(line);
  });
  return keys;
}

export interface ApiKeysOptions {
  readonly keys: readonly string[];
  readonly file: string | undefined;
  readonly logger: Logger;
  /** How often the file's modification is polled, ms (polling also sees atomic replacement by rename). */
  readonly pollMs?: number;
}

export class ApiKeys {
  private fromEnv: Buffer[];
  private fromFile: Buffer[] = [];
  private poll: FileVersionPoll | undefined;
  private readonly onHup = () => this.reload("SIGHUP");

  /** Reads the keys file once (throws if unreadable or invalid: a bad start must stop the process). */
  constructor(private readonly opts: ApiKeysOptions) {
    this.fromEnv = opts.keys.map(digest);
    if (opts.file !== undefined) {
      const file = opts.file;
      const read = readKeysFile(file);
      this.fromFile = parseKeysFile(read.text, file).map(digest);
      this.poll = pollFileVersions(new Map([[file, read.version]]), opts.pollMs ?? 1000, () => this.reload("file changed"));
      process.on("SIGHUP", this.onHup);
    }
    opts.logger.info({ keys: this.count, file: opts.file }, "API keys required");
  }

  get count(): number {
    return this.fromEnv.length + this.fromFile.length;
  }

  /** Re-reads the keys file; on failure the previous keys stay in force. */
  reload(reason: string): void {
    const file = this.opts.file;
    if (file === undefined) return;
    try {
      this.fromFile = parseKeysFile(readKeysFile(file).text, file).map(digest);
      this.opts.logger.info({ keys: this.count, file, reason }, "API keys reloaded");
    } catch (err) {
      this.opts.logger.error({ file, reason, error: (err as Error).message }, "API keys file not reloaded; the previous keys stay in force");
    }
  }

  /** Checks the presented key against every configured key in constant time per key (no early exit). */
  check(presented: string | undefined): KeyVerdict {
    if (presented === undefined) return { kind: "missing" };
    const d = digest(presented);
    let match = false;
    for (const k of this.fromEnv) match = timingSafeEqual(k, d) || match;
    for (const k of this.fromFile) match = timingSafeEqual(k, d) || match;
    // Both names from the one digest already made for the comparison.
    const fingerprint = fingerprintOf(d);
    return match ? { kind: "valid", fingerprint, id: idOf(d) } : { kind: "wrong", fingerprint };
  }

  close(): void {
    if (this.opts.file === undefined) return;
    this.poll?.close();
    process.off("SIGHUP", this.onHup);
  }
}

/** The file's text and the version it was read at (the stat of the open file, so the two belong together). */
function readKeysFile(file: string): { readonly text: string; readonly version: string } {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const version = fileVersion(fs.fstatSync(fd));
    return { text: fs.readFileSync(fd, "utf8"), version };
  } catch (e) {
    throw new Error(`API_KEYS_FILE: cannot read ${file}: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// Comparing fixed-length digests keeps the comparison's time independent of the key's length and content.
function digest(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}
