/**
 * Reading environment variables by rule: each reader returns the value (or a default) and appends
 * a `NAME: rule` line to `problems` for a value that breaks the rule, so that one start names every
 * mistake at once.
 */
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";

export type Env = Readonly<Record<string, string | undefined>>;

export interface EnvReader {
  readonly problems: string[];
  /** The trimmed value; unset and empty are both undefined. */
  str(name: string): string | undefined;
  /** A decimal integer in [min, max]; `rule` is the problem line's text. */
  int(name: string, def: number, min: number, max: number, rule: string): number;
  /** An integer or decimal in [min, max]; undefined when unset or broken. */
  number(name: string, min: number, max: number, integer: boolean): number | undefined;
  bool(name: string, def: boolean): boolean;
  /** A URL of one of `protocols` (`"http:"`, ...). */
  url(name: string, protocols: readonly string[]): string | undefined;
  /** A comma-separated list of base58 public keys, duplicates dropped. */
  keys(name: string, def: readonly string[]): readonly string[];
  /** One of `values`, case-insensitive. */
  oneOf<T extends string>(name: string, values: readonly T[], def: T): T;
}

export function envReader(env: Env, problems: string[]): EnvReader {
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  return {
    problems,
    str,
    int(name, def, min, max, rule) {
      const v = str(name);
      if (v === undefined) return def;
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
        problems.push(`${name}: ${rule} (got ${JSON.stringify(v)})`);
        return def;
      }
      return Number(v);
    },
    number(name, min, max, integer) {
      const v = str(name);
      if (v === undefined) return undefined;
      const n = Number(v);
      const shapeOk = integer ? /^\d+$/.test(v) : /^\d+(\.\d+)?$/.test(v);
      if (!shapeOk || !(n >= min && n <= max)) {
        problems.push(`${name}: must be ${integer ? "an integer" : "a number"} ${min}–${max} (got ${JSON.stringify(v)})`);
        return undefined;
      }
      return n;
    },
    bool(name, def) {
      const v = str(name)?.toLowerCase();
      if (v === undefined) return def;
      if (["1", "true", "yes", "on"].includes(v)) return true;
      if (["0", "false", "no", "off"].includes(v)) return false;
      problems.push(`${name}: must be true or false (got ${JSON.stringify(v)})`);
      return def;
    },
    url(name, protocols) {
      const v = str(name);
      if (v === undefined) return undefined;
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        // The URL parser's own message names no variable: the problem line says which and what.
        problems.push(`${name}: must be a URL (${protocols.join(", ")})`);
        return undefined;
      }
      if (!protocols.includes(u.protocol)) {
        problems.push(`${name}: must be a ${protocols.join(" or ")} URL (got ${u.protocol}//…)`);
        return undefined;
      }
      return v;
    },
    keys(name, def) {
      const v = str(name);
      if (v === undefined) return def;
      const out: string[] = [];
      for (const k of v.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
        if (!isPublicKey(k)) problems.push(`${name}: ${JSON.stringify(k)} is not a base58 public key (32 bytes)`);
        else if (!out.includes(k)) out.push(k);
      }
      return out;
    },
    oneOf(name, values, def) {
      const raw = str(name)?.toLowerCase() ?? def;
      if ((values as readonly string[]).includes(raw)) return raw as (typeof values)[number];
      problems.push(`${name}: must be one of ${values.join(", ")} (got ${JSON.stringify(raw)})`);
      return def;
    },
  };
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
