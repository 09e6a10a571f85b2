// high-variance and bimodal: numbers too unstable to mean much. Within one run, from the
// benchmark's own samples: a robust spread above a limit, or two clearly separated modes
// (Ashman's D on the log samples split where the between-group variance is largest).
import { median } from "../core/statistics.ts";
import { formatPercent } from "../number-text.ts";
import type { Smell } from "../schemas/report.gen.ts";
import { ascending, listIds, shortId, withinRunCv, type SideData } from "./smell-data.ts";

/** Within-run robust CV above which a benchmark is "high-variance". */
const HIGH_CV = 0.2;
/** Ashman's D above which two modes are "clearly separated" (2 is the usual bar; we want clear). */
const BIMODAL_D = 3;
/** The smaller mode must hold at least this share of the samples… */
const BIMODAL_MIN_SHARE = 0.1;
/** …the modes must differ by at least this ratio, and it must show in at least half the runs. */
const BIMODAL_MIN_RATIO = 1.1;
/**
 * Both modes must be tight: the wider one's SD at most this share of the distance between them.
 * A run disturbed by other processes has one tight mode and a long smear of slow samples, which
 * can pass Ashman's D; that is a noisy machine (high-variance), not two behaviours of the code.
 */
const BIMODAL_MAX_LOOSENESS = 0.25;
const MIN_SAMPLES = 20;
/** Rank correlation of per-iteration time with sample position that counts as a steady rise. */
const DRIFT_RHO = 0.7;

interface Split {
  readonly d: number;
  /** The wider mode's SD over the distance between the modes (log scale): small = two tight modes. */
  readonly looseness: number;
  readonly ratio: number;
  readonly share: number;
}

/** Best two-group split of the log samples (Otsu), with Ashman's D of the two groups. */
function bimodalSplit(samples: ArrayLike<number>): Split | undefined {
  // log is monotonic: the logs of sorted samples are sorted. Plain loops over typed arrays:
  // this runs once per benchmark and run, 5,000 times for a 1,000-benchmark suite.
  const sorted = ascending(samples);
  let start = 0;
  while (start < sorted.length && !((sorted[start] as number) > 0)) start++;
  const n = sorted.length - start;
  if (n < MIN_SAMPLES) return undefined;
  const prefix = new Float64Array(n + 1);
  const prefix2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const v = Math.log(sorted[start + i] as number);
    prefix[i + 1] = (prefix[i] as number) + v;
    prefix2[i + 1] = (prefix2[i] as number) + v * v;
  }
  const total = prefix[n] as number;
  let k = 0;
  let bestBetween = -1;
  const minGroup = Math.max(2, Math.ceil(BIMODAL_MIN_SHARE * n));
  for (let split = minGroup; split <= n - minGroup; split++) {
    const m1 = (prefix[split] as number) / split;
    const m2 = (total - (prefix[split] as number)) / (n - split);
    const between = split * (n - split) * (m1 - m2) ** 2;
    if (between > bestBetween) {
      bestBetween = between;
      k = split;
    }
  }
  if (k === 0) return undefined;
  const stats = (from: number, to: number): { m: number; v: number } => {
    const c = to - from;
    const s = (prefix[to] as number) - (prefix[from] as number);
    const s2 = (prefix2[to] as number) - (prefix2[from] as number);
    const m = s / c;
    return { m, v: Math.max(0, s2 / c - m * m) };
  };
  const a = stats(0, k);
  const b = stats(k, n);
  const spread = Math.sqrt(a.v + b.v);
  const d = spread === 0 ? Number.POSITIVE_INFINITY : (Math.SQRT2 * (b.m - a.m)) / spread;
  const gap = b.m - a.m;
  const looseness = gap === 0 ? Number.POSITIVE_INFINITY : Math.sqrt(Math.max(a.v, b.v)) / gap;
  return { d, looseness, ratio: Math.exp(gap), share: Math.min(k, n - k) / n };
}

