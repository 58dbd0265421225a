/**
 * The one way configuration values are read: a `Setting` declares a variable's parser, default,
 * room and doc line; `readSettings(env, schema, problems)` reads every declared variable and appends
 * one `NAME: rule (got …)` line per broken rule, so that one start names every mistake at once.
 * Each parser here is the only reader of its kind of value (integers, decimals, flags, URLs, URL
 * lists, base58 key lists, directories).
 *
 * Not zod: the same declaration must also render the docs (accepted values, defaults as the docs say
 * them) and keep each rule's exact wording (`NAME: must be an integer 0–65535 (got "x")`), which a
 * schema library's issues would have to be mapped back to one by one.
 */
import { statSync } from "node:fs";
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";

export type Env = Readonly<Record<string, string | undefined>>;

/** Reads one set value (trimmed, not empty); reports each broken rule (without the name) and returns undefined then. */
export interface Parser<T> {
  /** What the variable accepts, for the docs: `integer 0–65535`. */
  readonly accepts: string;
  parse(raw: string, refuse: (rule: string) => void): T | undefined;
}

/** Where a setting belongs: the part of the service that uses it (a section of docs/configuration.md). */
export type Room = "server" | "edge" | "chain" | "live" | "quote" | "store" | "landing" | "trigger";

export interface Setting<T> {
  readonly room: Room;
  readonly parser: Parser<T>;
  readonly default: T;
  /** The default as the docs say it, when the value alone does not (derived defaults, lists). */
  readonly defaultDoc?: string;
  /** One line for docs/configuration.md (markdown). */
  readonly doc: string;
}

export type SettingValue<S> = S extends Setting<infer T> ? T : never;
export type SettingValues<S extends Record<string, Setting<unknown>>> = { readonly [K in keyof S]: SettingValue<S[K]> };

/** A setting whose default is the value given, or unset (undefined) without one. */
export function setting<T>(s: Setting<T>): Setting<T>;
export function setting<T>(s: Omit<Setting<T | undefined>, "default">): Setting<T | undefined>;
export function setting<T>(s: Omit<Setting<T>, "default"> & { default?: T }): Setting<T | undefined> {
  return { ...s, default: s.default };
}

/** The trimmed value; unset and empty are both undefined. */
export function rawValue(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === "" ? undefined : v;
}

/** Every setting of `schema` read from `env` (its default when unset or broken); problems appended as `NAME: rule`. */
export function readSettings<S extends Record<string, Setting<unknown>>>(env: Env, schema: S, problems: string[]): SettingValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(schema)) {
    const raw = rawValue(env, name);
    let refused = false;
    const parsed =
      raw === undefined
        ? undefined
        : s.parser.parse(raw, (rule) => {
            refused = true;
            problems.push(`${name}: ${rule}`);
          });
    values[name] = raw === undefined || refused ? s.default : parsed;
  }
  return values as SettingValues<S>;
}

const got = (raw: string) => `(got ${JSON.stringify(raw)})`;

export function text(accepts = "text"): Parser<string> {
  return { accepts, parse: (raw) => raw };
}

/** A decimal integer in [min, max]; `unit` closes the rule: `must be an integer 0–600000 (ms)`. */
export function integer(min: number, max: number, unit?: string): Parser<number> {
  const accepts = `integer ${min}–${max}${unit ? ` (${unit})` : ""}`;
  return {
    accepts,
    parse(raw, refuse) {
      if (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max) return Number(raw);
      refuse(`must be an ${accepts} ${got(raw)}`);
      return undefined;
    },
  };
}

/** A decimal number (`20`, `0.5`, `.5`) in [min, max], or in (min, max] with `exclusiveMin`; `rule` replaces the standard wording. */
export function decimal(min: number, max: number, options: { exclusiveMin?: boolean; rule?: string; accepts?: string } = {}): Parser<number> {
  const accepts = options.accepts ?? `number ${min}–${max}`;
  return {
    accepts,
    parse(raw, refuse) {
      const n = Number(raw);
      const aboveMin = options.exclusiveMin ? n > min : n >= min;
      if (/^(\d+(\.\d*)?|\.\d+)$/.test(raw) && aboveMin && n <= max) return n;
      refuse(`${options.rule ?? `must be a ${accepts}`} ${got(raw)}`);
      return undefined;
    },
  };
}

/** A switch: `0`/`1` or `false`/`true` (any case); `spelling` is how the docs and the rule name it. */
export function flag(spelling: "0 or 1" | "true or false" | "true or false (yes/no, on/off)"): Parser<boolean> {
  // The API-key switches have always also taken yes/no and on/off; the others never did.
  const words = spelling.includes("yes/no");
  return {
    accepts: spelling,
    parse(raw, refuse) {
      const v = raw.toLowerCase();
      if (v === "1" || v === "true" || (words && (v === "yes" || v === "on"))) return true;
      if (v === "0" || v === "false" || (words && (v === "no" || v === "off"))) return false;
      refuse(`must be ${spelling} ${got(raw)}`);
      return undefined;
    },
  };
}

