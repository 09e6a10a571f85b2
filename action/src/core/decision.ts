// The decision rule (SPEC §3.4, reference §6.3–6.7). Per benchmark, the per-round log ratio of
// the statistic on the "slowdown" scale (positive = worse, whatever the metric's direction),
// the run-order (period) effect removed, variance moderated across the suite but never below the
// benchmark's own, a one-sided test against the noise floor δ0, Benjamini–Hochberg over all
// benchmarks, and a verdict that also needs the estimate to reach the fail threshold.
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries, Observation, RoundOrder } from "./pairing.ts";
import { tCdf, tQuantile } from "./distributions.ts";
import { fitVariancePrior, moderatedVariance, type VariancePrior } from "./moderation.ts";
import { benjaminiHochberg } from "./multiple-testing.ts";
import { mean, median, medianInterval, variance } from "./statistics.ts";

export type Verdict = "regressed" | "improved" | "unchanged" | "inconclusive" | "new" | "missing";

export interface Decision {
  readonly series: BenchmarkSeries;
  readonly verdict: Verdict;
  /** Paired rounds used. */
  readonly rounds: number;
  /** Mean slowdown on the log scale (positive = worse). */
  readonly estimate: number | undefined;
  /** Confidence interval of the slowdown on the log scale. */
  readonly interval: readonly [number, number] | undefined;
  readonly p: number | undefined;
  readonly q: number | undefined;
  /** Minimum detectable slowdown on the log scale. */
  readonly mde: number | undefined;
  readonly sd: { own: number | undefined; used: number | undefined; df: number | undefined };
  readonly unverified: boolean;
  readonly notes: readonly string[];
}

export interface SuiteAnalysis {
  readonly decisions: readonly Decision[];
  readonly prior: VariancePrior | undefined;
  readonly periodEffect: number | undefined;
  readonly mode: "rounds" | "single-run";
}

interface Paired {
  readonly series: BenchmarkSeries;
  readonly rounds: number[];
  slowdowns: number[];
  readonly orders: RoundOrder[];
  readonly notes: string[];
}

/** Rates and times feel the run-order effect; other metrics (bytes, counts) are left alone. */
function isTiming(unit: string): boolean {
  return unit === "ns" || unit.endsWith("/s");
}

function pairRounds(series: BenchmarkSeries, order: ReadonlyMap<number, RoundOrder>): Paired {
  const sign = series.direction === "smaller_is_better" ? 1 : -1;
  const rounds: number[] = [];
  const slowdowns: number[] = [];
  const orders: RoundOrder[] = [];
  const notes: string[] = [];
  const common = [...series.base.keys()].filter((r) => series.head.has(r)).sort((a, b) => a - b);
  for (const r of common) {
    const b = (series.base.get(r) as Observation).value;
    const h = (series.head.get(r) as Observation).value;
    let d: number;
    if (b === 0 && h === 0) d = 0;
    else if (b <= 0 || h <= 0) {
      notes.push(`round ${r} skipped: a value of zero has no ratio`);
      continue;
    } else d = sign * Math.log(h / b);
    rounds.push(r);
    slowdowns.push(d);
    orders.push(order.get(r) ?? "unknown");
  }
  return { series, rounds, slowdowns, orders, notes };
}

/**
 * The suite-wide period effect: how much slower the process that runs first in a round is, on
 * the log scale. From each benchmark with rounds in both orders, half the difference between its
 * head-first and base-first means (orthogonal to the version effect); the median over benchmarks.
 */
