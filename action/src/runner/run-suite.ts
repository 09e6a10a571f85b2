// One suite, one side, one round: run the step its kind describes (config/suites/), then read
// its output through the same adapter `benchgate ingest` uses. Raw outputs stay under
// OUT/raw/<suite>/ for anyone who wants to look.
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import { ToolError } from "../errors.ts";
import { ingest } from "../ingest/index.ts";
import type { FileReader, FileWriter } from "../ports/files.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";
import { VERSION } from "../version.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort } from "../ports/process.ts";
import { runStep } from "../exec/run-step.ts";
import { suiteKind } from "../config/suites/registry.ts";
import {
  stepsOf,
  type ServiceStep,
  type Side,
  type SidePaths,
  type SuiteStep,
} from "../config/suites/suite-kind.ts";
import type { ServicePort } from "../ports/services.ts";
import { runServiceStep } from "./run-service.ts";

export interface SuiteRun {
  readonly side: Side;
  readonly round: number;
  readonly out: string;
  readonly paths: SidePaths;
  readonly env: Readonly<Record<string, string>>;
  /** Told every line the suite's tools print (progress inside the suite, ./suite-progress.ts). */
  readonly watch?: { readonly line: (text: string) => void };
}

export interface SuiteDeps {
  readonly proc: ProcessPort;
  readonly dirs: DirPort;
  readonly reader: FileReader;
  /** Saves a step's stdout as its output file (`output.fromStdout`); only such steps need it. */
  readonly writer?: FileWriter;
  readonly services: ServicePort;
  readonly signal: AbortSignal;
}

/** Most of a step's stdout saved for its ingest (`output.fromStdout`: divan's table). */
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;

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
  const steps = stepsOf(
    suiteKind(suite).step(suite, { side: run.side, round: run.round, tag, dir, paths: run.paths }),
  );
  const benchmarks: Benchmark[] = [];
  for (const [i, step] of steps.entries()) {
    if ("service" in step) {
      benchmarks.push(...(await runServed(step, label, suite, run, deps)));
      continue;
    }
    const what = steps.length === 1 ? label : `${label}, command ${i + 1} of ${steps.length}`;
    benchmarks.push(...(await runOneStep(step, what, suite, run, deps)));
  }
  return benchmarks;
}

/** A server and the steps run against it (a load suite's variant). */
function runServed(
  served: ServiceStep,
  label: string,
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<Benchmark[]> {
  const tag = `${run.side}-${run.round}`;
  return runServiceStep(served, {
    label: `${label}, ${served.service.label}`,
    cwd: run.paths.worktree,
    env: { ...run.env, ...(run.paths.suiteEnv?.get(suite.name) ?? {}) },
    logFile: path.join(run.out, "logs", `${suite.name}-${tag}.log`),
    suite: suite.name,
    deps,
    runStep: (step, what) => runOneStep(step, what, suite, run, deps),
  });
}

/** The environment of a step: the side's (and its suite's build setup), or a fixed one. */
function stepEnv(step: SuiteStep, suite: SuitePlan, run: SuiteRun): Record<string, string> {
  if (step.exactEnv !== undefined) return { ...step.exactEnv };
  const prepared = run.paths.suiteEnv?.get(suite.name) ?? {};
  return { ...run.env, ...prepared, ...step.env };
}

async function runOneStep(
  step: SuiteStep,
  label: string,
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<Benchmark[]> {
  const tag = `${run.side}-${run.round}`;
  if (step.freshDir !== undefined) {
    await deps.dirs.remove(step.freshDir);
    await deps.dirs.ensure(step.freshDir);
  }
  if (step.stage !== undefined) {
    if ((await deps.reader.kindOf(step.stage.from)) !== "file")
      throw new ToolError(`${label}: ${step.stage.from} does not exist (was it built?)`);
    await deps.dirs.ensure(path.dirname(step.stage.to));
    await deps.dirs.copyFile(step.stage.from, step.stage.to);
  }
  const fromStdout = step.output.fromStdout === true && step.unread !== true;
  const result = await runStep(deps.proc, label, step.argv, {
    cwd: run.paths.worktree,
    timeoutMs: suite.timeoutMs,
    signal: deps.signal,
    logFile: path.join(run.out, "logs", `${suite.name}-${tag}.log`),
    env: stepEnv(step, suite, run),
    ...(run.watch === undefined ? {} : { onLine: run.watch.line }),
    // One byte over the cap tells a cut-off table from a whole one.
    ...(fromStdout ? { keepStdoutBytes: MAX_STDOUT_BYTES + 1 } : {}),
  });
  if (step.unread === true) return [];
  const { format, path: file, baseline, missing, name } = step.output;
  if (fromStdout) {
    if (Buffer.byteLength(result.stdout) > MAX_STDOUT_BYTES)
      throw new ToolError(
        `${label} printed more than ${MAX_STDOUT_BYTES / 1024 / 1024} MiB on stdout; benchgate reads at most that`,
      );
    if (deps.writer === undefined)
      throw new ToolError(`internal error: ${label} has no writer to save its stdout`);
    await deps.writer.writeText(file, result.stdout);
  }
  if (missing !== undefined && (await deps.reader.kindOf(file)) !== "file")
    throw new ToolError(`${label} exited 0 but ${missing}`);
  const options = { side: run.side, round: run.round, suite: suite.name, version: VERSION };
  const summary = await ingest(
    format,
    file,
    {
      ...options,
      ...(baseline === undefined ? {} : { baseline }),
      ...(name === undefined ? {} : { name }),
    },
    deps.reader,
  );
  return summary.benchmarks;
}
