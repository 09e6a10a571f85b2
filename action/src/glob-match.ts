// The one glob matcher: budgets' and history marks' benchmark globs (budgets/parse-budget.ts) and
// `--baselines` over a Criterion tree's directory names (ingest/criterion/baseline-pattern.ts).
/**
 * Matches a glob against a whole name. `*` matches any run of characters including `/` (ids such
 * as "group/function/param" have no directory structure to respect), `?` exactly one character
 * (one code point); every other character is literal. No regular expression is built from the
 * input, which may be hostile (a budget's glob, a directory name in a Criterion tree): greedy
 * two-pointer matching with backtracking to the last `*`, O(|glob|·|name|), never exponential
 * (a regular expression built from `*a*a*a*b` could backtrack for a long time).
 */
export function globMatch(glob: string, id: string): boolean {
  const g = [...glob];
  const s = [...id];
  let gi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    const c = g[gi];
    if (c !== undefined && (c === "?" || (c !== "*" && c === s[si]))) {
      gi += 1;
      si += 1;
    } else if (c === "*") {
      star = gi;
      mark = si;
      gi += 1;
    } else if (star !== -1) {
      gi = star + 1;
      mark += 1;
      si = mark;
    } else {
      return false;
    }
  }
  while (g[gi] === "*") gi += 1;
  return gi === g.length;
}