function estimatePeriodEffect(
  paired: readonly Paired[],
  settings: CompareSettings,
): number | undefined {
  if (!settings.crossover) return undefined;
  const contrasts: number[] = [];
  for (const p of paired) {
    if (!isTiming(p.series.unit)) continue;
    const headFirst = p.slowdowns.filter((_, i) => p.orders[i] === "head");
    const baseFirst = p.slowdowns.filter((_, i) => p.orders[i] === "base");
    if (headFirst.length > 0 && baseFirst.length > 0)
      contrasts.push((mean(headFirst) - mean(baseFirst)) / 2);
  }
  if (contrasts.length < settings.minBenchmarksForPeriod) return undefined;
  const estimate = median(contrasts);
  // Removing a period effect that is mostly noise would make some benchmarks look quieter than
  // they are: apply it only when it stands out from its own standard error (median of m
  // contrasts: √(π/2)·σ/√m, σ from the MAD).
  const mad = 1.4826 * median(contrasts.map((c) => Math.abs(c - estimate)));
  const standardError = (Math.sqrt(Math.PI / 2) * mad) / Math.sqrt(contrasts.length);
  return Math.abs(estimate) > 2 * standardError ? estimate : undefined;
}

/** One-sided p-value of `(x − null) / se` in the upper tail; se = 0 is a point mass. */
function upperTail(x: number, nullValue: number, se: number, df: number): number {
  if (se === 0) return x > nullValue ? 0 : 1;
  return 1 - tCdf((x - nullValue) / se, df);
}

/** Log-scale half-width of a within-run interval of one side's statistic, as a standard error. */
function withinRunSe(o: Observation, z: number): number | undefined {
  const iv = medianInterval(o.samples, z) ?? o.interval;
  if (iv === undefined || !(iv.lower > 0) || !(iv.upper > 0)) return undefined;
  return (Math.log(iv.upper) - Math.log(iv.lower)) / (2 * z);
}

/** A benchmark that could not be tested: present on one side only, or never paired. */
function untested(
  series: BenchmarkSeries,
  verdict: "new" | "missing" | "inconclusive",
  notes: readonly string[] = [],
): Decision {
  return {
    series,
    verdict,
    rounds: 0,
    estimate: undefined,
    interval: undefined,
    p: undefined,
    q: undefined,
    mde: undefined,
    sd: { own: undefined, used: undefined, df: undefined },
    unverified: false,
    notes,
  };
}

