// Runs of unchanged code as a default branch's history.json: each run one single-run record, as
// `history append` stores a one-round push (docs/history.md). The one-run-per-side tests and
// benchmarks (docs/statistics.md §14) make their histories here, so every one of them reads the
// same shape of record the estimator reads in a real history.
import { median } from "../../src/core/statistics.ts";
import type { BenchHistory, Result } from "../../src/schemas/history.gen.ts";
import type { BenchSummary } from "../../src/schemas/summary.gen.ts";
import { validateHistory } from "../../src/schemas/validate-document.ts";

export interface SingleRunHistoryOptions {
  /** Every record's runner fingerprint; else each run's own, if it recorded one. */
  readonly fingerprint?: string;
  /** Rounds each record claims (default 1: one run per record). */
  readonly rounds?: number;
  /** The i-th record's commit, i from 1 (default: i in hex, 40 digits). */
  readonly sha?: (i: number) => string;
}

/** Record i of the default hex numbering: 0…01, 0…02, … */
export function recordSha(i: number): string {
  return i.toString(16).padStart(40, "0");
}

/**
 * `runs` (oldest first) as a validated history: the series are the first run's benchmarks, and a
 * record holds the median of each benchmark's samples (the statistic compare reads of one run).
 */
export function singleRunHistory(
  runs: readonly BenchSummary[],
  options: SingleRunHistoryOptions = {},
): BenchHistory {
  const series = (runs[0]?.benchmarks ?? []).map((b) => ({
    suite: b.suite,
    id: b.id,
    unit: b.unit,
    direction: b.direction,
    origin: "benchgate" as const,
  }));
  const index = new Map(series.map((s, i) => [JSON.stringify([s.suite, s.id]), i]));
  const sha = options.sha ?? recordSha;
  return validateHistory(
    {
      schema_version: 1,
      series,
      commits: runs.map((run, i) => {
        const fingerprint = options.fingerprint ?? run.environment?.fingerprint;
        return {
          sha: sha(i + 1),
          date: run.started_at ?? "2026-01-01T00:00:00Z",
          message: `default-branch commit ${i + 1}`,
          author: "benchgate tests",
          recorded_at: run.finished_at ?? run.started_at ?? "2026-01-01T00:00:00Z",
          rounds: options.rounds ?? 1,
          ...(fingerprint === undefined ? {} : { fingerprint }),
          results: run.benchmarks.flatMap((b): Result[] => {
            const at = index.get(JSON.stringify([b.suite, b.id]));
            const samples = b.samples ?? [];
            return at === undefined || samples.length === 0
              ? []
              : [[at, median(samples), null, null, null]];
          }),
        };
      }),
    },
    "the test's history",
  );
}
