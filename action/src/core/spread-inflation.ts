// Is this job as noisy as the model says? When one run per side is judged with a noise learnt
// elsewhere (the history, or the two base runs of base-head-base), the comparison's own
// differences are the check: centred on their robust common centre, divided by the variance the
// model gives them, their squares have a known median (that of F(1, df)). If the median of the
// suite's ratios is above 1, this job spread wider than the model allows, and every variance of
// the suite is scaled up by that factor (genomic control, Devlin & Roeder 1999). A real change of
// a few benchmarks barely moves a median, and a change of the whole suite is removed by the
// centring, so the guard neither hides nor creates a regression. Pure.
import { tQuantile } from "./distributions.ts";
import { biweightLocation } from "./robust.ts";
import { median } from "./statistics.ts";

/** The median of F(1, df): what z² has as its median when the variance is right. */
function medianOfZ2(df: number): number {
  const q = tQuantile(0.75, df);
  return q * q;
}

/**
 * How much wider this job's differences spread than the history says, ≥ 1; 1 when the suite is
 * too small to tell (fewer than `minBenchmarks` benchmarks with history).
 */
export function inflationOf(
  rows: readonly { d: number; v: number; df: number }[],
  minBenchmarks: number,
): number {
  if (rows.length < Math.max(2, minBenchmarks)) return 1;
  const centre = biweightLocation(rows.map((r) => r.d));
  const ratios = rows.map((r) => ((r.d - centre) * (r.d - centre)) / (r.v * medianOfZ2(r.df)));
  const lambda = median(ratios);
  return Number.isFinite(lambda) && lambda > 1 ? lambda : 1;
}
