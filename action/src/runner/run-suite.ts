// One suite, one side, one round: run the step its kind describes (config/suites/), then read
// its output through the same adapter `benchgate ingest` uses. Raw outputs stay under
// OUT/raw/<suite>/ for anyone who wants to look. Under `schedule: pairs` one suite's side of a
// round is many processes, one per benchmark, that save into the same Criterion baseline: the
// runner then reads each output once, after the side's last process (`deferRead`).
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import { ToolError } from "../errors.ts";
import { ingest } from "../ingest/index.ts";
import type { FileReader, FileWriter } from "../ports/files.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";
import { VERSION } from "../version.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort, ProcessResult } from "../ports/process.ts";
import { runStep } from "../exec/run-step.ts";
import { suiteKind } from "../config/suites/registry.ts";
import {
  stepsOf,
  type BenchBinary,
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
  /** One of several processes of this side and round (schedule: pairs): its files' suffix. */
  readonly part?: number;
  /** Run the built bench executable instead of `cargo bench` (Criterion, schedule: pairs). */
  readonly binary?: BenchBinary;
  /**
   * Leave the outputs unread and return them (each is read once by readOutputs): the processes
   * of one side and round share one Criterion baseline.
   */
  readonly deferRead?: boolean;
}

/** An output a step wrote that is read later, and how. */
export type StepOutput = SuiteStep["output"];

/** What a suite's run gave: its benchmarks, and (deferRead) the outputs it left unread. */
interface SuiteResult {
  readonly benchmarks: Benchmark[];
  readonly unread: StepOutput[];
  /** The steps' processes together: what the report's contention count reads (core/contention.ts). */
  readonly process: ProcessTime;
}

/** Wall time of a suite's processes and, where the machine can tell, their CPU time. */
export interface ProcessTime {
  wallMs: number;
  cpuMs: number | undefined;
}

/** The benchmarks with the process that measured them (summary.v1 `process`). */
export function measuredBy(benchmarks: readonly Benchmark[], time: ProcessTime): Benchmark[] {
  const process = {
    wall_ms: time.wallMs,
    ...(time.cpuMs === undefined ? {} : { cpu_ms: time.cpuMs }),
  };
  return benchmarks.map((b) => ({ ...b, process }));
}

interface SuiteDeps {
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

/** Runs the suite's steps and reads every output. */
export async function runSuite(
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<Benchmark[]> {
  const result = await runSuiteSteps(suite, { ...run, deferRead: false }, deps);
  return measuredBy(result.benchmarks, result.process);
}

/** Runs the suite's steps; with `deferRead` the outputs that can wait are returned unread. */
export async function runSuiteSteps(
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<SuiteResult> {
  const dir = suiteDir(run.out, suite);
  await deps.dirs.ensure(dir);
  const tag = `${run.side}-${run.round}${run.part === undefined ? "" : `.${run.part}`}`;
  const label = `suite ${suite.name} (${run.side}, round ${run.round})`;
  const context = { side: run.side, round: run.round, tag, dir, paths: run.paths };
  const steps = stepsOf(
    suiteKind(suite).step(
      suite,
      run.binary === undefined ? context : { ...context, binary: run.binary },
    ),
  );
  const result: SuiteResult = {
    benchmarks: [],
    unread: [],
    process: { wallMs: 0, cpuMs: 0 },
  };
  for (const [i, step] of steps.entries()) {
    if ("service" in step) {
      result.benchmarks.push(...(await runServed(step, label, suite, run, deps)));
      // A server's CPU time is not its load generator's step's: no share to tell.
      result.process.cpuMs = undefined;
      continue;
    }
    const what = steps.length === 1 ? label : `${label}, command ${i + 1} of ${steps.length}`;
    const read = await runOneStep(step, what, suite, run, deps);
    result.process.wallMs += read.ran.durationMs;
    result.process.cpuMs =
      result.process.cpuMs === undefined || read.ran.cpuMs === undefined
        ? undefined
        : result.process.cpuMs + read.ran.cpuMs;
    if ("unread" in read) result.unread.push(read.unread);
    else result.benchmarks.push(...read.benchmarks);
  }
  return result;
}

/** Each distinct output once (the processes of a side and round share one Criterion baseline). */
export async function readOutputs(
  outputs: readonly StepOutput[],
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<Benchmark[]> {
  const distinct = new Map(
    outputs.map((o) => [JSON.stringify([o.format, o.path, o.baseline, o.name]), o]),
  );
  const benchmarks: Benchmark[] = [];
  for (const output of distinct.values())
    benchmarks.push(...(await readOutput(output, suite, run, deps)));
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
    // A server's steps are read at once: their numbers go with the server's own.
    runStep: async (step, what) => {
      const read = await runOneStep(step, what, suite, { ...run, deferRead: false }, deps);
      return "benchmarks" in read ? read.benchmarks : [];
    },
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
): Promise<
  { readonly ran: ProcessResult } & (
    { readonly benchmarks: Benchmark[] } | { readonly unread: StepOutput }
  )
> {
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
    cwd: step.cwd ?? run.paths.worktree,
    timeoutMs: suite.timeoutMs,
    signal: deps.signal,
    logFile: path.join(run.out, "logs", `${suite.name}-${tag}.log`),
    env: stepEnv(step, suite, run),
    ...(run.watch === undefined ? {} : { onLine: run.watch.line }),
    // One byte over the cap tells a cut-off table from a whole one.
    ...(fromStdout ? { keepStdoutBytes: MAX_STDOUT_BYTES + 1 } : {}),
  });
  const ran = result;
  if (step.unread === true) return { ran, benchmarks: [] };
  const { path: file, missing } = step.output;
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
  if (run.deferRead === true && !fromStdout) return { ran, unread: step.output };
  return { ran, benchmarks: await readOutput(step.output, suite, run, deps) };
}

/** One output through the ingest adapter of its format. */
async function readOutput(
  output: StepOutput,
  suite: SuitePlan,
  run: SuiteRun,
  deps: SuiteDeps,
): Promise<Benchmark[]> {
  const { format, path: file, baseline, name } = output;
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
