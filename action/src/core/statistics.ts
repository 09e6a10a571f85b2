// Small descriptive statistics on plain arrays. Inputs are validated upstream (finite, >= 0).

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample variance (n − 1); NaN for fewer than two values. */
export function variance(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return Number.NaN;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return ss / (n - 1);
}

export function sortedCopy(values: readonly number[]): Float64Array {
  // The constructor copies an array directly; Float64Array.from goes through the iterator
  // protocol and was the largest cost of the smell detectors on a 1,000-benchmark suite.
  return new Float64Array(values).sort();
}

/** Quantile with linear interpolation between order statistics (Criterion's and R's type 7). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/**
 * The values sorted, shared by every caller that asks for the same array: a benchmark's samples
 * are sorted for its per-round median and again by the smell detectors, and at 1,000 benchmarks
 * × 10 runs the second sort was a tenth of compare. Read-only: never write into the result.
 */
const SORTED = new WeakMap<readonly number[], Float64Array>();
export function sortedView(values: readonly number[]): Readonly<Float64Array> {
  let sorted = SORTED.get(values);
  if (sorted === undefined) {
    sorted = sortedCopy(values);
    SORTED.set(values, sorted);
  }
  return sorted;
}

export function median(values: readonly number[]): number {
  return quantileSorted(sortedView(values), 0.5);
}

/**
 * A distribution-free confidence interval for the median from order statistics (normal
 * approximation to the binomial); undefined when there are too few samples to bound it.
 */
export function medianInterval(
  values: readonly number[],
  z: number,
): { lower: number; upper: number } | undefined {
  const n = values.length;
  if (n < 6) return undefined;
  const sorted = sortedCopy(values);
  const half = (z * Math.sqrt(n)) / 2;
  const j = Math.max(0, Math.floor(n / 2 - half) - 1);
  const k = Math.min(n - 1, Math.ceil(n / 2 + half));
  return { lower: sorted[j] as number, upper: sorted[k] as number };
}