/** Analyses every benchmark of a suite together (moderation and BH are suite-wide). */
export function analyseSuite(
  all: readonly BenchmarkSeries[],
  order: ReadonlyMap<number, RoundOrder>,
  settings: CompareSettings,
): SuiteAnalysis {
  const L = Math.log1p(settings.noiseFloor);
  const F = Math.log1p(settings.failThreshold);
  const U = Math.log1p(settings.unverifiedThreshold);
  const zCi = tQuantile(1 - (1 - settings.confidence) / 2, Infinity);

  const paired = all
    .filter((s) => s.base.size > 0 && s.head.size > 0)
    .map((s) => pairRounds(s, order));
  const periodEffect = estimatePeriodEffect(paired, settings);
  if (periodEffect !== undefined) {
    for (const p of paired) {
      if (!isTiming(p.series.unit)) continue;
      p.slowdowns = p.slowdowns.map((d, i) =>
        p.orders[i] === "head" ? d - periodEffect : p.orders[i] === "base" ? d + periodEffect : d,
      );
    }
  }

  const replicated = paired.filter((p) => p.slowdowns.length >= 2);
  const prior = fitVariancePrior(
    replicated.map((p) => variance(p.slowdowns)),
    replicated.map((p) => p.slowdowns.length - 1),
  );
  const mode = replicated.length > 0 ? "rounds" : "single-run";

  // First pass: estimates, variances and p-values; BH needs all p-values before any verdict.
  interface Tested {
    p: Paired;
    mu: number;
    own: number | undefined;
    used: number;
    df: number;
    se: number;
    pUp: number;
    pDown: number;
  }
  const tested: Tested[] = [];
  const decisions = new Map<string, Decision>();
  for (const p of paired) {
    const k = p.slowdowns.length;
    if (k === 0) {
      decisions.set(
        p.series.id,
        untested(p.series, "inconclusive", [
          ...p.notes,
          "no round in which both sides produced a usable value",
        ]),
      );
      continue;
    }
    const mu = mean(p.slowdowns);
    const own = k >= 2 ? variance(p.slowdowns) : undefined;
    let used: number;
    let df: number;
    if (prior !== undefined) {
      // Moderation borrows strength but must never make a benchmark look quieter than its own
      // rounds show (reference §6.7: heavy tails and heterogeneous noise on shared machines).
      const moderated = moderatedVariance(prior, own ?? Number.NaN, own === undefined ? 0 : k - 1);
      used = own === undefined ? moderated : Math.max(own, moderated);
      df = prior.df + (k - 1);
    } else if (own !== undefined) {
      used = own;
      df = k - 1;
    } else {
      decisions.set(p.series.id, singleRun(p, mu, { L, U, zCi }));
      continue;
    }
    const se = Math.sqrt(used / k);
    tested.push({
      p,
      mu,
      own,
      used,
      df,
      se,
      pUp: upperTail(mu, L, se, df),
      pDown: upperTail(-mu, L, se, df),
    });
  }

  const qUp = benjaminiHochberg(tested.map((t) => t.pUp));
  const qDown = benjaminiHochberg(tested.map((t) => t.pDown));
  const m = Math.max(1, tested.length);
  tested.forEach((t, i) => {
    const up = qUp[i] as number;
    const down = qDown[i] as number;
    const h = tQuantile(1 - (1 - settings.confidence) / 2, t.df) * t.se;
    const lo = t.mu - h;
    const hi = t.mu + h;
    // 80 %-power detectable slowdown at the level BH applies to a lone true regression (q/m), and
    // large enough that the estimate clears the fail threshold with the same power.
    const zAlpha = tQuantile(1 - settings.q / m, t.df);
    const zBeta = tQuantile(settings.power, t.df);
    const mde = Math.max(L + (zAlpha + zBeta) * t.se, F + zBeta * t.se);
    let verdict: Verdict;
    if (up <= settings.q && t.mu >= F) verdict = "regressed";
    else if (down <= settings.q && t.mu <= -F) verdict = "improved";
    else if (hi > F) verdict = "inconclusive";
    else verdict = "unchanged";
    decisions.set(t.p.series.id, {
      series: t.p.series,
      verdict,
      rounds: t.p.slowdowns.length,
      estimate: t.mu,
      interval: [lo, hi],
      p: t.mu >= 0 ? t.pUp : t.pDown,
      q: t.mu >= 0 ? up : down,
      mde,
      sd: {
        own: t.own === undefined ? undefined : Math.sqrt(t.own),
        used: Math.sqrt(t.used),
        df: t.df,
      },
      unverified: false,
      notes: t.p.notes,
    });
  });

  const ordered = all.map(
    (s) => decisions.get(s.id) ?? untested(s, s.base.size === 0 ? "new" : "missing"),
  );
  return { decisions: ordered, prior, periodEffect, mode };
}

/**
 * One run per side and nothing to borrow a variance from: the run-to-run noise is unknown, so
 * the within-run interval is only a lower bound on uncertainty. The result is labelled
 * unverified and can only fail on a large practical threshold (reference §6.4 case 3).
 */
function singleRun(p: Paired, mu: number, c: { L: number; U: number; zCi: number }): Decision {
  const r = p.rounds[0] as number;
  const seB = withinRunSe(p.series.base.get(r) as Observation, c.zCi);
  const seH = withinRunSe(p.series.head.get(r) as Observation, c.zCi);
  const se = seB !== undefined && seH !== undefined ? Math.hypot(seB, seH) : undefined;
  const clearsNoise = (x: number): boolean => se === undefined || x - c.zCi * se > c.L;
  let verdict: Verdict = "unchanged";
  if (mu >= c.U && clearsNoise(mu)) verdict = "regressed";
  else if (-mu >= c.U && clearsNoise(-mu)) verdict = "improved";
  return {
    series: p.series,
    verdict,
    rounds: 1,
    estimate: mu,
    interval: se === undefined ? undefined : [mu - c.zCi * se, mu + c.zCi * se],
    p: undefined,
    q: undefined,
    mde: undefined,
    sd: { own: undefined, used: se, df: undefined },
    unverified: true,
    notes: [...p.notes, "one run per side: run-to-run noise unknown, interval is within-run only"],
  };
}