/** Pearson correlation of the samples with their position: O(n), a cheap pre-check. */
function linearTrend(samples: readonly number[]): number {
  const n = samples.length;
  const mx = (n - 1) / 2;
  let my = 0;
  for (const v of samples) my += v;
  my /= n;
  let sxy = 0;
  let syy = 0;
  samples.forEach((v, i) => {
    sxy += (i - mx) * (v - my);
    syy += (v - my) ** 2;
  });
  const sxx = (n * (n * n - 1)) / 12;
  return syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** Spearman's rank correlation of the samples with their order (no ties correction needed here). */
function orderCorrelation(samples: readonly number[]): number | undefined {
  const n = samples.length;
  if (n < MIN_SAMPLES) return undefined;
  // A steady rise shows in the linear correlation too; skip the sort when that is clearly absent.
  if (linearTrend(samples) < DRIFT_RHO / 2) return 0;
  const ranks = new Array<number>(n);
  samples
    .map((v, i) => ({ v, i }))
    .sort((a, b) => a.v - b.v)
    .forEach((e, rank) => (ranks[e.i] = rank));
  let d2 = 0;
  for (let i = 0; i < n; i++) d2 += ((ranks[i] as number) - i) ** 2;
  return 1 - (6 * d2) / (n * (n * n - 1));
}

export function varianceSmells(data: SideData, side: string): Smell[] {
  const noisy: { id: string; cv: number }[] = [];
  const drifting: { id: string; rho: number }[] = [];
  const bimodal: { id: string; ratio: number; share: number; runs: string }[] = [];
  for (const b of data.values()) {
    if (b.unit !== "ns") continue;
    const cv = withinRunCv(b);
    if (cv !== undefined && cv > HIGH_CV) noisy.push({ id: b.id, cv });
    // Criterion's linear sampling gives sample j j·d iterations, so a per-iteration time that
    // rises with the sample's position means iterations get slower as they accumulate.
    const rhos = b.runs.map((r) => orderCorrelation(r.samples)).filter((x) => x !== undefined);
    const rising = rhos.filter((rho) => rho >= DRIFT_RHO);
    if (b.sampleKind === "per_iteration" && rhos.length > 0 && rising.length * 2 >= rhos.length)
      drifting.push({ id: b.id, rho: median(rising) });
    const splits = b.runs
      .map((r) => bimodalSplit(r.sorted))
      .filter((s): s is Split => s !== undefined);
    const clear = splits.filter(
      (s) =>
        s.d > BIMODAL_D &&
        s.looseness <= BIMODAL_MAX_LOOSENESS &&
        s.ratio >= BIMODAL_MIN_RATIO &&
        s.share >= BIMODAL_MIN_SHARE,
    );
    if (splits.length > 0 && clear.length * 2 >= splits.length)
      bimodal.push({
        id: b.id,
        ratio: median(clear.map((s) => s.ratio)),
        share: median(clear.map((s) => s.share)),
        runs: `${clear.length} of ${splits.length} runs`,
      });
  }
  const smells: Smell[] = [];
  if (noisy.length > 0) {
    noisy.sort((a, b) => b.cv - a.cv);
    smells.push({
      kind: "high-variance",
      benchmarks: noisy.map((n) => n.id),
      evidence: `${side}: within-run spread (robust CV of the samples) above ${HIGH_CV * 100} %: ${listIds(
        noisy.map((n) => n.id),
        (id) => `${shortId(id)} ${formatPercent(noisy.find((n) => n.id === id)?.cv ?? 0)}`,
      )}`,
      hint: "unstable numbers: look for allocation, I/O, sleeping or background work inside the timed region, or a machine that is not pinned (docs/runner-host.md)",
    });
  }
  if (drifting.length > 0)
    smells.push({
      kind: "high-variance",
      benchmarks: drifting.map((d) => d.id),
      evidence: `${side}: the time per iteration rises with the sample's position in most runs (under Criterion's linear sampling, with its iteration count; under flat sampling, with time): ${listIds(
        drifting.map((d) => d.id),
        (id) =>
          `${shortId(id)} (rank correlation ${(drifting.find((d) => d.id === id)?.rho ?? 0).toFixed(2)})`,
      )}`,
      hint: "iterations get slower as they accumulate: state survives between iterations (a buffer that grows, a cache or collection that fills); reset it per iteration, e.g. with iter_batched",
    });
  for (const m of bimodal)
    smells.push({
      kind: "bimodal",
      benchmarks: [m.id],
      evidence: `${side}: the samples form two modes ${m.ratio.toFixed(2)}× apart (the smaller holds ${(m.share * 100).toFixed(0)} % of them) in ${m.runs}`,
      hint: "two behaviours are being averaged: a cache or allocator state, a branch that depends on the input, CPU migration or frequency changes; pin the benchmark or split the cases",
    });
  return smells;
}
