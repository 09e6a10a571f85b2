// One group (a suite, and a kind of unit within it) of one run per side, tested against a noise
// its comparison cannot show by itself: learnt from the default branch's history
// (history-noise.ts) or from the two base runs of base, head, base (base-head-base.ts). Either
// source gives each benchmark its own variance with its degrees of freedom; the rest is one
// analysis: the variances are moderated across the suite (moderation.ts), scaled up when this
// job's differences spread wider than they allow (spread-inflation.ts), and each benchmark gets a
// one-sided t-test against the noise floor. What differs between the sources is OneRunNoise:
// the scale of their variances, how a variance is weighed against the suite's, a shock the suite
// shares (base-head-base measures one) and a second test each benchmark must also pass (the
// history's heavy tails). Pure.
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries } from "./pairing.ts";
import { upperTail, type BenchmarkLook, type SuiteLook } from "./look-analysis.ts";
import { fitVariancePrior, type VariancePrior } from "./moderation.ts";
import { biweightLocation } from "./robust.ts";
import { welchDf } from "./round-model.ts";
import { inflationOf } from "./spread-inflation.ts";

/** A benchmark's own variance from the noise source, on the scale the suite is moderated on. */
interface OwnVariance {
  readonly variance: number;
  readonly df: number;
}

/** One benchmark's single comparison and the noise its source gives it. */
export interface OneRunRow {
  readonly series: BenchmarkSeries;
  readonly lastRound: number;
  /** Slowdown of head on the log scale (positive = worse). */
  readonly d: number;
  /** Undefined when the source has none for it: it stays a single run (the unverified rule). */
  readonly own: OwnVariance | undefined;
  /** Where its noise comes from, or why it has none: the benchmark's first note. */
  readonly note: string;
}

/** A second test every benchmark must also pass, for one benchmark at the job's inflation. */
interface SecondTest {
  /** One-sided p-value of a slowdown `x` beyond the noise floor. */
  readonly upper: (x: number) => number;
  /** The smallest slowdown (log scale) it can detect (TestedLook.mdeFloor). */
  readonly mdeFloor: number;
}

/** What one noise source is, for the shared analysis of a group of rows R. */
interface OneRunNoise<R extends OneRunRow> {
  /**
   * Per unit of own variance: the variance of d, and of one base–head log ratio (two runs, the
   * scale of the report's sd and prior).
   */
  readonly scale: { readonly d: number; readonly sd: number };
  /** A benchmark's own variance weighed against the suite's prior, with the df it then has. */
  readonly moderate: (
    own: number,
    df: number,
    prior: VariancePrior | undefined,
    totalDf: number,
  ) => { used: number; df: number };
  /**
   * Base-head-base: every run has a shock its suite's benchmarks share, and its variance is part
   * of each benchmark's interval, with one df. `delta` is the shock's difference between the two
   * base runs, when the suite is large enough to tell it from its benchmarks' own noise (each
   * benchmark is then tested against the suite's centre, and the suite's common move is one more
   * hypothesis); undefined when it is not (the shock's variance is then 0). Undefined for the
   * history, whose records' shocks are inside each benchmark's own variance.
   */
  readonly shock: { readonly delta: number | undefined } | undefined;
  readonly secondTest: ((row: R, inflation: number) => SecondTest) | undefined;
  /**
   * Whether the report's sd.used is the variance the test used, scaled up by the inflation (the
   * history), or the moderated one before it (base-head-base).
   */
  readonly sdInflated: boolean;
  /** The note of a benchmark whose variance was scaled up, `factor` (the SD's) as text. */
  readonly wider: (factor: string) => string;
}

/** The shift of a suite whose runs share a shock: its centre against the shock's variance. */
function suiteShift(
  centre: number,
  shared: number,
  ownParts: readonly number[],
  totalDf: number,
  L: number,
): NonNullable<SuiteLook["shift"]> {
  const m = ownParts.length;
  const meanOwn = ownParts.reduce((sum, x) => sum + x, 0) / m;
  const shiftParts = [
    [shared, 1],
    [meanOwn / m, totalDf],
  ] as const;
  const shiftVariance = shared + meanOwn / m;
  const shiftDf = welchDf(shiftParts);
  const shiftSe = Math.sqrt(shiftVariance);
  return {
    estimate: centre,
    se: shiftSe,
    df: shiftDf,
    pUp: upperTail(centre, L, shiftSe, shiftDf),
    pDown: upperTail(-centre, L, shiftSe, shiftDf),
    benchmarks: m,
  };
}

