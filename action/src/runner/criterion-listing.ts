// The ids a Criterion suite will run, before it runs: `cargo bench --bench B -- --list [FILTER]`
// prints one `<id>: benchmark` line per benchmark its filter selects (`<id>: bench` before
// Criterion 0.5). A sharded run needs them to split the suite (shard-plan.ts), and
// `schedule: pairs` to run each benchmark in processes of its own (pair-units.ts); both sides
// are listed, so a benchmark that only head has is assigned like any other. The bench binary is
// already built, so listing takes a second or two.
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";
import { ToolError } from "../errors.ts";
import { runStep } from "../exec/run-step.ts";
import type { RunDeps } from "./run-request.ts";
import { sideEnv } from "./suite-commands.ts";

/** A listing is a few dozen bytes per benchmark; the summary schema caps a run at 20,000. */
const MAX_LISTING_BYTES = 8 * 1024 * 1024;
const LISTED = /^(.+): bench(?:mark)?$/;
const LIST_TIMEOUT_MS = 5 * 60 * 1000;

/** The ids of `--list`'s output, in its order, once each. */
export function parseCriterionList(stdout: string): string[] {
  const ids = new Set<string>();
  for (const line of stdout.split("\n")) {
    const match = LISTED.exec(line.replace(/\r$/, ""));
    if (match?.[1] !== undefined) ids.add(match[1]);
  }
  return [...ids];
}

/**
 * Every listing suite's ids (SuiteKind.listArgv: Criterion's) on both sides together (base's
 * order, then head's new ones).
 */
export async function listCriterionSuites(
  suites: readonly SuitePlan[],
  sides: Readonly<Record<Side, SidePaths>>,
  out: string,
  deps: RunDeps,
): Promise<Map<string, string[]>> {
  const listed = new Map<string, string[]>();
  for (const suite of suites) {
    const argv = suiteKind(suite).listArgv?.(suite);
    if (argv === undefined) continue;
    const ids = new Set<string>();
    for (const side of ["base", "head"] as const) {
      const label = `suite ${suite.name} (${side}): listing its benchmarks`;
      const result = await runStep(deps.proc, label, argv, {
        cwd: sides[side].worktree,
        env: sideEnv(deps.env, sides[side]),
        timeoutMs: Math.min(suite.timeoutMs, LIST_TIMEOUT_MS),
        signal: deps.signal,
        logFile: path.join(out, "logs", `list-${side}.log`),
        keepStdoutBytes: MAX_LISTING_BYTES,
      });
      // A listing cut at the cap would drop benchmarks from every shard without a word.
      if (Buffer.byteLength(result.stdout, "utf8") >= MAX_LISTING_BYTES)
        throw new ToolError(`${label}: its list is over ${MAX_LISTING_BYTES / 1024 / 1024} MiB`);
      for (const id of parseCriterionList(result.stdout)) ids.add(id);
    }
    listed.set(suite.name, [...ids]);
  }
  return listed;
}
