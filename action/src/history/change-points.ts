// Change points in a benchmark's history (docs/history.md, "Change points"): where the level of a series of per-commit
// medians shifted and stayed shifted. Pure; runs when the page is built, not in the browser.
//
// Method: seeded binary segmentation (Kovács, Li, Bühlmann & Haubner, 2020: a fixed set of
// intervals at geometrically shrinking scales, ~n log n points in all) with "narrowest over
// threshold" selection (Baranowski, Chen & Fryzlewicz, 2019), where the test in each interval is
// the maximally selected two-sample rank statistic (standardized Mann–Whitney over every split,
// p-value by the Miller–Siegmund approximation, capped by Bonferroni over the splits).
//
// Why ranks: this machine's medians are bimodal and heavy-tailed (a process reads +30 % and the
// next one does not), so any rule that estimates a noise scale and compares means calls that
// noise a change. A rank test needs no scale, has one null distribution for any i.i.d. noise, is
// unmoved by one outlier however large, and is invariant under log: steps are reported as ratios
// of segment medians, i.e. on the log scale. The price is power on very short histories (under
// ~20 points nothing is flagged) and a delay before a new level at the end of the history is
// confirmed (10–15 commits at 10 % noise, more with bimodal noise: docs/history.md, "Change points").
import { tCdf } from "../core/distributions.ts";
import { median } from "../core/statistics.ts";
import { segmentsOf } from "./series-segments.ts";

export interface ChangePointOptions {
  /** Fewest points on either side of a change: a shorter excursion is not a new level. */
  readonly minSegment?: number;
  /** Chance of one or more false change points in a series without any (Bonferroni bound). */
  readonly alpha?: number;
  /** Smallest relative step worth reporting (0.01 = 1 %), between adjacent segments' medians. */
  readonly minStep?: number;
}

interface ChangePoint {
  /** Index into the input of the first value at the new level. */
  readonly index: number;
  /** Median of the values since the previous change point (or the start). */
  readonly before: number;
  /** Median of the values up to the next change point (or the end). */
  readonly after: number;
  /** after / before − 1; null when before is 0. */
  readonly step: number | null;
  /** The approximate p-value of the interval test that found it. */
  readonly pValue: number;
}

const CHANGE_POINT_DEFAULTS = Object.freeze({ minSegment: 5, alpha: 0.01, minStep: 0.01 });

interface Candidate {
  readonly start: number;
  readonly end: number;
  readonly split: number;
  readonly pValue: number;
}

/**
 * Change points of one series, oldest value first. Nulls (commits that did not run the
 * benchmark) and non-finite values are skipped; indexes refer to the input array.
 */
export function detectChangePoints(
  values: readonly (number | null)[],
  options: ChangePointOptions = {},
): ChangePoint[] {
  const minSegment = Math.max(
    2,
    Math.floor(options.minSegment ?? CHANGE_POINT_DEFAULTS.minSegment),
  );
  const alpha = options.alpha ?? CHANGE_POINT_DEFAULTS.alpha;
  const minStep = options.minStep ?? CHANGE_POINT_DEFAULTS.minStep;
  const positions: number[] = [];
  const x: number[] = [];
  values.forEach((v, i) => {
    if (v !== null && Number.isFinite(v)) {
      positions.push(i);
      x.push(v);
    }
  });
  if (x.length < 2 * minSegment) return [];

  const codes = denseRanks(x);
  const intervals = seededIntervals(x.length, 2 * minSegment);
  const threshold = alpha / intervals.length;
  const candidates: Candidate[] = [];
  for (const [start, end] of intervals) {
    const best = bestSplit(codes, start, end, minSegment);
    if (best !== undefined && best.pValue <= threshold) candidates.push({ start, end, ...best });
  }
  // Narrowest over threshold: the narrowest significant interval most likely holds one change,
  // so its split is placed first; wider intervals that straddle an accepted split are spent.
  candidates.sort((a, b) => a.end - a.start - (b.end - b.start) || a.pValue - b.pValue);
  const accepted: Candidate[] = [];
  for (const c of candidates) {
    if (!accepted.some((a) => a.split > c.start && a.split < c.end)) accepted.push(c);
  }
  accepted.sort((a, b) => a.split - b.split);
  return pruneSmallSteps(x, accepted, minStep).map((c, i, all) => {
    const before = median(x.slice(all[i - 1]?.split ?? 0, c.split));
    const after = median(x.slice(c.split, all[i + 1]?.split ?? x.length));
    return {
      index: positions[c.split] as number,
      before,
      after,
      step: before > 0 ? after / before - 1 : null,
      pValue: c.pValue,
    };
  });
}

/**
 * Change points of a series cut into segments that must not be compared with each other (a
 * superseded baseline, series-segments.ts): each segment is searched on its own, so no change
 * point, level or step spans a cut, and a cut is never reported as a change. `cuts` are indexes
 * into `values` of the first value of a new segment; indexes in the result refer to `values`.
 */
