// What `schedule: pairs` needs before round 1, after both sides are built: each Criterion suite's
// benchmarks (`--list` on both sides, so a benchmark only head has gets its own pair too), which
// Criterion version each side links (before 0.4 the time flags take whole seconds), and a line per
// suite saying how its processes run, with the flags the suite's own args keep.
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import { findLock, lockPackages, MAX_LOCK_BYTES } from "./cargo-lock.ts";
import type { PairSetup } from "./pair-units.ts";
import type { RunDeps, RunRequest } from "./run-request.ts";

/** The versions of `crate` a side's lock names (none: no lock, or no such crate in it). */
async function crateVersions(
  crate: string,
  manifestPath: string | undefined,
  paths: SidePaths,
  deps: RunDeps,
): Promise<string[]> {
  const lock = await findLock(paths.worktree, manifestPath, deps);
  if (lock === undefined) return [];
  const text = await deps.reader.readText(lock, MAX_LOCK_BYTES);
  return lockPackages(text).flatMap((p) =>
    p.name === crate && p.version !== undefined ? [p.version] : [],
  );
}

/** How a suite's processes run under pairs, in one line. */
function describe(suite: SuitePlan, listed: PairSetup["listed"], whole: boolean): string {
  const kind = suiteKind(suite);
  const ids = listed.get(suite.name);
  const per =
    kind.listArgv !== undefined
      ? (ids?.length ?? 0) === 0
        ? "--list named no benchmark on either side: the whole suite per process"
        : `${ids?.length ?? 0} benchmarks listed, one per process`
      : kind.pairUnit !== undefined
        ? `one ${kind.pairUnit} per process`
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
    const kind = suiteKind(suite);
    const { harness } = kind;
    if (harness === undefined) continue;
    const manifest = kind.build?.target(suite).manifestPath;
    const versions = [
      ...(await crateVersions(harness.crate, manifest, sides.base, deps)),
      ...(await crateVersions(harness.crate, manifest, sides.head, deps)),
    ];
    if (harness.facts(versions).wholeSeconds) wholeSeconds.add(suite.name);
  }
  for (const suite of request.config.suites)
    deps.progress.line(describe(suite, listed, wholeSeconds.has(suite.name)));
  return { listed, together: request.together ?? [], wholeSeconds };
}
