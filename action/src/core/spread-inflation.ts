// Is this job as noisy as the model says? When one run per side is judged with a noise learnt
// elsewhere (the history, or the two base runs of base-head-base), the comparison's own
// differences are the check: centred on their robust common centre, divided by the variance the
// model gives them, their squares have a known median (that of F(1, df)). If the median of the
// suite's ratios is above 1, this job spread wider than the model allows, and every variance of
// the suite is scaled up by that factor (genomic control, Devlin & Roeder 1999). A real change of
// a few benchmarks barely moves a median, and a change of the whole suite is removed by the
// centring, so the guard neither hides nor creates a regression. The same λ against the
// history's fitted tails instead of a variance tells a history far wider than this job
// (history-noise.ts, overstatedBelow). Pure.
import { binomialUpper, tCdf, tQuantile } from "./distributions.ts";
import { biweightLocation } from "./robust.ts";
import { median } from "./statistics.ts";

/** The median of F(1, df): what z² has as its median when the variance is right. */
function medianOfZ2(df: number): number {
  const q = tQuantile(0.75, df);
  return q * q;
}

/** spreadRatio's yardstick for a model variance `v` with `df` degrees of freedom: z²/median(z²). */
export function varianceYardstick(
  row: { readonly v: number; readonly df: number },
  x: number,
): number {
  return (x * x) / (row.v * medianOfZ2(row.df));
}

/**
 * λ: the median over the suite of each difference's squared distance from the suite's robust
 * centre, over the median the model gives that square (1 = as the model says, 4 = twice as wide,
 * 1/16 = a quarter as wide); undefined when the suite is too small to tell (fewer than
 * `minBenchmarks` rows). `squared(row, x)` is that ratio for x = d − centre: the model's
 * yardstick, a variance with its df (varianceYardstick, for inflationOf) or the history's fitted
 * tails (the history's own check, history-noise.ts).
 */
export function spreadRatio<R extends { readonly d: number }>(
  rows: readonly R[],
  minBenchmarks: number,
  squared: (row: R, x: number) => number,
): number | undefined {
  if (rows.length < Math.max(2, minBenchmarks)) return undefined;
  const centre = biweightLocation(rows.map((r) => r.d));
  const lambda = median(rows.map((r) => squared(r, r.d - centre)));
  return Number.isFinite(lambda) ? lambda : undefined;
}

/** How much wider this job's differences spread than the model says, ≥ 1 (1 when unknown). */
export function inflationOf(
  rows: readonly { d: number; v: number; df: number }[],
  minBenchmarks: number,
): number {
  const lambda = spreadRatio(rows, minBenchmarks, varianceYardstick);
  return lambda !== undefined && lambda > 1 ? lambda : 1;
}

/**
 * Below this λ the model's noise is far above what `m` benchmarks of this job show: the chance
 * that the median of m ratios falls this low when the model is right is at most `alpha` (1 %).
 * `below(x)` is P(ratio < x) under the model — by default a normal z, where the ratio is
 * z²/median(z²) and P = 2Φ(√(x·0.4549)) − 1. The median is below x only if at least ⌈m/2⌉ ratios
 * are: a binomial tail. The history then holds something this job does not (a disturbed run the
 * fence missed, another machine's records, a code change below the change-point test) and its
 * verdicts may hide regressions; it is said, and the single-run rule still holds as a floor.
 */
export function overstatedBelow(
  m: number,
  below: (x: number) => number = (x) => 2 * tCdf(Math.sqrt(x * MEDIAN_CHI2_1), Infinity) - 1,
  alpha = 0.01,
): number {
  const need = Math.ceil(m / 2);
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (binomialUpper(m, need, below(mid)) <= alpha) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The median of χ²(1). */
const MEDIAN_CHI2_1 = 0.454936423119573;
