// How long one Criterion process measures under `schedule: pairs`: short processes, many of them
// (docs/run.md, "Schedules"). benchgate passes Criterion's own time flags unless the suite's
// `args` already set them; the user's value then wins. Pure.
import type { CriterionSuite } from "../../../schemas/config.gen.ts";
import { parseDuration } from "../../config-checks.ts";
import type { ConfigAt, ProcessTime } from "../suite-kind.ts";
import { setsFlag } from "../harness-flags.ts";

/**
 * 0.2 s + 0.5 s with 10 samples: on a 2-core VM a process pair measured this way took about
 * 0.8 s each, and many such pairs beat one long process per side under contention
 * (docs/run.md). Criterion refuses fewer than 10 samples.
 */
export const DEFAULT_PROCESS_TIME: ProcessTime = Object.freeze({
  warmUpMs: 200,
  measurementMs: 500,
  samples: 10,
});

/** A suite's `process-time:` over the defaults; the schema has checked the shapes. */
export function processTimeOf(raw: CriterionSuite, at: ConfigAt): Partial<ProcessTime> {
  const given = raw["process-time"];
  if (given === undefined) return {};
  const key = `${at.key}/process-time`;
  return {
    ...(given["warm-up"] === undefined
      ? {}
      : { warmUpMs: parseDuration(given["warm-up"], `${key}/warm-up`, at.source) }),
    ...(given.measurement === undefined
      ? {}
      : { measurementMs: parseDuration(given.measurement, `${key}/measurement`, at.source) }),
    ...(given.samples === undefined ? {} : { samples: given.samples }),
  };
}

/**
 * Whether these Criterion versions read `--warm-up-time` and `--measurement-time` as whole
 * seconds: before 0.4 they are u64 and "0.2" stops the process with a usage error; from 0.4 on
 * they are f64. Unknown (no version found) counts as whole seconds, which every version reads.
 */
export function takesWholeSeconds(versions: readonly string[]): boolean {
  if (versions.length === 0) return true;
  return versions.some((v) => {
    const [major, minor] = v.split(".").map(Number);
    return major === undefined || minor === undefined || !(major > 0 || minor >= 4);
  });
}

/** The times as Criterion will run them: whole seconds (at least one) before 0.4. */
export function effectiveTime(time: ProcessTime, wholeSeconds: boolean): ProcessTime {
  if (!wholeSeconds) return time;
  const whole = (ms: number): number => Math.max(1, Math.ceil(ms / 1000)) * 1000;
  return { ...time, warmUpMs: whole(time.warmUpMs), measurementMs: whole(time.measurementMs) };
}

/** The flags benchgate adds to one process, and those it leaves to the user's `args`. */
interface ShortFlags {
  readonly added: readonly string[];
  /** The flags `args` already sets: the user's value wins. */
  readonly kept: readonly string[];
}

/** Criterion's time flags for one short process, except those `args` sets. */
export function criterionShortFlags(
  args: readonly string[],
  time: ProcessTime,
  wholeSeconds: boolean,
): ShortFlags {
  const run = effectiveTime(time, wholeSeconds);
  const wanted = [
    ["--warm-up-time", String(run.warmUpMs / 1000)],
    ["--measurement-time", String(run.measurementMs / 1000)],
    ["--sample-size", String(run.samples)],
  ] as const;
  const added: string[] = [];
  const kept: string[] = [];
  for (const [flag, value] of wanted)
    if (setsFlag(args, flag)) kept.push(flag);
    else added.push(flag, value);
  return { added, kept };
}
