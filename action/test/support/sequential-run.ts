// What a `rounds: auto` run measures, replayed on recorded or synthetic rounds: rounds 1…min
// measure every benchmark, then after each look only the open ones, until none is open or max.
// The files must already declare the design (their `sequential` block).
import type { SourcedSummary } from "../../src/core/pairing.ts";
import {
  planNextRound,
  type SequentialDesign,
  type StopReason,
} from "../../src/core/sequential.ts";
import type { CompareSettings } from "../../src/core/settings.ts";

export interface SequentialRun {
  readonly base: SourcedSummary[];
  readonly head: SourcedSummary[];
  /** Each look's progress line, as the runner prints it. */
  readonly lines: string[];
  /** The stops of the last look. */
  readonly settled: ReadonlyMap<string, StopReason>;
}

export function simulateSequential(
  all: { readonly base: readonly SourcedSummary[]; readonly head: readonly SourcedSummary[] },
  design: SequentialDesign,
  settings: CompareSettings,
): SequentialRun {
  const run = { base: [] as SourcedSummary[], head: [] as SourcedSummary[] };
  const lines: string[] = [];
  let active: ReadonlySet<string> | undefined;
  let settled: ReadonlyMap<string, StopReason> = new Map();
  for (let r = 0; r < design.maxRounds; r++) {
    for (const side of ["base", "head"] as const) {
      const f = all[side][r] as SourcedSummary;
      const keep = active;
      run[side].push(
        keep === undefined
          ? f
          : {
              ...f,
              summary: {
                ...f.summary,
                benchmarks: f.summary.benchmarks.filter((b) => keep.has(b.id)),
              },
            },
      );
    }
    if (r + 1 >= design.minRounds) {
      const next = planNextRound(run.base, run.head, settings, design);
      lines.push(next.line);
      active = next.active;
      settled = next.settled;
      if (active.size === 0) break;
    }
  }
  return { ...run, lines, settled };
}
