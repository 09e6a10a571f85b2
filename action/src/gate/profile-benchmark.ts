// One benchmark of one side's bench executable, run once under Callgrind for "Where it
// regressed" (docs/where.md). Both sides must execute the same bytes apart from the code under
// test, as instruction-count suites do (config/suites/instructions): the executable is staged to
// one path both sides run from, in one working folder, with the instruction suites' fixed
// environment and ASLR off. The output file's name holds `%p`: Criterion forks a child that
// writes an empty file of the same name before the parent writes its own at exit, so the
// largest file is the parent's.
import path from "node:path";
import { BASE_ENV } from "../config/suites/instructions/instructions-suite.ts";
import type { BenchBinary, ProfileRun, Side } from "../config/suites/suite-kind.ts";
import { runStep } from "../exec/run-step.ts";
import { ToolError } from "../errors.ts";
import type { Machine } from "../ports/machine.ts";
import { sanitizeText } from "../render/sanitize-text.ts";
import type { Progress } from "../runner/progress.ts";

/** A Callgrind file larger than this is not read (the demo's are about 31 KB). */
export const MAX_PROFILE_BYTES = 64 * 1024 * 1024;

/** Where the profiles run: one folder for both sides, so every path the program sees is equal. */
interface ProfilePlace {
  /** Holds the staged executable and is the working folder; the same for both sides. */
  readonly dir: string;
  /** Both sides' output is appended here. */
  readonly logFile: string;
}

/** Callgrind's command line for one benchmark of the staged executable. */
function callgrindArgv(staged: string, outPattern: string, run: ProfileRun, id: string) {
  return [
    "setarch",
    "-R",
    "valgrind",
    "--tool=callgrind",
    `--toggle-collect=${run.collect}`,
    `--callgrind-out-file=${outPattern}`,
    staged,
    ...run.args(id),
  ];
}

/**
 * Runs benchmark `id` of `binary` under Callgrind from `place` and returns the profile's text.
 * Throws a ToolError when it fails, times out or writes no profile (an InterruptedError on
 * Ctrl-C).
 */
async function profileBenchmark(
  binary: BenchBinary,
  run: ProfileRun,
  id: string,
  side: Side,
  place: ProfilePlace,
  limits: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  machine: Pick<Machine, "proc" | "dirs" | "reader">,
): Promise<string> {
  const staged = path.join(place.dir, "bench");
  const outDir = path.join(place.dir, "profile");
  await machine.dirs.copyFile(binary.executable, staged);
  await machine.dirs.remove(outDir);
  await machine.dirs.ensure(outDir);
  const label = `where (${side}): callgrind`;
  await runStep(
    machine.proc,
    label,
    callgrindArgv(staged, path.join(outDir, "callgrind.%p"), run, id),
    {
      cwd: place.dir,
      env: BASE_ENV,
      timeoutMs: limits.timeoutMs,
      logFile: place.logFile,
      ...(limits.signal === undefined ? {} : { signal: limits.signal }),
    },
  );
  let profile = "";
  for (const entry of await machine.reader.list(outDir)) {
    if (entry.kind !== "file" || !entry.name.startsWith("callgrind.")) continue;
    const text = await machine.reader.readText(path.join(outDir, entry.name), MAX_PROFILE_BYTES);
    if (text.length > profile.length) profile = text;
  }
  if (profile === "") throw new ToolError(`${label} wrote no profile (see ${place.logFile})`);
  return profile;
}

/**
 * Runs benchmark `id` under Callgrind on both sides, from one temporary folder, each run with
 * the time left until `deadline` (ms on the machine's clock): each side's profile.
 */
export async function profileBothSides(
  id: string,
  target: { readonly run: ProfileRun; readonly base: BenchBinary; readonly head: BenchBinary },
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
      texts[side] = await profileBenchmark(
        target[side],
        target.run,
        id,
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
