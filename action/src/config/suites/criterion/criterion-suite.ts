// `kind: criterion`: a Cargo bench target using Criterion.rs. Each side and round runs
// `cargo bench` with `--save-baseline <side>-<round>` into the suite's own CRITERION_HOME, and
// `ingest criterion` reads that baseline back.
import path from "node:path";
import { InputError } from "../../../errors.ts";
import type { CriterionSuite } from "../../../schemas/config.gen.ts";
import { checkRelativePath, type Argv } from "../../config-checks.ts";
import type { Side, SuiteBase, SuiteKind } from "../suite-kind.ts";
import { exactIdFilter } from "./exact-id-filter.ts";

export interface CriterionSuitePlan extends SuiteBase {
  readonly kind: "criterion";
  readonly bench: string;
  /** cargo --manifest-path, relative to the repository root. */
  readonly manifestPath?: string;
  readonly package?: string;
  readonly features: readonly string[];
  readonly filter?: string;
  readonly args: readonly string[];
}

/** Criterion's baseline name for a side and round: `base-3`, `head-3`. */
export function baselineName(side: Side, round: number): string {
  return `${side}-${round}`;
}

function cargoTarget(suite: CriterionSuitePlan): string[] {
  const args = ["--bench", suite.bench];
  if (suite.manifestPath !== undefined) args.push("--manifest-path", suite.manifestPath);
  if (suite.package !== undefined) args.push("--package", suite.package);
  if (suite.features.length > 0) args.push("--features", suite.features.join(","));
  return args;
}

/** Builds the bench binary once per side (the rounds then only run it). */
export function criterionBuildArgv(suite: CriterionSuitePlan): Argv {
  return ["cargo", "bench", "--no-run", ...cargoTarget(suite)];
}

export function criterionRunArgv(suite: CriterionSuitePlan, side: Side, round: number): Argv {
  const argv: [string, ...string[]] = [
    "cargo",
    "bench",
    ...cargoTarget(suite),
    "--",
    ...suite.args,
  ];
  argv.push("--noplot", "--save-baseline", baselineName(side, round));
  // Criterion's filter is a positional argument; the config refuses one that starts with "-".
  if (suite.filter !== undefined) argv.push(suite.filter);
  return argv;
}

/** Lists the benchmarks the suite's filter selects, one `<id>: benchmark` line each. */
export function criterionListArgv(suite: CriterionSuitePlan): Argv {
  const argv: [string, ...string[]] = ["cargo", "bench", ...cargoTarget(suite), "--", "--list"];
  if (suite.filter !== undefined) argv.push(suite.filter);
  return argv;
}

export const criterionSuite: SuiteKind<CriterionSuite, CriterionSuitePlan> = {
  name: "criterion",
  plan(raw, base, { key, source }) {
    if (raw.filter?.startsWith("-") === true)
      throw new InputError(
        "the filter must not start with '-' (Criterion would read it as an option)",
        { source, jsonPath: `${key}/filter` },
      );
    return {
      kind: "criterion",
      ...base,
      bench: raw.bench,
      ...(raw["manifest-path"] === undefined
        ? {}
        : {
            manifestPath: checkRelativePath(raw["manifest-path"], `${key}/manifest-path`, source),
          }),
      ...(raw.package === undefined ? {} : { package: raw.package }),
      features: [...(raw.features ?? [])],
      ...(raw.filter === undefined ? {} : { filter: raw.filter }),
      args: [...(raw.args ?? [])],
    };
  },
  // Criterion applies the filter itself (its positional filter argument).
  filter: (plan, _filter, text) => ({ ...plan, filter: text }),
  narrow(plan, { ids }) {
    if (ids.length === 0) return undefined;
    const filter = exactIdFilter(ids);
    return filter === undefined ? { plan, unfiltered: true } : { plan: { ...plan, filter } };
  },
  step(plan, run) {
    // critcmp reads this folder's parent as `--target-dir OUT/raw/<suite>`.
    const home = path.join(run.dir, "criterion");
    return {
      argv: criterionRunArgv(plan, run.side, run.round),
      env: { CRITERION_HOME: home },
      output: { format: "criterion", path: home, baseline: baselineName(run.side, run.round) },
    };
  },
};
