// What peers would decide on the same data, implemented from their documented rules
// (each function names the peer's source it follows; docs/PERFORMANCE.md §3 compares them).
// Each works on ONE run per side.
import { mean, variance, quantileSorted, sortedCopy } from "../action/src/core/statistics.ts";

export type CriterionVerdict = "regressed" | "improved" | "no_change" | "within_noise";

/**
 * Criterion.rs 0.8's own verdict (analysis/compare.rs, report.rs): a two-sided Welch t statistic
 * on the per-iteration sample means with a "mixed" bootstrap null (pooled resampling), then the
 * bootstrap CI of the mean ratio against the 1 % noise threshold. `resamples` defaults lower than
 * Criterion's 100,000 to keep the benchmark quick; p-values are only compared with 0.05.
 */
export function criterionVerdict(
  head: readonly number[],
  base: readonly number[],
  random: () => number,
  resamples = 4000,
): CriterionVerdict {
  const welch = (x: ArrayLike<number>, y: ArrayLike<number>): number => {
    const xs = Array.from(x);
    const ys = Array.from(y);
    return (mean(xs) - mean(ys)) / Math.sqrt(variance(xs) / xs.length + variance(ys) / ys.length);
  };
  const t = welch(head, base);
  const pooled = [...head, ...base];
  const nx = head.length;
  const ny = base.length;
  const x = new Float64Array(nx);
  const y = new Float64Array(ny);
  let below = 0;
  let above = 0;
  let n = 0;
  for (let i = 0; i < resamples; i++) {
    for (let j = 0; j < nx; j++) x[j] = pooled[Math.floor(random() * pooled.length)] as number;
    for (let j = 0; j < ny; j++) y[j] = pooled[Math.floor(random() * pooled.length)] as number;
    const ts = welch(x, y);
    if (!Number.isFinite(ts)) continue;
    n++;
    if (ts < t) below++;
    else above++;
  }
  const p = (2 * Math.min(below, above)) / n;
  if (p >= 0.05) return "no_change";
  const ratios = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) {
    let sx = 0;
    let sy = 0;
    for (let j = 0; j < nx; j++) sx += head[Math.floor(random() * nx)] as number;
    for (let j = 0; j < ny; j++) sy += base[Math.floor(random() * ny)] as number;
    ratios[i] = sx / nx / (sy / ny) - 1;
  }
  const sorted = sortedCopy(Array.from(ratios));
  const lb = quantileSorted(sorted, 0.025);
  const ub = quantileSorted(sorted, 0.975);
  const noise = 0.01;
  if (lb < -noise && ub < -noise) return "improved";
  if (lb > noise && ub > noise) return "regressed";
  return "within_noise";
}

/** critcmp -t T shows a row when (max − min) / min > T; a regression row is one where head is slower. */
export function critcmpRow(
  meanBase: number,
  meanHead: number,
  thresholdPercent: number,
): "head-slower" | "base-slower" | "hidden" {
  const lo = Math.min(meanBase, meanHead);
  const hi = Math.max(meanBase, meanHead);
  if (((hi - lo) / lo) * 100 <= thresholdPercent) return "hidden";
  return meanHead > meanBase ? "head-slower" : "base-slower";
}

/**
 * github-action-benchmark's alert: the new value over the previous one (for smaller-is-better
 * units) against `alert-threshold` given as a ratio ("200%" → 2). It reads Criterion's bencher
 * output, whose number is the median point estimate.
 */
export function gabAlert(previous: number, current: number, ratio: number): boolean {
  return current / previous > ratio;
}
