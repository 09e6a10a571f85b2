// `kind: custom`: the project's own harness. Each side and round runs the command with `{out}`
// (and BENCHGATE_OUT) a fresh empty folder, and `ingest custom` reads the file it wrote there.
// A harness cannot be told to run some of its benchmarks: it runs whole or not at all.
import path from "node:path";
import type { CustomSuite } from "../../../schemas/config.gen.ts";
import { argv, checkRelativePath, joinInside, type Argv } from "../../config-checks.ts";
import { expandArgv, type Placeholders } from "../../placeholders.ts";
import type { SuiteBase, SuiteKind } from "../suite-kind.ts";

export interface CustomSuitePlan extends SuiteBase {
  readonly kind: "custom";
  readonly command: Argv;
  readonly output: string;
}

export function customArgv(suite: CustomSuitePlan, values: Placeholders): Argv {
  return expandArgv(suite.command, values);
}

export const customSuite: SuiteKind<CustomSuite, CustomSuitePlan> = {
  name: "custom",
  noWhere:
    "a custom suite's command measures all its benchmarks in one run, so there is no run of this one benchmark to profile (docs/where.md)",
  plan: (raw, base, { key, source }) => ({
    kind: "custom",
    ...base,
    command: argv(raw.command, `${key}/command`, source),
    output: checkRelativePath(raw.output, `${key}/output`, source, "{out}"),
  }),
  filter: (plan) => plan,
  narrow: (plan, { ids }) => (ids.length === 0 ? undefined : { plan }),
  runsWhole: true,
  step(plan, run) {
    const out = path.join(run.dir, run.tag);
    return {
      argv: customArgv(plan, { target: run.paths.target, worktree: run.paths.worktree, out }),
      env: { BENCHGATE_OUT: out },
      freshDir: out,
      output: {
        format: "custom",
        path: joinInside(out, plan.output, "the custom suite's output"),
        missing: `did not write ${plan.output} into {out} (${out})`,
      },
    };
  },
};
