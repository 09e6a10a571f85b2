// `kind: criterion`: a Cargo bench target using Criterion.rs. Each side and round runs
// `cargo bench` with `--save-baseline <side>-<round>` into the suite's own CRITERION_HOME, and
// `ingest criterion` reads that baseline back. With `schedule: pairs` each process measures one
// benchmark (an exact-id filter) for a short time, and runs the built bench executable itself,
// as cargo would (`--bench`, in the package's folder), all saving into the same baseline.
import path from "node:path";
import type { CriterionSuite } from "../../../schemas/config.gen.ts";
import type { Argv } from "../../config-checks.ts";
import { cargoBenchTarget, cargoTargetArgs, checkFilter } from "../cargo-bench-target.ts";
import type {
  BenchBinary,
  CargoBenchTarget,
  ProcessTime,
  Side,
  SuiteBase,
  SuiteKind,
} from "../suite-kind.ts";
import { criterionSideMs } from "./criterion-estimate.ts";
import { exactIdFilter } from "./exact-id-filter.ts";
import {
  criterionShortFlags,
  DEFAULT_PROCESS_TIME,
  effectiveTime,
  processTimeOf,
  takesWholeSeconds,
} from "./process-time.ts";

export interface CriterionSuitePlan extends SuiteBase, CargoBenchTarget {
  readonly kind: "criterion";
  readonly filter?: string;
  /** `process-time:` as written (schedule: pairs); the rest is DEFAULT_PROCESS_TIME. */
  readonly processTime?: Partial<ProcessTime>;
}

/** One short process's times for this suite: its `process-time:` over the defaults. */
function processTime(plan: CriterionSuitePlan): ProcessTime {
  return { ...DEFAULT_PROCESS_TIME, ...plan.processTime };
}

/** Criterion's baseline name for a side and round: `base-3`, `head-3`. */
export function baselineName(side: Side, round: number): string {
  return `${side}-${round}`;
}

/**
 * The harness's arguments after `--`: the suite's args, --noplot and the baseline, then the
 * filter (a positional argument; the config refuses one that starts with "-").
 */
function harnessArgs(suite: CriterionSuitePlan, side: Side, round: number): string[] {
  const args = [...suite.args, "--noplot", "--save-baseline", baselineName(side, round)];
  if (suite.filter !== undefined) args.push(suite.filter);
  return args;
}

export function criterionRunArgv(suite: CriterionSuitePlan, side: Side, round: number): Argv {
  return ["cargo", "bench", ...cargoTargetArgs(suite), "--", ...harnessArgs(suite, side, round)];
}

/** The built executable run as `cargo bench` runs it: `--bench` tells Criterion to measure. */
function criterionBinaryArgv(
  suite: CriterionSuitePlan,
  binary: BenchBinary,
  side: Side,
  round: number,
): Argv {
  return [binary.executable, "--bench", ...harnessArgs(suite, side, round)];
}

/** Lists the benchmarks the suite's filter selects, one `<id>: benchmark` line each. */
function criterionListArgv(suite: CriterionSuitePlan): Argv {
  const argv: [string, ...string[]] = ["cargo", "bench", ...cargoTargetArgs(suite), "--", "--list"];
  if (suite.filter !== undefined) argv.push(suite.filter);
  return argv;
}

export const criterionSuite: SuiteKind<CriterionSuite, CriterionSuitePlan> = {
  name: "criterion",
  plan(raw, base, at) {
    checkFilter(raw.filter, "Criterion", at);
    const time = processTimeOf(raw, at);
    return {
      kind: "criterion",
      ...base,
      ...cargoBenchTarget(raw, at),
      ...(raw.filter === undefined ? {} : { filter: raw.filter }),
      ...(Object.keys(time).length === 0 ? {} : { processTime: time }),
    };
  },
  // Criterion applies the filter itself (its positional filter argument).
  filter: (plan, _filter, text) => ({ ...plan, filter: text }),
  narrow(plan, { ids }) {
    if (ids.length === 0) return undefined;
    const filter = exactIdFilter(ids);
    return filter === undefined ? { plan, unfiltered: true } : { plan: { ...plan, filter } };
  },
  build: { target: (plan) => plan, runsExecutable: true },
  listArgv: criterionListArgv,
  idsBeforeRun: (_plan, listed) => listed ?? [],
  pairUnit: "benchmark",
  // Criterion before 0.4 reads its time flags as whole seconds.
  harness: {
    crate: "criterion",
    facts: (versions) => ({ wholeSeconds: takesWholeSeconds(versions) }),
  },
  shortProcessTime(plan, harness) {
    const time = processTime(plan);
    const { kept } = criterionShortFlags(plan.args, time, harness.wholeSeconds);
    if (kept.includes("--warm-up-time") || kept.includes("--measurement-time")) return undefined;
    return effectiveTime(time, harness.wholeSeconds);
  },
  // Unknown until listed; a listing that named nothing tells nothing of its time either.
  estimateSideMs: (plan, count, pairs, harness) =>
    count === undefined || count === 0
      ? undefined
      : criterionSideMs(plan.args, processTime(plan), count, pairs, harness.wholeSeconds),
  critcmpTable: true,
  // Profiling mode: warm-up only, no analysis, no files (docs/where.md); counted from
  // Routine::profile on, so start-up, argument parsing and other benchmarks' set-up are not.
  profile: {
    args: (id) => ["--bench", "--profile-time", "1", "--exact", id],
    collect: "criterion::routine::Routine::profile",
  },
  shorten(plan, harness) {
    const { added, kept } = criterionShortFlags(plan.args, processTime(plan), harness.wholeSeconds);
    return { plan: { ...plan, args: [...plan.args, ...added] }, added, kept };
  },
  step(plan, run) {
    // critcmp reads this folder's parent as `--target-dir OUT/raw/<suite>`.
    const home = path.join(run.dir, "criterion");
    const output = {
      format: "criterion",
      path: home,
      baseline: baselineName(run.side, run.round),
    } as const;
    const { binary } = run;
    if (binary === undefined)
      return {
        argv: criterionRunArgv(plan, run.side, run.round),
        env: { CRITERION_HOME: home },
        output,
      };
    return {
      argv: criterionBinaryArgv(plan, binary, run.side, run.round),
      cwd: binary.cwd,
      // What cargo sets that a bench may read at run time to find its data files.
      env: { CRITERION_HOME: home, CARGO_MANIFEST_DIR: binary.cwd },
      output,
    };
  },
};
