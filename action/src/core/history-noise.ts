// One run per side, with the runner's run-to-run noise read from the default branch's history
// (docs/statistics.md §14). With one base run and one head run, d = ln(head/base) has variance
// 2σ², where σ² is the variance of one run's log statistic — and one comparison cannot show σ.
// The history can: consecutive default-branch records of one series, on the same runner, between
// change points (no code change that moved it), are repeated single runs of nearly the same code.
// Their variance (with n − 1 degrees of freedom) estimates σ² plus whatever the history adds —
// job-to-job shocks, small code changes below the change-point test, drift — so it errs on the
// side of a larger σ, never a smaller one. The records are picked and σ² estimated in
// history/estimate-history-noise.ts; this file holds what the estimate is and the tests against it.
//
// Per benchmark: d against 2σ² (moderated across the suite like the rounds' variances, never
// below the benchmark's own nor the suite's typical), a one-sided t-test against the noise floor
// (the group analysis base-head-base shares, one-run-group.ts), then Benjamini–Hochberg and the
// fail threshold as in every other design (decision.ts).
//
// Two guards. The noise of a shared machine is heavy-tailed (a run now and then lands far off),
// so each test must also pass under the tails the history shows (heavy-tails.ts). And the
// history describes the runner as it was, not necessarily this job: a job that spreads wider
// has its variances scaled up (spread-inflation.ts).
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries, Observation } from "./pairing.ts";
import {
  groupRows,
  usedVariance,
  type BenchmarkLook,
  type Look,
  type SuiteLook,
} from "./look-analysis.ts";
import { analyseOneRunGroup, type OneRunRow } from "./one-run-group.ts";
import { overstatedBelow, spreadRatio } from "./spread-inflation.ts";
import { fitTails, tDifferenceQuantile, tDifferenceTail } from "./heavy-tails.ts";

/** One series' run-to-run variance of ln(statistic), per single run, read from the history. */
export interface SeriesNoise {
  /** The records' ln(statistic), oldest first: the shape of the noise is fitted to them. */
  readonly logs: readonly number[];
  readonly variance: number;
  readonly df: number;
  /** How many records it was estimated from. */
  readonly records: number;
}

/** A whole record set aside: a job on a disturbed machine (history/estimate-history-noise.ts). */
export interface SetAsideRecord {
  readonly sha: string;
  /** Series whose value in it was outside their fence, of those measured in it. */
  readonly outside: number;
  readonly of: number;
  /** The median ratio of its values to their series' levels (2 = every benchmark ×2). */
  readonly ratio: number;
}

/** One series' value set aside (outside its fence) in a record that was otherwise ordinary. */
export interface SetAsideValue {
  readonly sha: string;
  readonly suite: string;
  readonly id: string;
  /** The value over its series' level. */
  readonly ratio: number;
}

