// One suite, one side, one round: run the step its kind describes (config/suites/), then read
// its output through the same adapter `benchgate ingest` uses. Raw outputs stay under
// OUT/raw/<suite>/ for anyone who wants to look.
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import { ToolError } from "../errors.ts";
import { ingest } from "../ingest/index.ts";
import type { FileReader } from "../ports/files.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";
import { VERSION } from "../version.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort } from "../ports/process.ts";
import { runStep } from "../exec/run-step.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { Side, SidePaths } from "../config/suites/suite-kind.ts";

export interface SuiteRun {
  readonly side: Side;
  readonly round: number;
  readonly out: string;
  readonly paths: SidePaths;
  readonly env: Readonly<Record<string, string>>;
}

export interface SuiteDeps {
  readonly proc: ProcessPort;
  readonly dirs: DirPort;
  readonly reader: FileReader;
  readonly signal: AbortSignal;
}

/** OUT/raw/<suite>: suite names are restricted by the schema, so they are safe folder names. */
export function suiteDir(out: string, suite: SuitePlan): string {
  return path.join(out, "raw", suite.name);
}

export async function runSuite(
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<Benchmark[]> {
  const dir = suiteDir(run.out, suite);
  await deps.dirs.ensure(dir);
  const tag = `${run.side}-${run.round}`;
  const label = `suite ${suite.name} (${run.side}, round ${run.round})`;
  const step = suiteKind(suite).step(suite, {
    side: run.side,
    round: run.round,
    tag,
    dir,
    paths: run.paths,
  });
  if (step.freshDir !== undefined) {
    await deps.dirs.remove(step.freshDir);
    await deps.dirs.ensure(step.freshDir);
  }
  await runStep(deps.proc, label, step.argv, {
    cwd: run.paths.worktree,
    timeoutMs: suite.timeoutMs,
    signal: deps.signal,
    logFile: path.join(run.out, "logs", `${suite.name}-${tag}.log`),
    env: step.env === undefined ? run.env : { ...run.env, ...step.env },
  });
  const { format, path: file, baseline, missing } = step.output;
  if (missing !== undefined && (await deps.reader.kindOf(file)) !== "file")
    throw new ToolError(`${label} exited 0 but ${missing}`);
  const options = { side: run.side, round: run.round, suite: suite.name, version: VERSION };
  const summary = await ingest(
    format,
    file,
    baseline === undefined ? options : { ...options, baseline },
    deps.reader,
  );
  return summary.benchmarks;
}
