// Which benchmark processes ran while the machine was busy (docs/statistics.md, "Contention").
// On a shared 2-core runner a process that has to share its core with another runnable process
// gets about half the CPU for that time, and its benchmark lands up to 2× slow. benchgate run
// records each process's wall time and, where a cgroup can tell, the CPU time its processes used;
// the CPU share cpu/wall then says how much of the time the process really ran.
//
// The share is compared with what the suite's processes usually get — the 90th percentile of
// the suite's shares in this run, the processes that ran undisturbed — not with 1: a benchmark
// that waits on I/O or a lock, or one that uses several threads, has its own usual share. A run is
// contended when its share is below 1/√2 of that: the geometric midpoint between a whole CPU and
// half of one, i.e. closer (on the log scale, as the decision measures changes) to a process that
// shared its core than to one that did not. A whole run under steady contention shows in the
// median share, which the report gives beside the count.
//
// Nothing is re-weighted by the share: a whole process's accounting includes start-up, warm-up
// and analysis, not just the measured iterations, so it does not say how much of the measurement
// was slowed. The count is reported, and the median of many rounds (median-of-rounds.ts) is what
// keeps such rounds from deciding. Pure.
import type { SourcedSummary } from "./pairing.ts";
import { median, quantileSorted, sortedCopy } from "./statistics.ts";

/** A run is contended below this share of its suite's undisturbed CPU share. */
export const CONTENDED_SHARE = Math.SQRT1_2;

export interface Contention {
  /** Benchmark runs whose process recorded its CPU time. */
  readonly processes: number;
  readonly contended: number;
  readonly threshold: number;
  /** The median CPU share over those runs; undefined when there are none. */
  readonly medianShare: number | undefined;
}

/** Counts the contended benchmark runs of a run's summaries (both sides); undefined: none told. */
export function contentionOf(files: readonly SourcedSummary[]): Contention | undefined {
  const bySuite = new Map<string, number[]>();
  for (const f of files)
    for (const b of f.summary.benchmarks) {
      const p = b.process;
      if (p?.cpu_ms === undefined || !(p.wall_ms > 0)) continue;
      const shares = bySuite.get(b.suite) ?? [];
      shares.push(p.cpu_ms / p.wall_ms);
      bySuite.set(b.suite, shares);
    }
  if (bySuite.size === 0) return undefined;
  let processes = 0;
  let contended = 0;
  const all: number[] = [];
  for (const shares of bySuite.values()) {
    const usual = quantileSorted(sortedCopy(shares), 0.9);
    processes += shares.length;
    contended += shares.filter((s) => s < CONTENDED_SHARE * usual).length;
    all.push(...shares);
  }
  return { processes, contended, threshold: CONTENDED_SHARE, medianShare: median(all) };
}
