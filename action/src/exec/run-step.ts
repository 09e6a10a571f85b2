// One external step (a build, a benchmark process, a golden command) run to completion or turned
// into a clear error: what failed, how, the tail of its stderr and where the full log is. A
// failing benchmark is always an error, never a silently missing row.
import { ToolError } from "../errors.ts";
import type {
  EscapedProcess,
  ProcessOptions,
  ProcessPort,
  ProcessResult,
} from "../ports/process.ts";

/** Raised when Ctrl-C or SIGTERM stopped the run; the CLI reports it and exits 3. */
export class InterruptedError extends ToolError {
  override name = "InterruptedError";
}

const TAIL_LINES = 12;

export function stderrTail(text: string, lines = TAIL_LINES): string {
  const kept = text.trimEnd().split("\n").slice(-lines);
  return kept.map((l) => `    ${l}`).join("\n");
}

const NAMED_ESCAPES = 5;

/** `pid 4242 (python3), pid 4250 (sleep)`, the first few of them and how many more. */
export function describeEscapes(escaped: readonly EscapedProcess[]): string {
  const named = escaped
    .slice(0, NAMED_ESCAPES)
    .map((p) => (p.pid === null ? p.command : `pid ${p.pid} (${p.command})`));
  const more = escaped.length - named.length;
  return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
}

/**
 * The one line for processes that outlived their step: what they were and which step left them,
 * so a daemonizing server or benchmark is a tool failure (exit 3), never a pass.
 */
export function escapeFailure(label: string, escaped: readonly EscapedProcess[]): string {
  const n = escaped.length;
  return `${label} left ${n === 1 ? "a process" : `${n} processes`} running after it ended (killed, or cut off from its output): ${describeEscapes(escaped)}`;
}

function describeStepFailure(
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
  const escaped = result.escaped ?? [];
  if (escaped.length > 0)
    throw new ToolError(
      `${escapeFailure(label, escaped)}${options.logFile === undefined ? "" : ` (full log: ${options.logFile})`}`,
      { details: `the step itself ${describeStepFailure("", result, options.timeoutMs).trim()}` },
    );
  if (result.timedOut || result.exitCode !== 0)
    throw new ToolError(describeStepFailure(label, result, options.timeoutMs, options.logFile), {
      details:
        result.stderrTail.trim() === ""
          ? undefined
          : `last lines of its stderr:\n${stderrTail(result.stderrTail)}`,
    });
  return result;
}
