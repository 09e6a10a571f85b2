// Builds BenchReport objects for tests of the renderers and anything else that needs a report.

import type { BenchReport, Entry } from "../../src/schemas/report.gen.ts";

type EntryInput = Partial<Entry> & Pick<Entry, "id">;

/** An entry with plausible numbers derived from `change` (time in ns unless `unit` says otherwise). */
export function makeEntry(input: EntryInput): Entry {
  const change = input.change === undefined ? 0 : input.change;
  const baseValue = 1234.5;
  const headValue = change === null ? baseValue : baseValue * (1 + change);
  const entry: Entry = {
    suite: input.id.split("/")[0] ?? input.id,
    source: "criterion",
    unit: "ns",
    direction: "smaller_is_better",
    verdict: "unchanged",
    base: { value: baseValue, per_round: [baseValue, baseValue, baseValue, baseValue, baseValue] },
    head: { value: headValue, per_round: [headValue, headValue, headValue, headValue, headValue] },
    change,
    ci: change === null ? null : [change - 0.01, change + 0.01],
    p: 0.5,
    q: 0.5,
    rounds: 5,
    mde: 0.021,
    unverified: false,
    notes: [],
    ...input,
  };
  return entry;
}

/** A passing 5-round report; `counts` are computed from `benchmarks` unless given. */
export function makeReport(input: Partial<BenchReport> = {}): BenchReport {
  const benchmarks = input.benchmarks ?? [
    makeEntry({ id: "fib/10", change: 0.002 }),
    makeEntry({ id: "fib/20", change: -0.004 }),
  ];
  const report: BenchReport = {
    schema_version: 1,
    generated_at: "2025-01-02T03:04:05Z",
    generator: { name: "benchgate", version: "0.1.0" },
    verdict: "pass",
    reasons: [],
    mode: "rounds",
    settings: {
      method: "paired-log-ratio",
      statistic: "median",
      q: 0.05,
      noise_floor: 0.01,
      fail_threshold: 0.03,
      unverified_threshold: 0.25,
      confidence: 0.95,
      rounds: 5,
      crossover: true,
    },
    environment: { mismatch: false, differences: [], warnings: [] },
    noise: {
      median_sd: 0.0123,
      prior_sd: 0.011,
      prior_df: 12,
      median_mde: 0.0215,
      period_effect: 0.018,
    },
    rounds: [1, 2, 3, 4, 5].map((round) => ({
      round,
      first: round % 2 === 1 ? ("base" as const) : ("head" as const),
    })),
    counts: countVerdicts(benchmarks),
    benchmarks,
    budgets: [],
    golden: [],
    smells: [],
    ...input,
  };
  return report;
}

export function countVerdicts(benchmarks: readonly Entry[]): BenchReport["counts"] {
  const counts = {
    total: benchmarks.length,
    regressed: 0,
    improved: 0,
    unchanged: 0,
    inconclusive: 0,
    new: 0,
    missing: 0,
  };
  for (const e of benchmarks) counts[e.verdict]++;
  return counts;
}
