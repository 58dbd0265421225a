/**
 * The shell blocks of the README and docs/ that claim to run on the embedded chain: a ```sh fence right after the
 * line `<!-- runs-on-embedded-chain -->`. In such a block a comment `# → text` says what the commands before it
 * print: one output line, `…` standing for anything; comment lines right after it that start with `#` and three or
 * more spaces continue the same line (long JSON answers are wrapped).
 */
export const MARKER = "<!-- runs-on-embedded-chain -->";

export interface DocBlock {
  readonly file: string;
  /** 1-based line of the block's first command. */
  readonly line: number;
  readonly script: string;
  /** What the block says it prints, in order: one output line each. */
  readonly expected: readonly string[];
}

export function embeddedChainBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== MARKER) continue;
    if (lines[i + 1] !== "```sh") throw new Error(`${file}:${i + 1}: ${MARKER} must be followed by a \`\`\`sh fence`);
    const end = lines.indexOf("```", i + 2);
    if (end < 0) throw new Error(`${file}:${i + 2}: unterminated shell block`);
    const body = lines.slice(i + 2, end);
    blocks.push({ file, line: i + 3, script: body.join("\n"), expected: expectedLines(body) });
    i = end;
  }
  return blocks;
}

function expectedLines(body: readonly string[]): string[] {
  const expected: string[] = [];
  let open = false;
  for (const line of body) {
    const start = /^# → (.*)$/.exec(line);
    const more = /^# {3,}(\S.*)$/.exec(line);
    if (start) expected.push(start[1]);
    else if (open && more) expected[expected.length - 1] += more[1];
    open = start !== null || (open && more !== null);
  }
  return expected;
}

/** The expectation as a whole-line pattern: `…` matches anything, the rest literally. */
export function linePattern(expected: string): RegExp {
  const parts = expected
    .trim()
    .split("…")
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s");
}

/**
 * The expectations not met by `output`, in order: each must match a whole (trimmed) line after the line the one
 * before it matched.
 */
export function unmetExpectations(expected: readonly string[], output: string): string[] {
  const lines = output.split("\n").map((l) => l.trim());
  let from = 0;
  const unmet: string[] = [];
  for (const e of expected) {
    const pattern = linePattern(e);
    const at = lines.findIndex((l, k) => k >= from && pattern.test(l));
    if (at < 0) unmet.push(e);
    else from = at + 1;
  }
  return unmet;
}
