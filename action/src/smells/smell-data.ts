// What the smell detectors look at: per side, each benchmark's runs (one per round) with the
// run's statistic and its samples, plus what the summary says about it (unit, sample kind,
// Criterion's group/function/value, throughput). Pure.
import { estimatePoint, type SourcedSummary } from "../core/pairing.ts";
import { median, sortedView, quantileSorted } from "../core/statistics.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";

interface Run {
  readonly round: number;
  /** The run's statistic: the median of its samples, else the tool's median/p50/mean. */
  readonly value: number;
  readonly samples: readonly number[];
  /** The samples sorted ascending, computed once (several detectors need order statistics). */
  readonly sorted: Readonly<Float64Array>;
}

export interface BenchmarkRuns {
  readonly id: string;
  readonly suite: string;
  readonly unit: string;
  readonly sampleKind: NonNullable<Benchmark["sample_kind"]>;
  readonly metadata: NonNullable<Benchmark["metadata"]>;
  readonly throughput: NonNullable<Benchmark["throughput"]>;
  /** Sorted by round. */
  readonly runs: readonly Run[];
}

export type SideData = ReadonlyMap<string, BenchmarkRuns>;

function statistic(b: Benchmark, sorted: Readonly<Float64Array>): number | undefined {
  if (sorted.length > 0) return quantileSorted(sorted, 0.5);
  return (
    estimatePoint(b.estimates.median) ??
    estimatePoint(b.estimates.p50) ??
    estimatePoint(b.estimates.mean)
  );
}

/** One side's summaries, merged by benchmark id (compare has already checked them). */
export function sideData(
  files: readonly SourcedSummary[],
  keep: (id: string) => boolean = () => true,
): SideData {
  const out = new Map<string, { first: Benchmark; runs: Run[] }>();
  for (const { summary } of files) {
    for (const b of summary.benchmarks) {
      if (!keep(b.id)) continue;
      const samples = b.samples ?? [];
      const sorted = sortedView(samples);
      const value = statistic(b, sorted);
      if (value === undefined || !Number.isFinite(value)) continue;
      const entry = out.get(b.id) ?? { first: b, runs: [] };
      entry.runs.push({ round: summary.round, value, samples, sorted });
      out.set(b.id, entry);
    }
  }
  const result = new Map<string, BenchmarkRuns>();
  for (const [id, { first, runs }] of out)
    result.set(id, {
      id,
      suite: first.suite,
      unit: first.unit,
      sampleKind: first.sample_kind ?? "unknown",
      metadata: first.metadata ?? {},
      throughput: first.throughput ?? [],
      runs: runs.sort((a, b) => a.round - b.round),
    });
  return result;
}

/** The benchmark's typical value: the median over its runs. */
export function typical(b: BenchmarkRuns): number {
  return median(b.runs.map((r) => r.value));
}

/**
 * Robust coefficient of variation of one run's (sorted) samples: 1.4826 × MAD / median, which equals the
 * CV for normal data and is not blown up by a few outliers. undefined below 5 samples.
 */
function robustCv(samples: ArrayLike<number>): number | undefined {
  const sorted = ascending(samples);
  const n = sorted.length;
  if (n < 5) return undefined;
  const m = quantileSorted(sorted, 0.5);
  if (!(m > 0)) return undefined;
  // The deviations |x − m| of a sorted run are two ascending sequences (left of m read
  // backwards, right of m forwards): merge-walk to their median instead of sorting them.
  let right = 0;
  while (right < n && (sorted[right] as number) < m) right++;
  let left = right - 1;
  const h = (n - 1) / 2;
  let lo = 0;
  let hi = 0;
  for (let k = 0; k <= Math.ceil(h); k++) {
    const dl = left >= 0 ? m - (sorted[left] as number) : Number.POSITIVE_INFINITY;
    const dr = right < n ? (sorted[right] as number) - m : Number.POSITIVE_INFINITY;
    const d = dl <= dr ? dl : dr;
    if (dl <= dr) left--;
    else right++;
    if (k === Math.floor(h)) lo = d;
    if (k === Math.ceil(h)) hi = d;
  }
  return (1.4826 * (lo + (h - Math.floor(h)) * (hi - lo))) / m;
}

/** The samples as a sorted Float64Array: as given when already sorted (the runs' `sorted`). */
export function ascending(samples: ArrayLike<number>): Float64Array {
  for (let i = 1; i < samples.length; i++)
    if ((samples[i] as number) < (samples[i - 1] as number))
      return Float64Array.from(samples).sort();
  return samples instanceof Float64Array ? samples : Float64Array.from(samples);
}

const cvCache = new WeakMap<BenchmarkRuns, number | undefined>();

/** The median over runs of each run's robust CV, or undefined when no run has samples (memoized). */
export function withinRunCv(b: BenchmarkRuns): number | undefined {
  if (cvCache.has(b)) return cvCache.get(b);
  const cvs = b.runs.map((r) => robustCv(r.sorted)).filter((x): x is number => x !== undefined);
  const cv = cvs.length === 0 ? undefined : median(cvs);
  cvCache.set(b, cv);
  return cv;
}

export function isTime(b: BenchmarkRuns): boolean {
  return b.unit === "ns";
}

/** An id for evidence text: ids may be 1 KiB long and evidence is capped at 2 KiB. */
export function shortId(id: string): string {
  return id.length > 80 ? `${id.slice(0, 79)}…` : id;
}

/** Up to five ids, shortened, then "and N more". */
export function listIds(
  ids: readonly string[],
  describe: (id: string) => string = shortId,
): string {
  const shown = ids.slice(0, 5).map(describe).join(", ");
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more` : shown;
}
