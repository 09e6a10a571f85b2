// One external step (a build, a benchmark process, a golden command) run to completion or turned
// into a clear error: what failed, how, the tail of its stderr and where the full log is. A
// failing benchmark is always an error, never a silently missing row.
import { ToolError } from "../errors.ts";
import type { ProcessOptions, ProcessPort, ProcessResult } from "../ports/process.ts";

/** Raised when Ctrl-C or SIGTERM stopped the run; the CLI reports it and exits 3. */
export class InterruptedError extends ToolError {
  override name = "InterruptedError";
}

const TAIL_LINES = 12;

export function stderrTail(text: string, lines = TAIL_LINES): string {
  const kept = text.trimEnd().split("\n").slice(-lines);
  return kept.map((l) => `    ${l}`).join("\n");
}

export function describeStepFailure(
  label: string,
  result: ProcessResult,
  timeoutMs: number,
  logFile?: string,
): string {
  const how = result.timedOut
    ? `timed out after ${Math.round(timeoutMs / 1000)} s`
    : result.exitCode === null
      ? `was killed by ${result.signal ?? "a signal"}`
      : `exited with code ${result.exitCode}`;
  const log = logFile === undefined ? "" : ` (full log: ${logFile})`;
  return `${label} ${how}${log}`;
}

/** Runs argv; throws InterruptedError on abort and ToolError on any failure. */
export async function runStep(
  proc: ProcessPort,
  label: string,
  argv: readonly string[],
  options: ProcessOptions,
): Promise<ProcessResult> {
  let result: ProcessResult;
  try {
    result = await proc(argv, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === "ENOENT"
        ? ` (${argv[0] ?? ""} not found on PATH; run \`npm run setup\` or install it)`
        : "";
    throw new ToolError(`${label} could not start: ${(error as Error).message}${hint}`, {
      cause: error,
    });
  }
  if (result.aborted) throw new InterruptedError(`interrupted during ${label}`);
  if (result.timedOut || result.exitCode !== 0)
    throw new ToolError(describeStepFailure(label, result, options.timeoutMs, options.logFile), {
      details:
        result.stderrTail.trim() === ""
          ? undefined
          : `last lines of its stderr:\n${stderrTail(result.stderrTail)}`,
    });
  return result;
}
