// `schedule: pairs` asks each Criterion process for a short warm-up and measurement. A benchmark
// group that sets warm_up_time or measurement_time in its code overrides the command line
// (Criterion ≥ 0.4 lets a group's own settings win), and its processes take seconds instead:
// the time budget then plans with what they really took, and the run says once which benchmarks
// those are. A benchmark whose one iteration is slow takes long whatever the flags say (Criterion
// needs its samples); that is expected, not flagged. Pure.
import type { ProcessTime } from "../config/suites/suite-kind.ts";

/** A unit's benchmarks and its faster process (contention only ever adds time). */
export interface UnitTime {
  readonly ids: readonly string[];
  readonly ms: number;
}

/**
 * Startup, analysis (Criterion's bootstrap) and the odd burst: a short process took 0.7–0.9 s
 * for 0.2 s + 0.5 s on a 2-core VM (docs/run.md).
 */
const SLACK_MS = 1000;

/**
 * The longest one benchmark should keep a process at these times: the warm-up, then the
 * measurement or, when one iteration is slow, the least Criterion measures (linear sampling:
 * 1, 2, …, n iterations, n(n+1)/2 in all).
 */
export function expectedProcessMs(nsPerIteration: number, time: ProcessTime): number {
  const n = time.samples;
  const leastMs = ((n * (n + 1)) / 2) * (nsPerIteration / 1e6);
  return time.warmUpMs + Math.max(time.measurementMs, leastMs);
}

/**
 * The ids of units whose process took more than twice what their benchmarks should, plus slack:
 * their code sets its own times. `nsPerIteration` is each benchmark's median.
 */
export function overlongIds(
  units: readonly UnitTime[],
  nsPerIteration: ReadonlyMap<string, number>,
  time: ProcessTime,
): string[] {
  const flagged: string[] = [];
  for (const unit of units) {
    const expected = unit.ids.reduce(
      (sum, id) => sum + expectedProcessMs(nsPerIteration.get(id) ?? 0, time),
      0,
    );
    if (unit.ms > 2 * expected + SLACK_MS) flagged.push(...unit.ids);
  }
  return flagged;
}
