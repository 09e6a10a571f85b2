// One run per side, with the runner's run-to-run noise read from the default branch's history
// (docs/statistics.md §14). With one base run and one head run, d = ln(head/base) has variance
// 2σ², where σ² is the variance of one run's log statistic — and one comparison cannot show σ.
// The history can: consecutive default-branch records of one series, on the same runner, between
// change points (no code change that moved it), are repeated single runs of nearly the same code.
// Their variance (with n − 1 degrees of freedom) estimates σ² plus whatever the history adds —
// job-to-job shocks, small code changes below the change-point test, drift — so it errs on the
// side of a larger σ, never a smaller one.
//
// Per benchmark: d against 2σ² (moderated across the suite like the rounds' variances, never
// below the benchmark's own nor the suite's typical), a one-sided t-test against the noise floor,
// then Benjamini–Hochberg and the fail threshold as in every other design (decision.ts).
//
// One guard: the history describes the runner as it was, not necessarily this job. When a suite
// has enough benchmarks, the spread of this comparison's own differences around their common
// centre is compared with what the history predicts (the median of z², as genomic control does);
// if this job is noisier, every variance of the suite is scaled up by that factor. A real
// change of a few benchmarks barely moves the median, and a change of the whole suite is removed
// by the centring, so the guard neither hides nor creates a regression.
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries, Observation } from "./pairing.ts";
import {
  groupRows,
  upperTail,
  usedVariance,
  type BenchmarkLook,
  type Look,
  type SuiteLook,
} from "./look-analysis.ts";
import { fitVariancePrior } from "./moderation.ts";
import { biweightLocation } from "./robust.ts";
import { tQuantile } from "./distributions.ts";
import { median } from "./statistics.ts";

/** One series' run-to-run variance of ln(statistic), per single run, read from the history. */
export interface SeriesNoise {
  readonly variance: number;
  readonly df: number;
  /** How many records it was estimated from. */
  readonly records: number;
}

/** What the history supplied: per series (noiseKey) its variance, and what that rests on. */
export interface HistoryNoise {
  readonly kind: "history";
  readonly series: ReadonlyMap<string, SeriesNoise>;
  readonly basis: {
    /** Records (commits) that were eligible: single runs on this runner. */
    readonly commits: number;
    readonly first: string | null;
    readonly last: string | null;
    /** The runner fingerprint the records had to match; null when the run had none. */
    readonly fingerprint: string | null;
    /** At most this many recent records per series were used. */
    readonly window: number;
  };
}

/** What a history's series and a compared benchmark are matched by. */
export function noiseKey(s: {
  readonly suite: string;
  readonly id: string;
  readonly unit: string;
  readonly direction: string;
}): string {
  return JSON.stringify([s.suite, s.id, s.unit, s.direction]);
}

/** The history-noise analysis of one comparison: the looks, and each suite's inflation. */
export interface HistoryLook extends Look {
  /** Per suite group: the factor its variances were scaled by (1 = the history fitted). */
  readonly inflation: ReadonlyMap<string, number>;
  /** Benchmarks tested against the history's noise, and those that had none. */
  readonly withHistory: number;
  readonly withoutHistory: number;
}

interface Row {
  readonly series: BenchmarkSeries;
  readonly round: number;
  readonly d: number;
  readonly noise: SeriesNoise | undefined;
}

/** The single pair of one benchmark, or why it has none. */
function pairOf(series: BenchmarkSeries): Row | string {
  const rounds = [...series.base.keys()].filter((r) => series.head.has(r));
  const round = rounds[0];
  if (round === undefined) return "no round in which both sides produced a value";
  const b = (series.base.get(round) as Observation).value;
  const h = (series.head.get(round) as Observation).value;
  const sign = series.direction === "smaller_is_better" ? 1 : -1;
  if (b === 0 && h === 0) return { series, round, d: 0, noise: undefined };
  if (!(b > 0) || !(h > 0)) return `round ${round} skipped: a value of zero has no ratio`;
  return { series, round, d: sign * Math.log(h / b), noise: undefined };
}

/** The median of F(1, df): what z² has as its median when the variance is right. */
function medianOfZ2(df: number): number {
  const q = tQuantile(0.75, df);
  return q * q;
}

