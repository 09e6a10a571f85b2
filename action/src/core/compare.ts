// compare(): summaries of both sides → report.json. Pure: no I/O; the caller validates inputs
// and writes outputs. A regression is a verdict in the report, never an exception.
import type { BenchReport, Entry, SideStats } from "../schemas/report.gen.ts";
import type { CompareSettings } from "./settings.ts";
import { analyseSuite, type Decision } from "./decision.ts";
import { checkEnvironments } from "./environment.ts";
import { pairSummaries, type Observation, type SourcedSummary } from "./pairing.ts";
import { median } from "./statistics.ts";

export const METHOD = {
  rounds:
    "paired rounds; log ratio of per-round medians; run-order effect removed when estimable; " +
    "empirical-Bayes variance, never below own; one-sided t-test against the noise floor; Benjamini-Hochberg",
  "single-run":
    "one run per side (unverified); log ratio of medians; within-run order-statistic interval; " +
    "fails only above the unverified threshold",
} as const;

export interface CompareOptions {
  readonly settings: CompareSettings;
  readonly generator?: { name: string; version: string };
  /** ISO timestamp to stamp the report with (the caller owns the clock). */
  readonly now?: string;
}

function sideStats(observations: ReadonlyMap<number, Observation>): SideStats | null {
  if (observations.size === 0) return null;
  const rounds = [...observations.keys()].sort((a, b) => a - b);
  const perRound = rounds.map((r) => (observations.get(r) as Observation).value);
  return {
    value: median(perRound),
    per_round: perRound,
    samples: rounds.map((r) => (observations.get(r) as Observation).samples.length),
  };
}

/** Slowdown on the log scale → relative change of the metric itself (head/base − 1). */
function toChange(slowdown: number, direction: Entry["direction"]): number {
  return Math.expm1(direction === "smaller_is_better" ? slowdown : -slowdown);
}

function finiteOrNull(x: number | undefined): number | null {
  return x === undefined || !Number.isFinite(x) ? null : x;
}

function toEntry(d: Decision): Entry {
  const s = d.series;
  const ci =
    d.interval === undefined
      ? null
      : ([toChange(d.interval[0], s.direction), toChange(d.interval[1], s.direction)].sort(
          (a, b) => a - b,
        ) as [number, number]);
  const notes = [...d.notes];
  if (s.statistic !== "sample median") notes.push(`compared on the reported ${s.statistic}`);
  return {
    id: s.id,
    suite: s.suite,
    source: s.source,
    unit: s.unit,
    direction: s.direction,
    verdict: d.verdict,
    base: sideStats(s.base),
    head: sideStats(s.head),
    change: d.estimate === undefined ? null : toChange(d.estimate, s.direction),
    ci,
    p: finiteOrNull(d.p),
    q: finiteOrNull(d.q),
    rounds: d.rounds,
    mde: d.mde === undefined ? null : finiteOrNull(Math.expm1(d.mde)),
    sd: { own: finiteOrNull(d.sd.own), used: finiteOrNull(d.sd.used), df: finiteOrNull(d.sd.df) },
    unverified: d.unverified,
    notes: notes.slice(0, 32),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

/** Compares base and head summaries (paired by round) and returns the report. */
export function compare(
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
  options: CompareOptions,
): BenchReport {
  const { settings } = options;
  const paired = pairSummaries(base, head);
  const analysis = analyseSuite(paired.series, paired.order, settings);
  const entries = analysis.decisions.map(toEntry);
  const env = checkEnvironments(paired.environment.base, paired.environment.head);

  const counts = {
    total: entries.length,
    regressed: 0,
    improved: 0,
    unchanged: 0,
    inconclusive: 0,
    new: 0,
    missing: 0,
  };
  for (const e of entries) counts[e.verdict]++;

  const reasons: string[] = [];
  if (counts.regressed > 0)
    reasons.push(
      `${plural(counts.regressed, "benchmark")} regressed by at least ${percent(settings.failThreshold)}`,
    );
  if (counts.inconclusive > 0) {
    reasons.push(
      `${plural(counts.inconclusive, "benchmark")} inconclusive: a regression above ${percent(settings.failThreshold)} can be neither confirmed nor ruled out`,
    );
  }
  if (analysis.mode === "single-run") {
    reasons.push(
      `one run per side: results are unverified and only changes of ${percent(settings.unverifiedThreshold)} or more can fail`,
    );
  }
  if (env.mismatch)
    reasons.push(
      `base and head ran on different environments (${plural(env.differences.length, "difference")})`,
    );
  if (entries.length === 0) reasons.push("no benchmarks on either side");

  let verdict: BenchReport["verdict"] = "pass";
  if (counts.regressed > 0 || (settings.failOnInconclusive && counts.inconclusive > 0))
    verdict = "fail";
  else if (counts.inconclusive > 0) verdict = "inconclusive";

  const sds = entries.map((e) => e.sd?.own).filter((x): x is number => typeof x === "number");
  const mdes = entries.map((e) => e.mde).filter((x): x is number => x !== null);
  const roundNumbers = [...paired.order.keys()].sort((a, b) => a - b);
  const report: BenchReport = {
    schema_version: 1,
    ...(options.now === undefined ? {} : { generated_at: options.now }),
    ...(options.generator === undefined ? {} : { generator: options.generator }),
    verdict,
    reasons,
    mode: analysis.mode,
    settings: {
      method: METHOD[analysis.mode],
      statistic: "median",
      q: settings.q,
      noise_floor: settings.noiseFloor,
      fail_threshold: settings.failThreshold,
      unverified_threshold: settings.unverifiedThreshold,
      confidence: settings.confidence,
      rounds: roundNumbers.length,
      crossover: analysis.periodEffect !== undefined,
      fail_on_inconclusive: settings.failOnInconclusive,
    },
    environment: {
      ...(paired.environment.base === undefined ? {} : { base: paired.environment.base }),
      ...(paired.environment.head === undefined ? {} : { head: paired.environment.head }),
      mismatch: env.mismatch,
      differences: env.differences,
      warnings: env.warnings,
    },
    noise: {
      median_sd: sds.length > 0 ? median(sds) : null,
      prior_sd: analysis.prior === undefined ? null : Math.sqrt(analysis.prior.variance),
      prior_df:
        analysis.prior === undefined || !Number.isFinite(analysis.prior.df)
          ? null
          : analysis.prior.df,
      median_mde: mdes.length > 0 ? median(mdes) : null,
      period_effect: analysis.periodEffect ?? null,
    },
    rounds: roundNumbers.map((round) => ({ round, first: paired.order.get(round) ?? "unknown" })),
    counts,
    benchmarks: entries,
    budgets: [],
    golden: [],
    smells: [],
  };
  return report;
}
