/** Reads counters from the service's Prometheus text at `GET /metrics`. */

export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of one metric in Prometheus text exposition format (no `_bucket`/`_sum` suffix matching). */
export function samplesOf(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || (line[name.length] !== "{" && line[name.length] !== " ")) continue;
    const labelsEnd = line.indexOf("}");
    const labels: Record<string, string> = {};
    if (line[name.length] === "{") {
      for (const m of line.slice(name.length + 1, labelsEnd).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]] = m[2]!;
    }
    const value = Number(
      line
        .slice(labelsEnd >= 0 ? labelsEnd + 1 : name.length)
        .trim()
        .split(" ")[0],
    );
    out.push({ labels, value });
  }
  return out;
}

/** Sum of the samples of `name` whose labels include `where`. */
export function counterSum(text: string, name: string, where: Readonly<Record<string, string>> = {}): number {
  return samplesOf(text, name)
    .filter((s) => Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

export async function fetchMetrics(serviceUrl: string): Promise<string> {
  const res = await fetch(`${serviceUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return res.text();
}
