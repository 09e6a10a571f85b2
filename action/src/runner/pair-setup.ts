// What `schedule: pairs` needs before round 1, after both sides are built: each Criterion suite's
// benchmarks (`--list` on both sides, so a benchmark only head has gets its own pair too), which
// Criterion version each side links (before 0.4 the time flags take whole seconds), and a line per
// suite saying how its processes run, with the flags the suite's own args keep.
import type { SuitePlan } from "../config/run-config.ts";
import type { CriterionSuitePlan } from "../config/suites/criterion/criterion-suite.ts";
import { takesWholeSeconds } from "../config/suites/criterion/process-time.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import { findLock, lockPackages, MAX_LOCK_BYTES } from "./cargo-lock.ts";
import type { PairSetup } from "./pair-units.ts";
import type { RunDeps, RunRequest } from "./run-request.ts";

/** The Criterion versions a side's lock names (none: no lock, or no criterion in it). */
async function criterionVersions(
  suite: CriterionSuitePlan,
  paths: SidePaths,
  deps: RunDeps,
): Promise<string[]> {
  const lock = await findLock(paths.worktree, suite.manifestPath, deps);
  if (lock === undefined) return [];
  const text = await deps.reader.readText(lock, MAX_LOCK_BYTES);
  return lockPackages(text).flatMap((p) =>
    p.name === "criterion" && p.version !== undefined ? [p.version] : [],
  );
}

/** How a suite's processes run under pairs, in one line. */
function describe(suite: SuitePlan, listed: PairSetup["listed"], whole: boolean): string {
  const kind = suiteKind(suite);
  const ids = listed.get(suite.name);
  const per =
    suite.kind === "criterion"
      ? (ids?.length ?? 0) === 0
        ? "--list named no benchmark on either side: the whole suite per process"
        : `${ids?.length ?? 0} benchmarks listed, one per process`
      : suite.kind === "hyperfine"
        ? "one command per process"
        : "the whole suite per process";
  const short = kind.shorten?.(suite, { wholeSeconds: whole });
  const added =
    short === undefined || short.added.length === 0 ? "" : `, with ${short.added.join(" ")}`;
  const kept =
    short === undefined || short.kept.length === 0
      ? ""
      : `; its own ${short.kept.join(", ")} from the config kept`;
  const seconds = whole ? " (Criterion before 0.4, or no version found: whole seconds)" : "";
  return `suite ${suite.name} (${suite.kind}, pairs): ${per}${added}${seconds}${kept}`;
}

/**
 * The setup of a pairs run. `listed` is given when the shard split already listed the suites.
 */
export async function preparePairs(
  request: RunRequest,
  sides: Readonly<Record<Side, SidePaths>>,
  listed: ReadonlyMap<string, readonly string[]>,
  deps: RunDeps,
): Promise<PairSetup> {
  const wholeSeconds = new Set<string>();
  for (const suite of request.config.suites) {
    if (suite.kind !== "criterion") continue;
    const versions = [
      ...(await criterionVersions(suite, sides.base, deps)),
      ...(await criterionVersions(suite, sides.head, deps)),
    ];
    if (takesWholeSeconds(versions)) wholeSeconds.add(suite.name);
  }
  for (const suite of request.config.suites)
    deps.progress.line(describe(suite, listed, wholeSeconds.has(suite.name)));
  return { listed, together: request.together ?? [], wholeSeconds };
}
