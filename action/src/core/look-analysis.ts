// One look at the data: every benchmark's estimate, standard error, degrees of freedom and
// one-sided p-values from the rounds measured so far (all rounds for a fixed design; rounds up
// to the look for sequential rounds). Verdicts and the false-discovery rate come afterwards
// (decision.ts), because they need every benchmark's p-value and, for sequential rounds, every
// look's.
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries, Observation, RoundOrder } from "./pairing.ts";
import { tCdf } from "./distributions.ts";
import { fitVariancePrior, type VariancePrior } from "./moderation.ts";
import {
  fitRoundModel,
  welchDf,
  type AdjustedRounds,
  type BenchmarkRounds,
  type RoundModel,
} from "./round-model.ts";
import { mean } from "./statistics.ts";
import {
  MEDIAN_MIN_ROUNDS,
  medianOfRounds,
  medianSpread,
  signTestUpper,
} from "./median-of-rounds.ts";

/** A benchmark tested on replicated rounds. */
export interface TestedLook {
  readonly kind: "tested";
  readonly series: BenchmarkSeries;
  readonly rounds: number;
  readonly lastRound: number;
  /** Slowdown on the log scale (positive = worse), run order and suite shift included. */
  readonly estimate: number;
  readonly se: number;
  readonly df: number;
  readonly pUp: number;
  readonly pDown: number;
  /** Per-round SDs: the benchmark's own (round-centred), the one used, and its df. */
  readonly sd: { own: number | undefined; used: number; df: number };
  /**
   * The smallest minimum detectable slowdown (log scale) another test of the same benchmark
   * allows: one run per side must also pass the history's tail test (history-noise.ts).
   */
  readonly mdeFloor?: number;
  /**
   * Rounds the benchmark needs before it can be confirmed (a load: its runs fall into modes that
   * only the median of many rounds with the sign test can see through); p-values are 1 until then.
   */
  readonly waiting?: number;
  /**
   * The median of the round-centred values and the median's per-round SD (√(π/2)·S, never below
   * the suite's prior), whichever estimator judges today: what rounds that the median will judge
   * are projected with (settle-outlook.ts).
   */
  readonly median?: { readonly estimate: number; readonly sd: number };
  readonly notes: readonly string[];
}

/** One run per side and nothing to borrow a variance from. */
interface SingleRunLook {
  readonly kind: "single-run";
  readonly series: BenchmarkSeries;
  readonly rounds: { readonly base: number; readonly head: number };
  readonly estimate: number;
  readonly notes: readonly string[];
}

/** Paired data exists on both sides but no round produced a usable pair. */
interface UnpairedLook {
  readonly kind: "no-pair";
  readonly series: BenchmarkSeries;
  readonly notes: readonly string[];
}

export type BenchmarkLook = TestedLook | SingleRunLook | UnpairedLook;

export interface SuiteLook {
  readonly suite: string;
  readonly unit: string;
  readonly benchmarks: number;
  readonly model: RoundModel["kind"];
  readonly estimatedRounds: number;
  readonly orderEffect: number | undefined;
  readonly shockSd: number | undefined;
  readonly shockDf: number | undefined;
  readonly prior: VariancePrior | undefined;
  readonly shift:
    | { estimate: number; se: number; df: number; pUp: number; pDown: number; benchmarks: number }
    | undefined;
}

export interface Look {
  readonly benchmarks: ReadonlyMap<string, BenchmarkLook>;
  readonly suites: readonly SuiteLook[];
}

/** Rates and times feel round shocks and the run order; bytes and counts are their own group. */
function isTiming(unit: string): boolean {
  return unit === "ns" || unit.endsWith("/s");
}

/** The group a benchmark is analysed in: its suite, and timings apart from each other unit. */
export function groupKey(series: BenchmarkSeries): string {
  return `${series.suite}\u0000${isTiming(series.unit) ? "time" : series.unit}`;
}

/**
 * Every benchmark with values on both sides as `row` reads it, grouped by groupKey; one that `row`
 * answers with a reason instead is set in `out` as having no usable pair.
 */
export function groupRows<R>(
  series: readonly BenchmarkSeries[],
  row: (s: BenchmarkSeries) => R | string,
  out: Map<string, BenchmarkLook>,
): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const s of series) {
    if (s.base.size === 0 || s.head.size === 0) continue;
    const r = row(s);
    if (typeof r === "string") {
      out.set(s.id, { kind: "no-pair", series: s, notes: [r] });
      continue;
    }
    const key = groupKey(s);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return groups;
}

interface Paired extends BenchmarkRounds {
  readonly series: BenchmarkSeries;
  readonly notes: string[];
}

function pairRounds(series: BenchmarkSeries, limit: number): Paired {
  const sign = series.direction === "smaller_is_better" ? 1 : -1;
  const rounds: number[] = [];
  const d: number[] = [];
  const notes: string[] = [];
  const common = [...series.base.keys()]
    .filter((r) => r <= limit && series.head.has(r))
    .sort((a, b) => a - b);
  for (const r of common) {
    const b = (series.base.get(r) as Observation).value;
    const h = (series.head.get(r) as Observation).value;
    if (b === 0 && h === 0) d.push(0);
    else if (b <= 0 || h <= 0) {
      notes.push(`round ${r} skipped: a value of zero has no ratio`);
      continue;
    } else d.push(sign * Math.log(h / b));
    rounds.push(r);
  }
  return { id: series.id, series, rounds, d, notes };
}

