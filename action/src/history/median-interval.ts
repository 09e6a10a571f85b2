// A distribution-free confidence interval for a median from k per-round values, for the band
// the history page draws around each point. The gate's own medianInterval (core/statistics.ts)
// uses a normal approximation and needs six values; history records have k = 3…10 rounds, so
// this one is exact: the classical order-statistic interval (e.g. Conover, "Practical
// Nonparametric Statistics", §3.2; Hollander & Wolfe §3.6).
//
// With the values sorted, x(1) ≤ … ≤ x(k), the interval [x(j), x(k+1−j)] contains the true
// median of any continuous distribution with probability
//
//   coverage(k, j) = 1 − 2 · P(Binomial(k, ½) ≤ j − 1)
//
// since each value falls below the median with probability ½, independently. We take the
// narrowest such interval whose coverage is still at least the nominal level (95 %). Below
// k = 6 even [min, max] falls short of 95 %, so it is used with its actual, smaller coverage:
// k = 3 → 75 %, 4 → 87.5 %, 5 → 93.75 %, 6 → 96.9 %, 7 → 98.4 %, 8 → 99.2 % (j = 1),
// 9 → 96.1 %, 10 → 97.9 % (j = 2). Below three values there is no useful interval.

/** The level the interval aims for; small k get less (see `coverage`). */
const MEDIAN_CI_LEVEL = 0.95;

/** Fewest values for which an interval is given: two values' [min, max] covers only 50 %. */
const MIN_CI_VALUES = 3;

interface MedianInterval {
  readonly lower: number;
  readonly upper: number;
  /** The 1-based rank j of the lower bound; the upper bound is x(k+1−j). */
  readonly rank: number;
  /** The exact probability that [lower, upper] holds the true median. */
  readonly coverage: number;
}

/**
 * The narrowest order-statistic interval for the median of `values` with coverage at least
 * `level`, or [min, max] with its smaller coverage when no interval reaches it; undefined for
 * fewer than three values.
 */
export function medianOrderInterval(
  values: readonly number[],
  level: number = MEDIAN_CI_LEVEL,
): MedianInterval | undefined {
  const k = values.length;
  if (k < MIN_CI_VALUES) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  // Walk j upwards, adding one binomial term per step: coverage(k, j) = 1 − 2·cdf(j − 1).
  let logTerm = -k * Math.LN2; // log P(Bin = 0)
  let cdf = Math.exp(logTerm); // P(Bin ≤ rank − 1)
  let rank = 1;
  let coverage = Math.max(0, 1 - 2 * cdf);
  for (let j = 2; 2 * j <= k + 1; j++) {
    logTerm += Math.log((k - j + 2) / (j - 1));
    const next = Math.max(0, 1 - 2 * Math.min(1, cdf + Math.exp(logTerm)));
    if (next < level) break;
    cdf += Math.exp(logTerm);
    rank = j;
    coverage = next;
  }
  return {
    lower: sorted[rank - 1] as number,
    upper: sorted[k - rank] as number,
    rank,
    coverage,
  };
}
