/**
 * Reading environment variables by rule: each reader returns the value (or a default) and appends
 * a `NAME: rule` line to `problems` for a value that breaks the rule, so that one start names every
 * mistake at once.
 */
import { statSync } from "node:fs";
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";

export type Env = Readonly<Record<string, string | undefined>>;

export function envReader(env: Env, problems: string[]): EnvReader {
  return new EnvReader(env, problems);
}

export class EnvReader {
  constructor(
    private readonly env: Env,
    readonly problems: string[],
  ) {}

  /** The trimmed value; unset and empty are both undefined. */
  str(name: string): string | undefined {
    const v = this.env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  }

  /** A directory that exists (a missing one is named with its path here, not met later as a raw ENOENT); undefined when unset. */
  dir(name: string): string | undefined {
    const dir = this.str(name);
    if (dir !== undefined) this.checkDirectory(name, dir);
    return dir;
  }

  /** Comma-separated directories that exist, as `dir`. */
  dirs(name: string): string[] | undefined {
    const dirs = this.str(name)?.split(",").map((d) => d.trim()).filter((d) => d !== "");
    for (const dir of dirs ?? []) this.checkDirectory(name, dir);
    return dirs;
  }

  private checkDirectory(name: string, dir: string): void {
    let isDirectory = false;
    try {
      isDirectory = statSync(dir).isDirectory();
    } catch {
      // Missing or unreadable: said just below, with the path.
    }
    if (!isDirectory) this.problems.push(`${name}: no such directory: ${dir}`);
  }

  /** A decimal integer in [min, max]; `rule` is the problem line's text. */
  int(name: string, def: number, min: number, max: number, rule: string): number {
    const v = this.str(name);
    if (v === undefined) return def;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      this.problems.push(`${name}: ${rule} (got ${JSON.stringify(v)})`);
      return def;
    }
    return Number(v);
  }

  /** An integer or decimal in [min, max]; undefined when unset or broken. */
  number(name: string, min: number, max: number, integer: boolean): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    const shapeOk = integer ? /^\d+$/.test(v) : /^\d+(\.\d+)?$/.test(v);
    if (!shapeOk || !(n >= min && n <= max)) {
      this.problems.push(`${name}: must be ${integer ? "an integer" : "a number"} ${min}–${max} (got ${JSON.stringify(v)})`);
      return undefined;
    }
    return n;
  }

  bool(name: string, def: boolean): boolean {
    const v = this.str(name)?.toLowerCase();
    if (v === undefined) return def;
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off"].includes(v)) return false;
    this.problems.push(`${name}: must be true or false (got ${JSON.stringify(v)})`);
    return def;
  }

  /** A URL of one of `protocols` (`"http:"`, ...). */
  url(name: string, protocols: readonly string[]): string | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      // The URL parser's own message names no variable: the problem line says which and what.
      this.problems.push(`${name}: must be a URL (${protocols.join(", ")})`);
      return undefined;
    }
    if (!protocols.includes(u.protocol)) {
      this.problems.push(`${name}: must be a ${protocols.join(" or ")} URL (got ${u.protocol}//…)`);
      return undefined;
    }
    return v;
  }

  /** A comma-separated list of base58 public keys, duplicates dropped. */
  keys(name: string, def: readonly string[]): readonly string[] {
    const v = this.str(name);
    if (v === undefined) return def;
    const out: string[] = [];
    for (const k of v.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
      if (!isPublicKey(k)) this.problems.push(`${name}: ${JSON.stringify(k)} is not a base58 public key (32 bytes)`);
      else if (!out.includes(k)) out.push(k);
    }
    return out;
  }

  /** One of `values`, case-insensitive. */
  oneOf<T extends string>(name: string, values: readonly T[], def: T): T {
    const raw = this.str(name)?.toLowerCase() ?? def;
    if ((values as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name}: must be one of ${values.join(", ")} (got ${JSON.stringify(raw)})`);
    return def;
  }
}

function isPublicKey(s: string): boolean {
  try {
    publicKeyFromBase58(s);
    return true;
  } catch {
    // Not base58, or not 32 bytes: the caller's problem line states the rule.
    return false;
  }
}
