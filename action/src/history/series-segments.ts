// Where superseded baselines (baseline-breaks.ts) cut each series: every analysis that compares
// a record with earlier records (change points, the page's levels and steps) runs on each
// segment between cuts on its own, so a number measured the old way is never compared with one
// measured the new way. Pure.
import type { BenchHistory } from "../schemas/history.gen.ts";
import { matchingSeries } from "./baseline-breaks.ts";

/** One cut of one series: the records from commit `index` on are a new baseline. */
export interface SeriesCut {
  /** Position in `commits` of the first commit measured the new way. */
  readonly index: number;
  /** The marks' reasons, in the order they were marked (two globs may cut at one commit). */
  readonly reasons: readonly string[];
}

/**
 * Per series index, its cuts in commit order. A mark whose commit is not in the history (a
 * hand-edited file) cuts nothing; a cut at the first commit is kept (nothing precedes it, so it
 * changes no analysis, but the page can still say the baseline was superseded there).
 */
export function seriesCuts(history: BenchHistory): ReadonlyMap<number, readonly SeriesCut[]> {
  const position = new Map(history.commits.map((c, i) => [c.sha, i]));
  // One glob may be marked at several commits: match it against the catalogue once.
  const matches = new Map<string, readonly number[]>();
  const byIndex = new Map<number, Map<number, string[]>>();
  for (const mark of history.breaks ?? []) {
    const at = position.get(mark.from);
    if (at === undefined) continue;
    let series = matches.get(mark.benchmark);
    if (series === undefined) {
      series = matchingSeries(history.series, mark.benchmark);
      matches.set(mark.benchmark, series);
    }
    for (const s of series) {
      const cuts = byIndex.get(s) ?? new Map<number, string[]>();
      byIndex.set(s, cuts);
      const reasons = cuts.get(at) ?? [];
      if (!reasons.includes(mark.reason)) reasons.push(mark.reason);
      cuts.set(at, reasons);
    }
  }
  const out = new Map<number, SeriesCut[]>();
  for (const [s, cuts] of byIndex)
    out.set(
      s,
      [...cuts].sort(([a], [b]) => a - b).map(([index, reasons]) => ({ index, reasons })),
    );
  return out;
}

/**
 * The segments [start, end) of `length` values that `cuts` (commit positions, any order) leave:
 * the whole range without cuts, never an empty segment (none for no values).
 */
export function segmentsOf(length: number, cuts: readonly number[]): [number, number][] {
  if (length <= 0) return [];
  const inside = [...new Set(cuts)].filter((c) => c > 0 && c < length).sort((a, b) => a - b);
  const bounds = [0, ...inside, length];
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < bounds.length; i++)
    out.push([bounds[i] as number, bounds[i + 1] as number]);
  return out;
}
