// Which of a series' history records lie so far outside the rest that they cannot be the same
// runner's ordinary run-to-run noise (docs/statistics.md §14, "Records set aside"). One record of a
// job that ran on a disturbed machine (every benchmark ×2 once), or a regression that landed and
// was reverted, would otherwise enter the variance as if it were noise and hide a real slowdown.
//
// The rule: the records' median and their normal-consistent MAD scale S (robust to almost half of
// the records being off); a record is set aside when |x − median| > c·S. The fence c is derived,
// not tuned: under normal noise, a family-wise chance α that any of a series' n records is set
// aside (Bonferroni: each record gets α/n, two-sided), and since S is itself an estimate — the MAD
// has about 37 % of the efficiency of the standard deviation, so S carries the information of
// ≈ 0.37·(n − 1) degrees of freedom — the quantile is Student's t with that many df rather than
// the normal one. For n = 30 and α = 1 % that is c ≈ 5.2: a record 5 robust SDs off stays in.
//
// The fence assumes the runner's ordinary noise has normal tails. Some runners' do not: a run now
// and then lands 20–40 % off for one benchmark or another, and the history shows it in most
// series (docs/statistics.md §14, Guard 1). Then a value outside the fence is the runner's own
// tail, which the tail guard must see, not an anomaly. Under normal tails at most α of the series
// have any value outside (each independently), so the number of series that do is at most a
// Binomial(m, α) draw: beyond its 99 % quantile the tails are the runner's and single values are
// kept (`isolated`). Pure.
import { binomialUpper, tQuantile } from "./distributions.ts";
import { MAD_EFFICIENCY, madScale } from "./robust.ts";
import { median } from "./statistics.ts";

/** Family-wise chance, per series, that normal noise alone sets any record aside. */
export const SET_ASIDE_ALPHA = 0.01;

/** How many robust SDs from the median a record of a series of `n` may lie before it is set aside. */
export function outlierFence(n: number, alpha = SET_ASIDE_ALPHA): number {
  const df = Math.max(1, MAD_EFFICIENCY * (n - 1));
  return tQuantile(1 - alpha / (2 * Math.max(1, n)), df);
}

interface Fenced {
  /** The indexes (into the input) of the records set aside. */
  readonly outside: ReadonlySet<number>;
  readonly centre: number;
  /** The robust scale S; 0 when over half the records agree exactly (nothing is set aside then). */
  readonly scale: number;
}

/** The records of `values` (log scale) outside the fence around their median. */
export function fence(values: readonly number[]): Fenced {
  const outside = new Set<number>();
  if (values.length < 3) return { outside, centre: values[0] ?? Number.NaN, scale: 0 };
  const centre = median(values);
  const scale = madScale(values);
  // Exact counts (or a series whose majority repeats one value) have no spread to judge by.
  if (!(scale > 0) || !Number.isFinite(scale)) return { outside, centre, scale: 0 };
  const limit = outlierFence(values.length) * scale;
  values.forEach((v, i) => {
    if (Math.abs(v - centre) > limit) outside.add(i);
  });
  return { outside, centre, scale };
}

/**
 * Whether `touched` of `m` series having a value outside their fence is few enough to be isolated
 * anomalies under normal tails (at most the 99 % quantile of Binomial(m, α)); when more, the
 * runner's noise is heavy-tailed and those values are its own.
 */
export function isolated(touched: number, m: number, alpha = SET_ASIDE_ALPHA): boolean {
  return touched === 0 || binomialUpper(m, touched, alpha) > 0.01;
}