/** One of `values`, case-insensitive. */
export function oneOf<T extends string>(values: readonly T[]): Parser<T> {
  return {
    accepts: values.join(", "),
    parse(raw, refuse) {
      const v = raw.toLowerCase();
      if ((values as readonly string[]).includes(v)) return v as T;
      refuse(`must be one of ${values.join(", ")} ${got(v)}`);
      return undefined;
    },
  };
}

/** A URL of one of `protocols` (`"http:"`, ...). The rule never repeats the URL: it may hold credentials. */
export function url(protocols: readonly string[]): Parser<string> {
  return {
    accepts: `${protocols.join(" or ")} URL`,
    parse(raw, refuse) {
      const protocol = protocolOf(raw);
      if (protocol === undefined) refuse(`must be a URL (${protocols.join(", ")})`);
      else if (!protocols.includes(protocol)) refuse(`must be a ${protocols.join(" or ")} URL (got ${protocol}//…)`);
      else return raw;
      return undefined;
    },
  };
}

/** Comma-separated URLs of `protocols`, in order, duplicates dropped; an empty entry is refused (the order is meaningful). */
export function urlList(protocols: readonly string[]): Parser<readonly string[]> {
  return {
    accepts: `comma-separated ${protocols.join(" or ")} URLs`,
    parse(raw, refuse) {
      const out: string[] = [];
      let ok = true;
      for (const [i, entry] of raw
        .split(",")
        .map((part) => part.trim())
        .entries()) {
        const protocol = protocolOf(entry);
        if (protocol === undefined || !protocols.includes(protocol)) {
          ok = false;
          refuse(`entry ${i + 1} must be an ${protocols.join(" or ")} URL (got ${entry === "" ? "an empty entry" : `${protocol ?? "no URL"}…`})`);
        } else if (!out.includes(entry)) out.push(entry);
      }
      return ok ? out : undefined;
    },
  };
}

function protocolOf(raw: string): string | undefined {
  try {
    return new URL(raw).protocol;
  } catch {
    // Not a URL: the caller's rule says what is expected.
    return undefined;
  }
}

/** Comma-separated items, each checked by `valid` (its rule from `rule(item, index)`), empties skipped, duplicates dropped. */
export function list(accepts: string, valid: (item: string) => boolean, rule: (item: string, index: number) => string): Parser<readonly string[]> {
  return {
    accepts,
    parse(raw, refuse) {
      const out: string[] = [];
      let ok = true;
      for (const item of raw
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")) {
        if (!valid(item)) {
          ok = false;
          refuse(rule(item, out.length));
        } else if (!out.includes(item)) out.push(item);
      }
      return ok ? out : undefined;
    },
  };
}

/** Comma-separated base58 public keys; with `atLeastOne`, a value that lists none is refused. */
export function publicKeys(options: { atLeastOne?: boolean } = {}): Parser<readonly string[]> {
  const keys = list("comma-separated base58 public keys", isPublicKey, (k) => `${JSON.stringify(k)} is not a base58 public key (32 bytes)`);
  if (!options.atLeastOne) return keys;
  return {
    accepts: keys.accepts,
    parse(raw, refuse) {
      const out = keys.parse(raw, refuse);
      if (out?.length === 0) refuse("must list at least one base58 public key");
      return out;
    },
  };
}

function isPublicKey(s: string): boolean {
  try {
    publicKeyFromBase58(s);
    return true;
  } catch {
    // Not base58, or not 32 bytes: the caller's rule says so.
    return false;
  }
}

/** A directory that exists (a missing one is named with its path now, not met later as a raw ENOENT). */
export function directory(): Parser<string> {
  return {
    accepts: "a directory",
    parse(raw, refuse) {
      if (isDirectory(raw)) return raw;
      refuse(`no such directory: ${raw}`);
      return undefined;
    },
  };
}

/** Comma-separated directories that exist. */
export function directories(): Parser<readonly string[]> {
  return {
    accepts: "comma-separated directories",
    parse(raw, refuse) {
      const dirs = raw
        .split(",")
        .map((d) => d.trim())
        .filter((d) => d !== "");
      const missing = dirs.filter((d) => !isDirectory(d));
      for (const d of missing) refuse(`no such directory: ${d}`);
      return missing.length === 0 ? dirs : undefined;
    },
  };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    // Missing or unreadable: the caller's rule names the path.
    return false;
  }
}