/**
 * How much wider this job's differences spread than the history says, ≥ 1; 1 when the suite is
 * too small to tell (fewer than `minBenchmarks` benchmarks with history).
 */
function inflationOf(
  rows: readonly { d: number; v: number; df: number }[],
  minBenchmarks: number,
): number {
  if (rows.length < Math.max(2, minBenchmarks)) return 1;
  const centre = biweightLocation(rows.map((r) => r.d));
  const ratios = rows.map((r) => ((r.d - centre) * (r.d - centre)) / (r.v * medianOfZ2(r.df)));
  const lambda = median(ratios);
  return Number.isFinite(lambda) && lambda > 1 ? lambda : 1;
}

function analyseGroup(
  rows: readonly Row[],
  settings: CompareSettings,
  out: Map<string, BenchmarkLook>,
): { suite: SuiteLook; inflation: number } {
  const L = Math.log1p(settings.noiseFloor);
  const known = rows.filter((r) => r.noise !== undefined);
  // On the scale of d: one comparison is two runs, so its variance is twice a run's.
  const own = known.map((r) => 2 * (r.noise as SeriesNoise).variance);
  const ownDf = known.map((r) => (r.noise as SeriesNoise).df);
  const prior = fitVariancePrior(own, ownDf);
  const totalDf = ownDf.reduce((s, x) => s + x, 0);
  const used = known.map((r, i) => {
    const v = usedVariance(own[i], ownDf[i] as number, prior, totalDf) as {
      used: number;
      df: number;
    };
    return { row: r, d: r.d, own: own[i] as number, v: v.used, df: v.df };
  });
  const inflation = inflationOf(used, settings.minBenchmarksForPeriod);
  for (const u of used) {
    const noise = u.row.noise as SeriesNoise;
    const variance = u.v * inflation;
    const se = Math.sqrt(variance);
    const notes = [
      `one run per side; run-to-run noise from ${noise.records} history records of this runner`,
    ];
    if (inflation > 1)
      notes.push(
        `this job's differences spread ×${Math.sqrt(inflation).toFixed(2)} wider than the history: variance scaled up`,
      );
    out.set(u.row.series.id, {
      kind: "tested",
      series: u.row.series,
      rounds: 1,
      lastRound: u.row.round,
      estimate: u.row.d,
      se,
      df: u.df,
      pUp: upperTail(u.row.d, L, se, u.df),
      pDown: upperTail(-u.row.d, L, se, u.df),
      sd: { own: Math.sqrt(u.own), used: se, df: u.df },
      notes,
    });
  }
  for (const r of rows) {
    if (r.noise !== undefined) continue;
    out.set(r.series.id, {
      kind: "single-run",
      series: r.series,
      rounds: { base: r.round, head: r.round },
      estimate: r.d,
      notes: ["no history of this benchmark on this runner to estimate its noise from"],
    });
  }
  const first = (rows[0] as Row).series;
  return {
    inflation,
    suite: {
      suite: first.suite,
      unit: first.unit,
      benchmarks: rows.length,
      model: "per-benchmark",
      estimatedRounds: 0,
      orderEffect: undefined,
      shockSd: undefined,
      shockDf: undefined,
      prior,
      shift: undefined,
    },
  };
}

/**
 * Every benchmark with one run per side, tested against its history's noise; those without
 * history stay single runs (the unverified rule judges them).
 */
export function analyseWithHistory(
  series: readonly BenchmarkSeries[],
  noise: HistoryNoise,
  settings: CompareSettings,
): HistoryLook {
  const benchmarks = new Map<string, BenchmarkLook>();
  const groups = groupRows(
    series,
    (s) => {
      const pair = pairOf(s);
      return typeof pair === "string" ? pair : { ...pair, noise: noise.series.get(noiseKey(s)) };
    },
    benchmarks,
  );
  const suites: SuiteLook[] = [];
  const inflation = new Map<string, number>();
  let withHistory = 0;
  let withoutHistory = 0;
  for (const [key, rows] of groups) {
    const fitted = analyseGroup(rows, settings, benchmarks);
    suites.push(fitted.suite);
    inflation.set(key, fitted.inflation);
    for (const r of rows) {
      if (r.noise === undefined) withoutHistory++;
      else withHistory++;
    }
  }
  return { benchmarks, suites, inflation, withHistory, withoutHistory };
}