/** One-sided p-value of `(x − null) / se` in the upper tail; se = 0 is a point mass. */
export function upperTail(x: number, nullValue: number, se: number, df: number): number {
  if (!(se > 0)) return x > nullValue ? 0 : 1;
  return 1 - tCdf((x - nullValue) / se, df);
}

/**
 * The variance a benchmark's test uses, with the degrees of freedom that variance really has.
 * Empirical-Bayes moderation (prior s0², d0 fitted to the suite) supplies the degrees of
 * freedom; the variance itself is never below the benchmark's own nor below the suite's typical
 * s0². Both floors come from what few rounds cannot show: a benchmark noisier than its suite
 * stands on its own rounds (and their few df, not the pooled df); and a benchmark whose few
 * rounds happen to agree is not thereby quieter than its suite, because process-level noise is
 * heavy-tailed and often bimodal (a process lands in a fast or a slow mode and stays there), so
 * four rounds in agreement are weak evidence of a small variance, however the normal model reads
 * them.
 */
export function usedVariance(
  own: number | undefined,
  ownDf: number,
  prior: VariancePrior | undefined,
  totalDf: number,
): { used: number; df: number } | undefined {
  if (prior === undefined) return own === undefined ? undefined : { used: own, df: ownDf };
  if (own !== undefined && own > prior.variance) return { used: own, df: ownDf };
  // The prior itself is estimated from the suite: it cannot hold more information than all the
  // suite's rounds together, whatever d0 the moments suggest (d0 = ∞ for alike benchmarks).
  const df = Math.min(prior.df + (own === undefined ? 0 : ownDf), totalDf);
  return { used: prior.variance, df };
}

/** A benchmark's round-adjusted values and its own variance, before moderation. */
interface AdjustedRow {
  readonly p: Paired;
  readonly a: AdjustedRounds;
  readonly k: number;
  readonly ownDf: number;
  readonly own: number | undefined;
  readonly estimate: number;
  /** The median of the rounds and its variance (many rounds), not the mean and the SD. */
  readonly median: boolean;
}

/**
 * The benchmark's estimate and its own per-round variance. From MEDIAN_MIN_ROUNDS rounds on (and
 * unless `robust` is off) the median of the rounds with the median's variance and the sign test
 * under its p-values (median-of-rounds.ts), so a few processes that landed far off set neither
 * the estimate nor the benchmark's noise; below that the mean and the rounds' variance.
 */
function adjustRow(p: Paired, model: RoundModel, robust: boolean): AdjustedRow {
  const a = model.adjust(p);
  const k = p.rounds.length;
  const robustRow = robust ? medianOfRounds(a.x, a.dfLoss) : undefined;
  if (robustRow !== undefined)
    return {
      p,
      a,
      k,
      ownDf: robustRow.df,
      own: robustRow.variance,
      estimate: robustRow.estimate,
      median: true,
    };
  const ownDf = k - 1 - a.dfLoss;
  const m = mean(a.x);
  const own = ownDf > 0 ? a.x.reduce((s, v) => s + (v - m) * (v - m), 0) / ownDf : undefined;
  return { p, a, k, ownDf, own, estimate: m, median: false };
}

/** One round per side and no prior to lean on: only the single-run rule can judge it. */
function singleRunLook(r: AdjustedRow): SingleRunLook {
  return {
    kind: "single-run",
    series: r.p.series,
    rounds: { base: r.p.rounds[0] as number, head: r.p.rounds[0] as number },
    estimate: r.estimate,
    notes: r.p.notes,
  };
}

/**
 * The benchmark's test: its own part of the variance (the moderated per-round variance over its
 * rounds) plus the part it shares with the suite (the mean shock, the order estimate), each
 * with its own df, against the noise floor L in both directions.
 */
/**
 * A loop-back load on a shared machine runs in modes: the same server answers at about 100k or
 * about 200k requests/s from one run to the next, whichever binary (docs/load-tests.md). Rounds
 * that happen to put one side in one mode read as a precise change to the mean's rule, so a load
 * benchmark is confirmed only once the median and the sign test judge it (median-of-rounds.ts).
 */
const MODE_PRONE: ReadonlySet<BenchmarkSeries["source"]> = new Set(["oha", "k6", "vegeta"]);

/** The median's view of the rounds (TestedLook.median), from three rounds on. */
function medianView(x: readonly number[], prior: VariancePrior | undefined): TestedLook["median"] {
  if (x.length < 3 || !x.every(Number.isFinite)) return undefined;
  const m = medianSpread(x);
  return { estimate: m.estimate, sd: Math.sqrt(Math.max(m.variance, prior?.variance ?? 0)) };
}