/**
 * Every benchmark of one group tested against its source's noise (set in `out`): the suite's
 * look, and the factor its variances were scaled by (1 = the noise fitted this job).
 */
export function analyseOneRunGroup<R extends OneRunRow>(
  rows: readonly R[],
  noise: OneRunNoise<R>,
  settings: CompareSettings,
  out: Map<string, BenchmarkLook>,
): { suite: SuiteLook; inflation: number } {
  const L = Math.log1p(settings.noiseFloor);
  const delta = noise.shock?.delta;
  const known = rows.filter((r) => r.own !== undefined);
  const own = known.map((r) => (r.own as OwnVariance).variance);
  const ownDf = known.map((r) => (r.own as OwnVariance).df);
  const prior = fitVariancePrior(own, ownDf);
  // Centring on a shared shock spent one of the suite's degrees of freedom.
  const totalDf = ownDf.reduce((s, x) => s + x, 0) - (delta === undefined ? 0 : 1);
  const shared = delta === undefined ? 0 : (noise.scale.d * delta * delta) / 2;
  const parts = known.map((row, i) => {
    const used = noise.moderate(own[i] as number, ownDf[i] as number, prior, totalDf);
    return {
      row,
      own: own[i] as number,
      used: used.used,
      d: row.d,
      v: noise.scale.d * used.used,
      df: used.df,
    };
  });
  // Centred differences: a shared shock of head's run cancels, so only the own parts are compared.
  const inflation = inflationOf(parts, settings.minBenchmarksForPeriod);
  // A shock of head's run is shared by every benchmark: how far one benchmark moved against the
  // suite's centre is free of it, and that is what its test asks. Its estimate (and interval)
  // stays the whole change, and the suite's common move is one more hypothesis (suiteShift).
  const centre = delta === undefined ? 0 : biweightLocation(rows.map((r) => r.d));
  for (const part of parts) {
    const { row } = part;
    const ownPart = part.v * inflation;
    const se = Math.sqrt(ownPart + shared);
    const df =
      noise.shock === undefined
        ? part.df
        : welchDf([
            [ownPart, part.df],
            [shared, 1],
          ]);
    const relative = row.d - centre;
    const t = (x: number): number => upperTail(x, L, Math.sqrt(ownPart), part.df);
    // Both tests must agree: the t-test carries the moderated variance with its df, the second
    // test what it knows of the noise's shape; each is scaled for this job.
    const second = noise.secondTest?.(row, inflation);
    const notes = [row.note];
    if (inflation > 1) notes.push(noise.wider(Math.sqrt(inflation).toFixed(2)));
    out.set(row.series.id, {
      kind: "tested",
      series: row.series,
      rounds: 1,
      lastRound: row.lastRound,
      estimate: row.d,
      se,
      df,
      pUp: second === undefined ? t(relative) : Math.max(t(relative), second.upper(relative - L)),
      pDown:
        second === undefined ? t(-relative) : Math.max(t(-relative), second.upper(-relative - L)),
      sd: {
        own: Math.sqrt(noise.scale.sd * part.own),
        used: Math.sqrt(noise.scale.sd * part.used * (noise.sdInflated ? inflation : 1)),
        df: part.df,
      },
      ...(second === undefined ? {} : { mdeFloor: second.mdeFloor }),
      notes,
    });
  }
  for (const r of rows) {
    if (r.own !== undefined) continue;
    out.set(r.series.id, {
      kind: "single-run",
      series: r.series,
      rounds: { base: r.lastRound, head: r.lastRound },
      estimate: r.d,
      notes: [r.note],
    });
  }
  const first = (rows[0] as R).series;
  return {
    inflation,
    suite: {
      suite: first.suite,
      unit: first.unit,
      benchmarks: rows.length,
      model: delta === undefined ? "per-benchmark" : "two-way",
      estimatedRounds: delta === undefined ? 0 : 2,
      orderEffect: undefined,
      shockSd: delta === undefined ? undefined : Math.abs(delta) / Math.SQRT2,
      shockDf: delta === undefined ? undefined : 1,
      prior:
        prior === undefined
          ? undefined
          : { variance: noise.scale.sd * prior.variance, df: prior.df },
      shift:
        delta === undefined
          ? undefined
          : suiteShift(
              centre,
              shared,
              parts.map((p) => p.v * inflation),
              totalDf,
              L,
            ),
    },
  };
}
