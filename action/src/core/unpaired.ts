// `--unpaired`: the user has runs of base and head that were not measured in paired rounds
// (other days, other numbering). Each side's runs are then independent samples: the change is
// the difference of the mean log values, its variance the pooled within-side variance times
// (1/n_base + 1/n_head), moderated across the suite like paired rounds (never below a
// benchmark's own) with honest degrees of freedom. No round model: without pairing there is no
// round to take a shock out of, so shocks stay in the variance.
import type { CompareSettings } from "./settings.ts";
import type { BenchmarkSeries } from "./pairing.ts";
import { fitVariancePrior } from "./moderation.ts";
import {
  groupKey,
  upperTail,
  usedVariance,
  type BenchmarkLook,
  type Look,
} from "./look-analysis.ts";
import { mean } from "./statistics.ts";

interface Sample {
  readonly series: BenchmarkSeries;
  readonly base: { rounds: number[]; logs: number[] };
  readonly head: { rounds: number[]; logs: number[] };
  readonly notes: string[];
}

function logs(
  observations: BenchmarkSeries["base"],
  notes: string[],
  side: string,
): { rounds: number[]; logs: number[] } {
  const rounds: number[] = [];
  const values: number[] = [];
  for (const r of [...observations.keys()].sort((a, b) => a - b)) {
    const v = observations.get(r)?.value ?? 0;
    if (!(v > 0)) {
      notes.push(`${side} round ${r} skipped: a value of zero has no logarithm`);
      continue;
    }
    rounds.push(r);
    values.push(Math.log(v));
  }
  return { rounds, logs: values };
}

function sumOfSquares(xs: readonly number[]): number {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) * (x - m), 0);
}

export function analyseUnpaired(
  series: readonly BenchmarkSeries[],
  settings: CompareSettings,
): Look {
  const L = Math.log1p(settings.noiseFloor);
  const groups = new Map<string, Sample[]>();
  for (const s of series) {
    if (s.base.size === 0 || s.head.size === 0) continue;
    const notes: string[] = ["unpaired: base and head runs compared as independent samples"];
    const sample = {
      series: s,
      base: logs(s.base, notes, "base"),
      head: logs(s.head, notes, "head"),
      notes,
    };
    const key = groupKey(s);
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  const benchmarks = new Map<string, BenchmarkLook>();
  for (const group of groups.values()) {
    const rows = group.map((g) => {
      const nb = g.base.logs.length;
      const nh = g.head.logs.length;
      const df = nb + nh - 2;
      const sign = g.series.direction === "smaller_is_better" ? 1 : -1;
      const estimate = nb > 0 && nh > 0 ? sign * (mean(g.head.logs) - mean(g.base.logs)) : NaN;
      const own = df > 0 ? (sumOfSquares(g.base.logs) + sumOfSquares(g.head.logs)) / df : undefined;
      return { g, nb, nh, df, estimate, own };
    });
    const withVariance = rows.filter((r) => r.own !== undefined);
    const prior = fitVariancePrior(
      withVariance.map((r) => r.own as number),
      withVariance.map((r) => r.df),
    );
    const totalDf = withVariance.reduce((s, r) => s + r.df, 0);
    for (const r of rows) {
      if (r.nb === 0 || r.nh === 0) {
        benchmarks.set(r.g.series.id, { kind: "no-pair", series: r.g.series, notes: r.g.notes });
        continue;
      }
      const v = usedVariance(r.own, r.df, prior, totalDf);
      if (v === undefined) {
        benchmarks.set(r.g.series.id, {
          kind: "single-run",
          series: r.g.series,
          rounds: { base: r.g.base.rounds[0] as number, head: r.g.head.rounds[0] as number },
          estimate: r.estimate,
          notes: r.g.notes,
        });
        continue;
      }
      const se = Math.sqrt(v.used * (1 / r.nb + 1 / r.nh));
      benchmarks.set(r.g.series.id, {
        kind: "tested",
        series: r.g.series,
        rounds: Math.min(r.nb, r.nh),
        lastRound: Math.max(...r.g.base.rounds, ...r.g.head.rounds),
        estimate: r.estimate,
        se,
        df: v.df,
        pUp: upperTail(r.estimate, L, se, v.df),
        pDown: upperTail(-r.estimate, L, se, v.df),
        sd: {
          own: r.own === undefined ? undefined : Math.sqrt(r.own),
          used: Math.sqrt(v.used),
          df: v.df,
        },
        notes: r.g.notes,
      });
    }
  }
  return { benchmarks, suites: [] };
}
