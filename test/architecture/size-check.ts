/**
 * Size and hygiene checks over `src/`, read with the TypeScript compiler; pure functions from
 * `{ path → source }` to findings, so the test runs them over `src/` and over small made-up trees.
 *
 * - Classes of `LONG_CLASS_LINES` lines or more (from the `class` keyword to its closing brace).
 * - Files of `LONG_FILE_LINES` lines or more.
 * - `process.env` read outside `src/config` and the entry points.
 * - Promise `.catch(handler)` whose handler ignores the error (no parameter, or one never used)
 *   with no comment saying why, neither in the handler nor just before the statement.
 */
import ts from "typescript";

export const LONG_CLASS_LINES = 250;
export const LONG_FILE_LINES = 400;

/** Where `process.env` may be read: the configuration room and the entry points. */
export const ENV_READERS: readonly RegExp[] = [
  /^src\/config\//,
  /^src\/config\.ts$/,
  /^src\/main\.ts$/,
  /^src\/healthcheck\.ts$/,
  /^src\/localnet\/main\.ts$/,
  /^src\/markets\/main\.ts$/,
  /^src\/alt\/main\.ts$/,
];

export interface Sized {
  readonly file: string;
  readonly name: string;
  readonly lines: number;
}

function parse(file: string, source: string): ts.SourceFile {
  return ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function lineOf(sf: ts.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

export function longClasses(sources: ReadonlyMap<string, string>): Sized[] {
  const out: Sized[] = [];
  for (const [file, source] of sources) {
    const sf = parse(file, source);
    walk(sf, (node) => {
      if (!ts.isClassDeclaration(node) && !ts.isClassExpression(node)) return;
      const lines = lineOf(sf, node.end) - lineOf(sf, node.getStart(sf)) + 1;
      if (lines >= LONG_CLASS_LINES) out.push({ file, name: node.name?.text ?? "(anonymous class)", lines });
    });
  }
  return out;
}

export function longFiles(sources: ReadonlyMap<string, string>): Sized[] {
  const out: Sized[] = [];
  for (const [file, source] of sources) {
    const lines = source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
    if (lines >= LONG_FILE_LINES) out.push({ file, name: file, lines });
  }
  return out;
}

/** `file:line` of each `process.env` read outside `ENV_READERS`. */
export function envReads(sources: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of sources) {
    if (ENV_READERS.some((allowed) => allowed.test(file))) continue;
    const sf = parse(file, source);
    walk(sf, (node) => {
      const isEnv =
        (ts.isPropertyAccessExpression(node) && node.name.text === "env") ||
        (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === "env");
      if (isEnv && ts.isIdentifier(node.expression) && node.expression.text === "process") out.push(`${file}:${lineOf(sf, node.getStart(sf))}`);
    });
  }
  return out;
}

function hasComment(sf: ts.SourceFile, node: ts.Node): boolean {
  const text = sf.text;
  for (let pos = node.getStart(sf); pos < node.end; pos++) {
    if (text[pos] === "/" && (text[pos + 1] === "/" || text[pos + 1] === "*")) return true;
  }
  return false;
}

function statementOf(node: ts.Node): ts.Node {
  let current = node;
  while (current.parent && !ts.isBlock(current.parent) && !ts.isSourceFile(current.parent) && !ts.isCaseClause(current.parent)) current = current.parent;
  return current;
}

function usesName(node: ts.Node, name: string): boolean {
  let used = false;
  walk(node, (n) => {
    if (ts.isIdentifier(n) && n.text === name) used = true;
  });
  return used;
}

/** `file:line` of each `.catch(handler)` that ignores the error with no comment saying why. */
export function silentPromiseCatches(sources: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of sources) {
    const sf = parse(file, source);
    walk(sf, (node) => {
      if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== "catch") return;
      const handler = node.arguments[0];
      if (!handler || !(ts.isArrowFunction(handler) || ts.isFunctionExpression(handler))) return;
      const param = handler.parameters[0];
      if (param && ts.isIdentifier(param.name) && usesName(handler.body, param.name.text)) return;
      const statement = statementOf(node);
      const leading = ts.getLeadingCommentRanges(sf.text, statement.getFullStart()) ?? [];
      if (leading.length > 0 || hasComment(sf, handler)) return;
      out.push(`${file}:${lineOf(sf, node.getStart(sf))}`);
    });
  }
  return out;
}
