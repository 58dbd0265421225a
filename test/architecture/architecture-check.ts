/**
 * The source's shape, checked over the TypeScript compiler's syntax trees: a pure function from
 * `{ path → source }` to the findings, so the test can run it over `src/` and over small made-up
 * trees that show each check can fail.
 *
 * - Import cycles between files (type-only and dynamic imports count: they tie files together too).
 * - Imports from a lower room to a higher one (`ROOM_LEVELS`).
 * - Catches that swallow an error silently: no binding (or one never used), no `throw`, and no
 *   comment inside saying why the error is expected.
 * - Functions of `LONG_FUNCTION_LINES` lines or more.
 */
import path from "node:path";
import ts from "typescript";

/**
 * The rooms of `src/`, lowest first; a file may import from its own level and the ones below.
 * `runtime` is the neutral room just above `core` / `metrics`: pieces that both the server and the
 * tools below the API share at run time (shutdown, the order-change feed, the one-port listener).
 * `main` and `healthcheck` are the entry points; `app` (buildApp) is the wiring at their level.
 */
export const ROOM_LEVELS: Readonly<Record<string, number>> = {
  core: 0,
  metrics: 0,
  runtime: 1,
  config: 2,
  chain: 2,
  store: 2,
  server: 3,
  tracker: 4,
  landing: 4,
  localnet: 4,
  alt: 4,
  markets: 4,
  api: 5,
  app: 6,
  main: 6,
  healthcheck: 6,
};

export const LONG_FUNCTION_LINES = 70;

export interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

export interface ArchitectureFindings {
  /** Each cycle as its files, in import order. */
  readonly cycles: string[][];
  /** Cycles between folders (`src/core/amm` ↔ `src/core/jupiter`), with no file cycle needed. */
  readonly folderCycles: string[][];
  /** `from → to (room a → room b)`, and files that sit in no known room. */
  readonly upwardImports: string[];
  /** `file:line` of each silent catch. */
  readonly silentCatches: string[];
  readonly longFunctions: LongFunction[];
}

/** `src/server/x.ts` → `server`; `src/main.ts` → `main`. */
export function roomOf(file: string): string {
  const parts = file.split("/");
  return parts.length === 2 ? parts[1].replace(/\.ts$/, "") : parts[1];
}

function parse(file: string, source: string): ts.SourceFile {
  return ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function moduleSpecifiers(sf: ts.SourceFile): string[] {
  const specs: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return specs;
}

/** A relative specifier resolved to a file of the tree (`./x.js` → `dir/x.ts`, `./d` → `dir/d/index.ts`). */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(js|ts)$/, "");
  return [`${stem}.ts`, `${stem}/index.ts`].find((candidate) => files.has(candidate));
}

function importGraph(trees: ReadonlyMap<string, ts.SourceFile>): Map<string, string[]> {
  const files = new Set(trees.keys());
  const graph = new Map<string, string[]>();
  for (const [file, sf] of trees) {
    const targets = moduleSpecifiers(sf).flatMap((spec) => resolve(file, spec, files) ?? []);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** A file's folder; the files right in `src/` (`main.ts`, `config.ts`) are rooms of their own. */
function folderOf(file: string): string {
  return file.split("/").length === 2 ? file : path.posix.dirname(file);
}

/** The import graph between folders: a file's import of another folder's file is its folder's import. */
function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const fromFolder = folderOf(from);
    const edges = folders.get(fromFolder) ?? new Set<string>();
    folders.set(fromFolder, edges);
    for (const to of targets) if (folderOf(to) !== fromFolder) edges.add(folderOf(to));
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.reverse());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return cycles;
}

function findUpwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const fromRoom = roomOf(from);
    const fromLevel = ROOM_LEVELS[fromRoom];
    if (fromLevel === undefined) {
      found.push(`${from} is in no known room (${fromRoom}): add it to ROOM_LEVELS`);
      continue;
    }
    for (const to of targets) {
      const toRoom = roomOf(to);
      const toLevel = ROOM_LEVELS[toRoom];
      if (toLevel !== undefined && toLevel > fromLevel) found.push(`${from} → ${to} (${fromRoom} → ${toRoom})`);
    }
  }
  return found.sort();
}

function containsComment(sf: ts.SourceFile, node: ts.Node): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, sf.text, undefined, node.getStart(sf), node.getWidth(sf));
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) return true;
  }
  return false;
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));
}

function usesAny(node: ts.Node, names: ReadonlySet<string>): boolean {
  if (ts.isIdentifier(node) && names.has(node.text)) return true;
  return ts.forEachChild(node, (child) => usesAny(child, names) || undefined) ?? false;
}

function containsThrow(node: ts.Node): boolean {
  if (ts.isThrowStatement(node)) return true;
  return ts.forEachChild(node, (child) => containsThrow(child) || undefined) ?? false;
}

function lineOf(sf: ts.SourceFile, node: ts.Node): number {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

function findSilentCatches(file: string, sf: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCatchClause(node)) {
      const binding = node.variableDeclaration;
      const used = binding !== undefined && usesAny(node.block, new Set(bindingNames(binding.name)));
      if (!used && !containsThrow(node.block) && !containsComment(sf, node)) found.push(`${file}:${lineOf(sf, node)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return "(anonymous)";
}

function findLongFunctions(file: string, sf: ts.SourceFile): LongFunction[] {
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = lineOf(sf, node);
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const lines = end - start + 1;
      if (lines >= LONG_FUNCTION_LINES) found.push({ file, line: start, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** All four checks over a tree of sources keyed by path (`src/...`, `/`-separated). */
export function checkArchitecture(sources: ReadonlyMap<string, string>): ArchitectureFindings {
  const trees = new Map([...sources].map(([file, source]) => [file, parse(file, source)] as const));
  const graph = importGraph(trees);
  return {
    cycles: findCycles(graph),
    folderCycles: findCycles(folderGraph(graph)),
    upwardImports: findUpwardImports(graph),
    silentCatches: [...trees].flatMap(([file, sf]) => findSilentCatches(file, sf)),
    longFunctions: [...trees].flatMap(([file, sf]) => findLongFunctions(file, sf)).sort((a, b) => b.lines - a.lines),
  };
}

/** `name (file:line) N lines`, one a line, longest first. */
export function formatLongFunctions(list: readonly LongFunction[]): string {
  return list.map((f) => `${f.name} (${f.file}:${f.line}) ${f.lines} lines`).join("\n");
}
