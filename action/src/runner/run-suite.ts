// One suite, one side, one round: run the tool, then read its output through the same adapter
// `benchgate ingest` uses. Raw outputs stay under OUT/raw/<suite>/ for anyone who wants to look.
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import { ToolError } from "../errors.ts";
import { ingest } from "../ingest/index.ts";
import type { FileReader } from "../ports/files.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";
import { VERSION } from "../version.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort } from "../ports/process.ts";
import { runStep } from "./run-step.ts";
import {
  baselineName,
  criterionRunArgv,
  customArgv,
  hyperfineArgv,
  type Side,
  type SidePaths,
} from "./suite-commands.ts";

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

/** Criterion's home for a suite: critcmp reads it as `--target-dir OUT/raw/<suite>`. */
export function criterionHome(out: string, suite: SuitePlan): string {
  return path.join(suiteDir(out, suite), "criterion");
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
  const logFile = path.join(run.out, "logs", `${suite.name}-${tag}.log`);
  const base = {
    cwd: run.paths.worktree,
    timeoutMs: suite.timeoutMs,
    signal: deps.signal,
    logFile,
  };
  const options = { side: run.side, round: run.round, suite: suite.name, version: VERSION };
  switch (suite.kind) {
    case "criterion": {
      const home = criterionHome(run.out, suite);
      await runStep(deps.proc, label, criterionRunArgv(suite, run.side, run.round), {
        ...base,
        env: { ...run.env, CRITERION_HOME: home },
      });
      const summary = await ingest(
        "criterion",
        home,
        { ...options, baseline: baselineName(run.side, run.round) },
        deps.reader,
      );
      return summary.benchmarks;
    }
    case "hyperfine": {
      const file = path.join(dir, `${tag}.json`);
      const places = { target: run.paths.target, worktree: run.paths.worktree };
      await runStep(deps.proc, label, hyperfineArgv(suite, file, places), {
        ...base,
        env: run.env,
      });
      return (await ingest("hyperfine", file, options, deps.reader)).benchmarks;
    }
    case "custom": {
      const outDir = path.join(dir, tag);
      await deps.dirs.remove(outDir);
      await deps.dirs.ensure(outDir);
      const places = { target: run.paths.target, worktree: run.paths.worktree, out: outDir };
      await runStep(deps.proc, label, customArgv(suite, places), {
        ...base,
        env: { ...run.env, BENCHGATE_OUT: outDir },
      });
      const file = path.join(outDir, suite.output);
      if ((await deps.reader.kindOf(file)) !== "file")
        throw new ToolError(
          `${label} exited 0 but did not write ${suite.output} into {out} (${outDir})`,
        );
      return (await ingest("custom", file, options, deps.reader)).benchmarks;
    }
  }
}
