/**
 * `forJitoBundle` (Swap API v2 `/build`): a transaction meant for a Jito bundle leaves out the AMMs
 * whose swap reads the instructions sysvar. Those programs can inspect the transaction they run in
 * (proprietary AMMs use it against sandwiches: a relay tip or a bundle neighbour can make them
 * refuse the swap), which is what Jupiter means by DEXes "incompatible with Jito bundles".
 */
export const BUNDLE_EXCLUDED_LABELS: readonly string[] = ["SolFi V2"];

/** The request's excluded labels plus those a bundle cannot use (once each). */
export function excludedForBundle(excludeDexes: readonly string[] | undefined): string[] {
  const out = [...(excludeDexes ?? [])];
  for (const label of BUNDLE_EXCLUDED_LABELS) if (!out.includes(label)) out.push(label);
  return out;
}
