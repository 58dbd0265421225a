/**
 * The series selectors of a PromQL expression (metric name and label matchers), read with
 * Prometheus's own PromQL grammar (@prometheus-io/lezer-promql, the one its web UI uses): names are
 * what the grammar calls metric identifiers, never words guessed from the text (function names,
 * labels and strings are not names).
 */
import { parser } from "@prometheus-io/lezer-promql";
import type { SyntaxNode } from "@lezer/common";

export interface LabelMatcher {
  readonly label: string;
  readonly op: "=" | "!=" | "=~" | "!~";
  readonly value: string;
}

export interface Selector {
  readonly name: string;
  readonly matchers: readonly LabelMatcher[];
}

/** The selectors of `expr`; throws on a syntax error, and on a selector that names its metric by `__name__`. */
export function promqlSelectors(expr: string): Selector[] {
  const tree = parser.parse(expr);
  const selectors: Selector[] = [];
  let error: string | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError && error === undefined)
        error = `syntax error at ${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 20), node.to + 20))}`;
      if (node.name === "VectorSelector") selectors.push(selectorOf(node.node, expr));
    },
  });
  if (error !== undefined) throw new Error(`${error} in ${expr}`);
  return selectors;
}

function selectorOf(node: SyntaxNode, expr: string): Selector {
  const text = (n: SyntaxNode) => expr.slice(n.from, n.to);
  const identifier = node.getChild("Identifier");
  const matchers: LabelMatcher[] = [];
  for (const m of node.getChild("LabelMatchers")?.getChildren("UnquotedLabelMatcher") ?? []) {
    const label = text(m.getChild("LabelName")!);
    const value = JSON.parse(text(m.getChild("StringLiteral")!).replace(/^'(.*)'$/, '"$1"')) as string;
    matchers.push({ label, op: text(m.getChild("MatchOp")!) as LabelMatcher["op"], value });
  }
  if (identifier === null || matchers.some((m) => m.label === "__name__")) {
    throw new Error(`a selector without a metric name (or naming it by __name__): ${text(node)}; name the metric so that it can be checked`);
  }
  return { name: text(identifier), matchers };
}
