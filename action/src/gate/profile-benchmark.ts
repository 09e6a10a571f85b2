// One benchmark of each side run once under Callgrind for "Where it regressed" (docs/where.md).
// Both sides must execute the same bytes apart from the code under test, as instruction-count
// suites do (config/suites/instructions): a side's program is staged to one path both sides run
// from, with ASLR off, and a bench executable runs in one working folder with the instruction
// suites' fixed environment. The output file's name holds `%p`: Criterion forks a child that
// writes an empty file of the same name before the parent writes its own at exit, so without
// children the largest file is the program's; a shell command line's processes (children) each
// write one, and they are joined into one file of several parts, in the order they started.
import path from "node:path";
import type { Argv } from "../config/config-checks.ts";
import { BASE_ENV } from "../config/suites/instructions/instructions-suite.ts";
import type { BenchBinary, ProfileRun, Side } from "../config/suites/suite-kind.ts";
import { runStep } from "../exec/run-step.ts";
import { ToolError } from "../errors.ts";
import type { Machine } from "../ports/machine.ts";
import { sanitizeText } from "../render/sanitize-text.ts";
import type { Progress } from "../runner/progress.ts";

/** A Callgrind file larger than this is not read (the demo's are about 31 KB). */
export const MAX_PROFILE_BYTES = 64 * 1024 * 1024;
/** A shell command line's processes profiled at most: more is not one benchmark. */
const MAX_PROCESSES = 64;

/** One side's program under Callgrind, from the folder both sides share (`dir`). */
export interface CallgrindRun {
  /** The program (staged into `dir` when `stage` is set) and its arguments. */
  readonly argv: Argv;
  /** Copy this side's file to `dir/<stage.name>` and run that. */
  readonly stage?: { readonly from: string; readonly name: string };
  /** The working folder; `dir` when absent. */
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string>>;
  /** Callgrind's `--toggle-collect`: only the calls of this function are counted. */
  readonly collect?: string;
  /** Profile the processes it starts too (`--trace-children=yes`), each into its own part. */
  readonly children: boolean;
}

/** Benchmark `id` of a bench executable (SuiteKind.profile), as a CallgrindRun. */
export function benchRun(binary: BenchBinary, run: ProfileRun, id: string): CallgrindRun {
  return {
    argv: ["bench", ...run.args(id)],
    stage: { from: binary.executable, name: "bench" },
    env: BASE_ENV,
    collect: run.collect,
    children: false,
  };
}

/** Callgrind's command line for one run, with the program as staged. */
function callgrindArgv(run: CallgrindRun, program: string, outPattern: string): Argv {
  return [
    "setarch",
    "-R",
    "valgrind",
    "--tool=callgrind",
    ...(run.collect === undefined ? [] : [`--toggle-collect=${run.collect}`]),
    ...(run.children ? ["--trace-children=yes"] : []),
    `--callgrind-out-file=${outPattern}`,
    program,
    ...run.argv.slice(1),
  ];
}

/** The pid in a `callgrind.<pid>` name; NaN for any other name. */
const pidOf = (name: string): number =>
  /^callgrind\.[0-9]{1,10}$/u.test(name) ? Number(name.slice("callgrind.".length)) : NaN;

/**
 * Runs `run` under Callgrind from `dir` and returns the profile's text. Throws a ToolError when
 * it fails, times out or writes no profile (an InterruptedError on Ctrl-C).
 */
async function profileOnce(
  run: CallgrindRun,
  side: Side,
  place: { readonly dir: string; readonly logFile: string },
  limits: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  machine: Pick<Machine, "proc" | "dirs" | "reader">,
): Promise<string> {
  const outDir = path.join(place.dir, "profile");
  let program = run.argv[0];
  if (run.stage !== undefined) {
    program = path.join(place.dir, run.stage.name);
    await machine.dirs.copyFile(run.stage.from, program);
  }
  await machine.dirs.remove(outDir);
  await machine.dirs.ensure(outDir);
  const label = `where (${side}): callgrind`;
  await runStep(
    machine.proc,
    label,
    callgrindArgv(run, program, path.join(outDir, "callgrind.%p")),
    {
      cwd: run.cwd ?? place.dir,
      env: run.env,
      timeoutMs: limits.timeoutMs,
      logFile: place.logFile,
      ...(limits.signal === undefined ? {} : { signal: limits.signal }),
    },
  );
  const files = (await machine.reader.list(outDir))
    .filter((e) => e.kind === "file" && !Number.isNaN(pidOf(e.name)))
    .sort((a, b) => pidOf(a.name) - pidOf(b.name));
  if (files.length > MAX_PROCESSES)
    throw new ToolError(
      `${label} profiled ${files.length} processes; at most ${MAX_PROCESSES} are read`,
    );
  const texts: string[] = [];
  let total = 0;
  for (const file of files) {
    const text = await machine.reader.readText(path.join(outDir, file.name), MAX_PROFILE_BYTES);
    total += text.length;
    if (total > MAX_PROFILE_BYTES)
      throw new ToolError(
        `${label}: its profiles hold more than ${MAX_PROFILE_BYTES / 2 ** 20} MiB`,
      );
    texts.push(text.endsWith("\n") ? text : `${text}\n`);
  }
  const profile = run.children
    ? texts.join("")
    : texts.reduce((largest, text) => (text.length > largest.length ? text : largest), "");
  if (profile === "") throw new ToolError(`${label} wrote no profile (see ${place.logFile})`);
  return profile;
}

/**
 * Runs each side's program under Callgrind, from one temporary folder, each run with the time
 * left until `deadline` (ms on the machine's clock): each side's profile.
 */
export async function profileBothSides(
  id: string,
  runs: Readonly<Record<Side, CallgrindRun>>,
  step: {
    readonly out: string;
    readonly progress: Progress;
    readonly deadline: number;
    readonly signal: AbortSignal;
  },
  machine: Pick<Machine, "proc" | "dirs" | "reader" | "clock">,
): Promise<Record<Side, string>> {
  const place = {
    dir: await machine.dirs.makeTemp("benchgate-where-"),
    logFile: path.join(step.out, "logs", "where.log"),
  };
  const name = sanitizeText(id, { maxLength: 120 });
  const texts = { base: "", head: "" };
  try {
    for (const side of ["base", "head"] as const) {
      const timeoutMs = step.deadline - machine.clock.now();
      if (timeoutMs < 1000) throw new ToolError("the step's time cap was reached");
      step.progress.line(`where: ${name} (${side}) under callgrind…`);
      texts[side] = await profileOnce(
        runs[side],
        side,
        place,
        { timeoutMs, signal: step.signal },
        machine,
      );
    }
  } finally {
    await machine.dirs.remove(place.dir).catch(() => undefined);
  }
  return texts;
}