/** What the history supplied: per series (noiseKey) its variance, and what that rests on. */
export interface HistoryNoise {
  readonly kind: "history";
  readonly series: ReadonlyMap<string, SeriesNoise>;
  /** Records and values inside the windows that were set aside as far outside the rest. */
  readonly setAside: {
    readonly records: readonly SetAsideRecord[];
    readonly values: readonly SetAsideValue[];
  };
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
export interface HistoryNoiseLook extends Look {
  /** Per suite group: the factor its variances were scaled by (1 = the history fitted). */
  readonly inflation: ReadonlyMap<string, number>;
  /**
   * Per suite group large enough to tell: λ, this job's spread over the history's (spread-
   * inflation.ts), and whether it is so far below 1 that the history overstates this job's noise.
   */
  readonly spread: ReadonlyMap<string, { readonly lambda: number; readonly overstated: boolean }>;
  /** Benchmarks tested against the history's noise, and those that had none. */
  readonly withHistory: number;
  readonly withoutHistory: number;
}

interface Row extends OneRunRow {
  readonly noise: SeriesNoise | undefined;
}

/** The single pair of one benchmark, its noise from the history, or why it has no pair. */
function rowOf(series: BenchmarkSeries, noise: SeriesNoise | undefined): Row | string {
  const rounds = [...series.base.keys()].filter((r) => series.head.has(r));
  const round = rounds[0];
  if (round === undefined) return "no round in which both sides produced a value";
  const b = (series.base.get(round) as Observation).value;
  const h = (series.head.get(round) as Observation).value;
  const sign = series.direction === "smaller_is_better" ? 1 : -1;
  if (!(b > 0) || !(h > 0)) return `round ${round} skipped: a value of zero has no logarithm`;
  const base = sign * Math.log(b);
  const head = sign * Math.log(h);
  return {
    series,
    lastRound: round,
    d: head - base,
    // On the scale of d: one comparison is two runs, so its variance is twice a run's.
    own: noise === undefined ? undefined : { variance: 2 * noise.variance, df: noise.df },
    note:
      noise === undefined
        ? "no history of this benchmark on this runner to estimate its noise from"
        : `one run per side; run-to-run noise from ${noise.records} history records of this runner`,
    noise,
  };
}

/**
 * Is the history far wider than this job? Under the history's fitted tails each benchmark's d,
 * centred on the suite's robust centre, is s·(T₁ − T₂): divided by s and by the median of
 * |T₁ − T₂| its square has median 1, and λ is the median of those squares over the suite
 * (spreadRatio with the tails as the yardstick). Below the bound overstatedBelow gives for these
 * tails, the history cannot be this job's noise. The tails, not the variance, are the yardstick:
 * on a runner whose runs now and then land far off, the sample variance is large while most pairs
 * agree closely, and a normal yardstick would call every such history overstated. Undefined for
 * a suite too small to tell.
 */
function historySpread(
  rows: readonly { d: number; scale: number }[],
  nu: number,
  minBenchmarks: number,
): { lambda: number; overstated: boolean } | undefined {
  const scaled = rows.filter((r) => r.scale > 0);
  const q = tDifferenceQuantile(0.75, nu);
  const lambda = spreadRatio(scaled, minBenchmarks, (r, x) => (x / (r.scale * q)) ** 2);
  if (lambda === undefined) return undefined;
  const below = (x: number): number => 1 - 2 * tDifferenceTail(Math.sqrt(x) * q, nu);
  return { lambda, overstated: lambda < overstatedBelow(scaled.length, below) };
}

/** P(one run's difference of noise ≥ x) under the history's fitted tails; 1 − … below zero. */
function heavy(x: number, tail: { nu: number; scale: number }): number {
  if (!(tail.scale > 0)) return x > 0 ? 0 : 1;
  return tDifferenceTail(x / tail.scale, tail.nu);
}

function analyseGroup(
  rows: readonly Row[],
  settings: CompareSettings,
  tested: number,
  out: Map<string, BenchmarkLook>,
): {
  suite: SuiteLook;
  inflation: number;
  spread: { lambda: number; overstated: boolean } | undefined;
} {
  const known = rows.filter((r) => r.noise !== undefined);
  const tails = fitTails(known.map((r) => (r.noise as SeriesNoise).logs));
  const scales = new Map(known.map((r, i) => [r, tails.fits[i]?.scale ?? 0]));
  // What the tail test can detect, for a lone slowdown at the level Benjamini–Hochberg gives it
  // (q/m) with the power the settings quote: the same for every benchmark of the group, × s.
  const L = Math.log1p(settings.noiseFloor);
  const F = Math.log1p(settings.failThreshold);
  const alone = tDifferenceQuantile(settings.q / Math.max(1, tested), tails.nu);
  const power = tDifferenceQuantile(1 - settings.power, tails.nu);
  const { suite, inflation } = analyseOneRunGroup(
    rows,
    {
      // Already on the scale of d, which is also a base–head log ratio's.
      scale: { d: 1, sd: 1 },
      moderate: (own, df, prior, totalDf) =>
        usedVariance(own, df, prior, totalDf) as { used: number; df: number },
      shock: undefined,
      // The shape of the history's noise (heavy-tails.ts), scaled for this job.
      secondTest: (row, factor) => {
        const tail = { nu: tails.nu, scale: (scales.get(row) as number) * Math.sqrt(factor) };
        return {
          upper: (x) => heavy(x, tail),
          mdeFloor: Math.max(L + tail.scale * (alone + power), F + tail.scale * power),
        };
      },
      sdInflated: true,
      wider: (factor) =>
        `this job's differences spread ×${factor} wider than the history: variance scaled up`,
    },
    settings,
    out,
  );
  return {
    suite,
    inflation,
    spread: historySpread(
      known.map((r) => ({ d: r.d, scale: scales.get(r) as number })),
      tails.nu,
      settings.minBenchmarksForPeriod,
    ),
  };
}

/**
 * Every benchmark with one run per side, tested against its history's noise; those without
 * history stay single runs (the unverified rule judges them).
 */
export function analyseHistoryNoise(
  series: readonly BenchmarkSeries[],
  noise: HistoryNoise,
  settings: CompareSettings,
): HistoryNoiseLook {
  const benchmarks = new Map<string, BenchmarkLook>();
  const groups = groupRows(series, (s) => rowOf(s, noise.series.get(noiseKey(s))), benchmarks);
  // Every benchmark with history is one hypothesis of the Benjamini–Hochberg family.
  const tested = [...groups.values()].flat().filter((r) => r.noise !== undefined).length;
  const suites: SuiteLook[] = [];
  const inflation = new Map<string, number>();
  const spread = new Map<string, { lambda: number; overstated: boolean }>();
  let withHistory = 0;
  let withoutHistory = 0;
  for (const [key, rows] of groups) {
    const fitted = analyseGroup(rows, settings, tested, benchmarks);
    suites.push(fitted.suite);
    inflation.set(key, fitted.inflation);
    if (fitted.spread !== undefined) spread.set(key, fitted.spread);
    for (const r of rows) {
      if (r.noise === undefined) withoutHistory++;
      else withHistory++;
    }
  }
  return { benchmarks, suites, inflation, spread, withHistory, withoutHistory };
}