function testedLook(
  r: AdjustedRow,
  v: { used: number; df: number },
  L: number,
  robust: boolean,
  prior: VariancePrior | undefined,
): TestedLook {
  if (robust && !r.median && MODE_PRONE.has(r.p.series.source)) {
    const t = testedLook(r, v, L, false, prior);
    return {
      ...t,
      pUp: 1,
      pDown: 1,
      waiting: MEDIAN_MIN_ROUNDS,
      notes: [
        ...t.notes,
        `a load runs in modes on a shared machine: it can be confirmed from ${MEDIAN_MIN_ROUNDS} rounds on (the median of its rounds and the sign test), it had ${r.k}`,
      ],
    };
  }
  const ownPart = v.used / r.k;
  const view = medianView(r.a.x, prior);
  const se = Math.sqrt(ownPart + r.a.sharedVariance);
  const df = welchDf([
    [ownPart, v.df],
    [r.a.sharedVariance, r.a.sharedDf],
  ]);
  return {
    kind: "tested",
    series: r.p.series,
    rounds: r.k,
    lastRound: r.p.rounds[r.k - 1] as number,
    estimate: r.estimate,
    se,
    df,
    // The median's p-values are never below the sign test's, which holds whatever the rounds'
    // distribution (median-of-rounds.ts).
    pUp: Math.max(upperTail(r.estimate, L, se, df), r.median ? signTestUpper(r.a.x, L) : 0),
    pDown: Math.max(
      upperTail(-r.estimate, L, se, df),
      r.median
        ? signTestUpper(
            r.a.x.map((x) => -x),
            L,
          )
        : 0,
    ),
    sd: {
      own: r.own === undefined ? undefined : Math.sqrt(r.own),
      used: Math.sqrt(v.used),
      df: v.df,
    },
    ...(view === undefined ? {} : { median: view }),
    notes: r.p.notes,
  };
}

/** The group's round model, variance prior and suite-wide shift, with the shift's test. */
function suiteLook(
  group: readonly Paired[],
  model: RoundModel,
  prior: VariancePrior | undefined,
  L: number,
): SuiteLook {
  const first = group[0] as Paired;
  const shift = model.shift;
  const shiftSe = shift === undefined ? 0 : Math.sqrt(shift.variance);
  return {
    suite: first.series.suite,
    unit: first.series.unit,
    benchmarks: group.length,
    model: model.kind,
    estimatedRounds: model.estimatedRounds.length,
    orderEffect: model.orderEffect,
    shockSd: model.shockSd,
    shockDf: model.shockDf,
    prior,
    shift:
      shift === undefined
        ? undefined
        : {
            estimate: shift.estimate,
            se: shiftSe,
            df: shift.df,
            pUp: upperTail(shift.estimate, L, shiftSe, shift.df),
            pDown: upperTail(-shift.estimate, L, shiftSe, shift.df),
            benchmarks: shift.benchmarks,
          },
  };
}

function analyseGroup(
  group: readonly Paired[],
  order: ReadonlyMap<number, RoundOrder>,
  settings: CompareSettings,
  out: Map<string, BenchmarkLook>,
): SuiteLook {
  const L = Math.log1p(settings.noiseFloor);
  const usable = group.filter((p) => p.rounds.length > 0);
  const model = fitRoundModel(usable, order, {
    minBenchmarks: settings.minBenchmarksForPeriod,
    crossover: settings.crossover,
  });
  const rows = usable.map((p) => adjustRow(p, model, settings.robust));
  const withVariance = rows.filter((r) => r.own !== undefined);
  const prior = fitVariancePrior(
    withVariance.map((r) => r.own as number),
    withVariance.map((r) => r.ownDf),
  );
  const totalDf = withVariance.reduce((s, r) => s + r.ownDf, 0);
  for (const p of group)
    if (p.rounds.length === 0)
      out.set(p.id, {
        kind: "no-pair",
        series: p.series,
        notes: [...p.notes, "no round in which both sides produced a usable value"],
      });
  for (const r of rows) {
    const v = usedVariance(r.own, r.ownDf, prior, totalDf);
    out.set(
      r.p.id,
      v === undefined ? singleRunLook(r) : testedLook(r, v, L, settings.robust, prior),
    );
  }
  return suiteLook(group, model, prior, L);
}

/**
 * Analyses every benchmark that has values on both sides. `limit(id)` is the last round a
 * benchmark may use (sequential looks); rounds are paired by number. The round model, the
 * variance prior and the suite shift are fitted per suite (and per kind of unit within it):
 * different tools and metrics do not share a machine's round shocks or noise level.
 */
export function analyseLook(
  series: readonly BenchmarkSeries[],
  order: ReadonlyMap<number, RoundOrder>,
  settings: CompareSettings,
  limit: (id: string) => number = () => Infinity,
): Look {
  const groups = new Map<string, Paired[]>();
  for (const s of series) {
    if (s.base.size === 0 || s.head.size === 0) continue;
    const key = groupKey(s);
    const list = groups.get(key) ?? [];
    list.push(pairRounds(s, limit(s.id)));
    groups.set(key, list);
  }
  const benchmarks = new Map<string, BenchmarkLook>();
  const suites = [...groups.values()].map((g) => analyseGroup(g, order, settings, benchmarks));
  return { benchmarks, suites };
}