export function detectChangePointsInSegments(
  values: readonly (number | null)[],
  cuts: readonly number[],
  options: ChangePointOptions = {},
): ChangePoint[] {
  return segmentsOf(values.length, cuts).flatMap(([start, end]) =>
    detectChangePoints(values.slice(start, end), options).map((cp) => ({
      ...cp,
      index: cp.index + start,
    })),
  );
}

/**
 * Drops, one at a time, the change point whose adjacent segments differ least, until every step
 * is at least minStep: a drift cut into many statistically real but negligible steps reads as
 * noise on a chart.
 */
function pruneSmallSteps(
  x: readonly number[],
  points: readonly Candidate[],
  minStep: number,
): Candidate[] {
  const kept = [...points];
  const limit = Math.log1p(minStep);
  for (;;) {
    let weakest = -1;
    let weakestSize = Infinity;
    kept.forEach((c, i) => {
      const before = median(x.slice(kept[i - 1]?.split ?? 0, c.split));
      const after = median(x.slice(c.split, kept[i + 1]?.split ?? x.length));
      const size =
        before === after
          ? 0
          : before > 0 && after > 0
            ? Math.abs(Math.log(after / before))
            : Infinity;
      if (size < weakestSize) {
        weakestSize = size;
        weakest = i;
      }
    });
    if (weakest === -1 || weakestSize >= limit) return kept;
    kept.splice(weakest, 1);
  }
}

/**
 * The split of x[start, end) with the largest standardized rank-sum statistic, both sides at
 * least minSegment long, and its p-value; undefined when every value is tied.
 */
function bestSplit(
  codes: Float64Array,
  start: number,
  end: number,
  minSegment: number,
): { split: number; pValue: number } | undefined {
  const n = end - start;
  // Sort (dense rank, position) pairs packed into one double: a native numeric sort, no comparator.
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (codes[start + i] as number) * n + i;
  keys.sort();
  const ranks = new Float64Array(n);
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    const code = Math.floor((keys[i] as number) / n);
    let j = i + 1;
    while (j < n && Math.floor((keys[j] as number) / n) === code) j++;
    const midrank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) ranks[(keys[t] as number) - code * n] = midrank;
    const ties = j - i;
    tieTerm += ties * ties * ties - ties;
    i = j;
  }
  const spread = n + 1 - tieTerm / (n * (n - 1));
  if (!(spread > 1e-12)) return undefined;
  let sum = 0;
  for (let k = 0; k < minSegment - 1; k++) sum += ranks[k] as number;
  let bestZ = -1;
  let split = -1;
  for (let k = minSegment; k <= n - minSegment; k++) {
    sum += ranks[k - 1] as number;
    const z = Math.abs(sum - (k * (n + 1)) / 2) / Math.sqrt(((k * (n - k)) / 12) * spread);
    if (z > bestZ) {
      bestZ = z;
      split = k;
    }
  }
  if (split === -1) return undefined;
  return { split: start + split, pValue: maxRankPValue(bestZ, n, minSegment) };
}

/**
 * P(max over splits of |Z| ≥ z) for i.i.d. data: the Miller–Siegmund (1982) approximation for
 * a maximally selected standardized statistic on split fractions [ε, 1 − ε], and the Bonferroni
 * bound over the n − 2·minSegment + 1 splits; the smaller of the two (both are conservative).
 */
function maxRankPValue(z: number, n: number, minSegment: number): number {
  const splits = n - 2 * minSegment + 1;
  const tail = tCdf(-z, Infinity);
  const bonferroni = 2 * tail * splits;
  const eps = minSegment / n;
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  const millerSiegmund = (4 * density) / z + density * (z - 1 / z) * 2 * Math.log((1 - eps) / eps);
  return Math.min(1, bonferroni, Math.max(millerSiegmund, 2 * tail));
}

/**
 * Seeded intervals over [0, n): the whole range, then at each scale a ≈ 1/√2 of the previous
 * length, evenly shifted so that consecutive intervals overlap by about half, down to minLength.
 */
export function seededIntervals(n: number, minLength: number): [number, number][] {
  const seen = new Set<number>();
  const out: [number, number][] = [];
  const add = (s: number, e: number): void => {
    const key = s * (n + 1) + e;
    if (e - s >= minLength && !seen.has(key)) {
      seen.add(key);
      out.push([s, e]);
    }
  };
  add(0, n);
  for (let layer = 1; ; layer++) {
    const length = n * Math.SQRT1_2 ** layer;
    if (length < minLength) break;
    const count = 2 * Math.ceil(Math.SQRT2 ** layer) - 1;
    const shift = (n - length) / (count - 1);
    for (let i = 0; i < count; i++) {
      add(Math.floor(i * shift), Math.min(n, Math.ceil(i * shift + length)));
    }
  }
  return out;
}

/** Equal values share a code, codes increase with value: ranks without a comparator per interval. */
function denseRanks(x: readonly number[]): Float64Array {
  const order = x.map((_, i) => i).sort((a, b) => (x[a] as number) - (x[b] as number));
  const codes = new Float64Array(x.length);
  let code = 0;
  order.forEach((index, i) => {
    if (i > 0 && (x[index] as number) !== (x[order[i - 1] as number] as number)) code++;
    codes[index] = code;
  });
  return codes;
}
