// Base, head, base in one job (`--aba`, docs/statistics.md §14): the other way a project that
// affords one run per side can learn the noise. The two base runs are the same code, so their
// difference is pure run-to-run noise; head is compared with their mean:
//
//   d = ln h − (ln b₁ + ln b₂)/2,   x = ln b₁ − ln b₂
//
// With per-run noise σ² (own to the benchmark) and a shock τ² per run (shared by the suite),
// Var d = 1.5σ² + 1.5τ² and E x² = 2σ² + 2τ². Across a suite of enough benchmarks the shock
// difference of the base runs is the robust centre Δ of the x's, so each benchmark's own σ² is
// (x − Δ)²/2 with one degree of freedom (moderated across the suite: oneDfVariance). The head
// run's shock is shared by the suite: a benchmark is tested on how far it moved against the
// suite's robust centre (free of that shock), while its estimate and interval stay the whole
// change, with the shock's variance judged by the one thing that shows a shock, 1.5·Δ²/2, with
// one degree of freedom of its own (Welch–Satterthwaite). The suite's common move is one more
// hypothesis with that variance, so base runs that disagree as a whole make it a wide interval,
// not a false alarm. In a small suite the shock cannot be told from the benchmarks' own noise:
// each keeps x²/2 and is tested as it is. The first process of a job tends to run slower
// (docs/statistics.md §3): b₁ then reads high, which biases d towards "faster", never towards a
// false regression. Past each benchmark's own variance, the analysis is the one the history's
// noise has too (one-run-group.ts).
import { InputError } from "../errors.ts";
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries } from "./pairing.ts";
import { groupRows, type BenchmarkLook, type Look, type SuiteLook } from "./look-analysis.ts";
import { moderatedVariance, type VariancePrior } from "./moderation.ts";
import { analyseOneRunGroup } from "./one-run-group.ts";
import { biweightLocation } from "./robust.ts";

interface Row {
  readonly series: BenchmarkSeries;
  readonly lastRound: number;
  /** Slowdown of head against the mean of the two base runs (log scale, positive = worse). */
  readonly d: number;
  /** ln b₁ − ln b₂ (on the slowdown scale). */
  readonly x: number;
}

/** A benchmark's three runs, or why they cannot be used. */
function rowOf(series: BenchmarkSeries): Row | string {
  const baseRounds = [...series.base.keys()].sort((a, b) => a - b);
  const [first, second] = baseRounds;
  const [headRound] = [...series.head.keys()];
  if (baseRounds.length !== 2 || series.head.size !== 1) {
    throw new InputError(
      `--aba needs two base runs and one head run of every benchmark; ${JSON.stringify(series.id)} has ${baseRounds.length} base and ${series.head.size} head run(s)`,
    );
  }
  const b1 = series.base.get(first as number)?.value ?? 0;
  const b2 = series.base.get(second as number)?.value ?? 0;
  const h = series.head.get(headRound as number)?.value ?? 0;
  if (!(b1 > 0) || !(b2 > 0) || !(h > 0)) return "a value of zero has no ratio";
  const sign = series.direction === "smaller_is_better" ? 1 : -1;
  const lb1 = Math.log(b1);
  const lb2 = Math.log(b2);
  return {
    series,
    lastRound: Math.max(first as number, second as number, headRound as number),
    d: sign * (Math.log(h) - (lb1 + lb2) / 2),
    x: sign * (lb1 - lb2),
  };
}

/**
 * The variance a benchmark's test uses. With one degree of freedom its own variance says little:
 * a χ²₁ draw exceeds its mean a third of the time and four times its mean one time in twenty. So
 * rather than standing on it when it is above the suite's (as paired rounds do with their k − 1),
 * it is weighed against the suite by the posterior (d₀s₀² + s²)/(d₀ + 1); and, as for rounds, never
 * below the suite's typical s₀², because two runs that agree are no proof of a quiet benchmark.
 */
function oneDfVariance(
  own: number,
  prior: VariancePrior | undefined,
  totalDf: number,
): { used: number; df: number } {
  if (prior === undefined) return { used: own, df: 1 };
  const used = Math.max(prior.variance, moderatedVariance(prior, own, 1));
  return { used, df: Math.min(prior.df + 1, totalDf) };
}

function analyseGroup(
  rows: readonly Row[],
  settings: CompareSettings,
  out: Map<string, BenchmarkLook>,
): SuiteLook {
  const separable = rows.length >= Math.max(2, settings.minBenchmarksForPeriod);
  const delta = separable ? biweightLocation(rows.map((r) => r.x)) : 0;
  // σ² per run: half the squared difference of the base runs, the shared shock taken out.
  const withNoise = rows.map((r) => ({
    ...r,
    own: { variance: ((r.x - delta) * (r.x - delta)) / 2, df: 1 },
    note: "base, head, base: noise from the two base runs of this job",
  }));
  return analyseOneRunGroup(
    withNoise,
    {
      // Var d = 1.5σ² (head's run and the mean of two base runs); a base–head log ratio's is 2σ².
      scale: { d: 1.5, sd: 2 },
      moderate: (own, _df, prior, totalDf) => oneDfVariance(own, prior, totalDf),
      shock: { delta: separable ? delta : undefined },
      secondTest: undefined,
      sdInflated: false,
      // The head run is the one run nothing else shows: if it landed far off for many
      // benchmarks (a busy moment of the machine), its differences spread wider than the base
      // runs' noise.
      wider: (factor) =>
        `the head run's differences spread ×${factor} wider than the base runs': variance scaled up`,
    },
    settings,
    out,
  ).suite;
}

/** Every benchmark measured base, head, base, tested against its job's own base-to-base noise. */
export function analyseBaseHeadBase(
  series: readonly BenchmarkSeries[],
  settings: CompareSettings,
): Look {
  const benchmarks = new Map<string, BenchmarkLook>();
  const groups = groupRows(series, rowOf, benchmarks);
  const suites = [...groups.values()].map((rows) => analyseGroup(rows, settings, benchmarks));
  return { benchmarks, suites };
}
