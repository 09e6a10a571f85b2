// `kind: criterion`: a Cargo bench target using Criterion.rs. Each side and round runs
// `cargo bench` with `--save-baseline <side>-<round>` into the suite's own CRITERION_HOME, and
// `ingest criterion` reads that baseline back.
import path from "node:path";
import type { CriterionSuite } from "../../../schemas/config.gen.ts";
import type { Argv } from "../../config-checks.ts";
import {
  cargoBenchTarget,
  cargoTargetArgs,
  checkFilter,
  type CargoBenchTarget,
} from "../cargo-bench-target.ts";
import type { Side, SuiteBase, SuiteKind } from "../suite-kind.ts";
import { exactIdFilter } from "./exact-id-filter.ts";

export interface CriterionSuitePlan extends SuiteBase, CargoBenchTarget {
  readonly kind: "criterion";
  readonly filter?: string;
}

/** Criterion's baseline name for a side and round: `base-3`, `head-3`. */
export function baselineName(side: Side, round: number): string {
  return `${side}-${round}`;
}

export function criterionRunArgv(suite: CriterionSuitePlan, side: Side, round: number): Argv {
  const argv: [string, ...string[]] = [
    "cargo",
    "bench",
    ...cargoTargetArgs(suite),
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
  const argv: [string, ...string[]] = ["cargo", "bench", ...cargoTargetArgs(suite), "--", "--list"];
  if (suite.filter !== undefined) argv.push(suite.filter);
  return argv;
}

export const criterionSuite: SuiteKind<CriterionSuite, CriterionSuitePlan> = {
  name: "criterion",
  plan(raw, base, at) {
    checkFilter(raw.filter, "Criterion", at);
    return {
      kind: "criterion",
      ...base,
      ...cargoBenchTarget(raw, at),
      ...(raw.filter === undefined ? {} : { filter: raw.filter }),
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
