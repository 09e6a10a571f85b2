// One side's time for a Criterion suite in one round, guessed before it runs from its listed
// benchmarks and its time flags (SuiteKind.estimateSideMs). Pure.
import type { ProcessTime } from "../suite-kind.ts";
import { PROCESS_MS } from "../round-estimate.ts";
import { effectiveTime } from "./process-time.ts";

/** Criterion's own defaults, when a whole-suite process's args set no time. */
const CRITERION_DEFAULT = { warmUpMs: 3000, measurementMs: 5000 };

/** `--flag 0.5` or `--flag=0.5` in seconds, in ms; undefined when absent or not a number. */
function secondsFlag(args: readonly string[], flag: string): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const raw =
      a === flag ? args[i + 1] : a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : undefined;
    if (raw === undefined) continue;
    const seconds = Number(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  }
  return undefined;
}

/**
 * `count` benchmarks with the suite's `args`: under pairs one short process (`time`) per
 * benchmark, else one process for the whole suite with Criterion's own times.
 */
export function criterionSideMs(
  args: readonly string[],
  time: ProcessTime,
  count: number,
  pairs: boolean,
  wholeSeconds: boolean,
): number {
  const short = effectiveTime(time, wholeSeconds);
  const base = pairs ? short : CRITERION_DEFAULT;
  const warm = secondsFlag(args, "--warm-up-time") ?? base.warmUpMs;
  const measure = secondsFlag(args, "--measurement-time") ?? base.measurementMs;
  return count * (warm + measure) + (pairs ? count : 1) * PROCESS_MS;
}
