// Runs the golden commands: the only file under golden/ that causes side effects, and only
// through the `ProcessPort` it is given (ports/process.ts). Commands are argv arrays, never
// shell strings. Runs one at a time, in the order given.
import { InputError } from "../errors.ts";
import type { ProcessPort, ProcessResult } from "../ports/process.ts";
import type { GoldenOutput } from "./check-golden.ts";
import { goldenNameProblem } from "./checksums.ts";

interface GoldenCommand {
  readonly name: string;
  /** argv: program then arguments; never passed through a shell. */
  readonly command: readonly string[];
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
}

interface RunGoldenOptions {
  readonly cwd: string;
  /** Per command; default 30 s. */
  readonly timeoutMs?: number;
  /** The environment every command starts from (a command's own `env` wins). */
  readonly env?: Readonly<Record<string, string>>;
  /** Default 1 MiB. */
  readonly maxStdoutBytes?: number;
  /** Aborting (Ctrl-C) stops the command that is running. */
  readonly signal?: AbortSignal;
  /** Both output streams of every command are appended here. */
  readonly logFile?: string;
}

const DEFAULT_GOLDEN_TIMEOUT_MS = 30_000;
export const MAX_GOLDEN_STDOUT_BYTES = 1024 * 1024;

/** Truncates a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}

/** Validates the commands (safe unique names, non-empty argv) before anything runs. */
function validateGoldenCommands(commands: readonly GoldenCommand[]): void {
  const seen = new Set<string>();
  commands.forEach((c, i) => {
    const where = { jsonPath: `/golden/commands/${i}` };
    const problem = goldenNameProblem(c.name);
    if (problem !== undefined) throw new InputError(`golden command ${i + 1}: ${problem}`, where);
    if (seen.has(c.name))
      throw new InputError(`golden command ${JSON.stringify(c.name)} is listed twice`, where);
    seen.add(c.name);
    if (c.command.length === 0 || c.command.some((arg) => typeof arg !== "string"))
      throw new InputError(
        `golden command ${JSON.stringify(c.name)}: expected an argv list of strings, e.g. ["target/release/am", "--help"]`,
        where,
      );
    if ((c.command[0] ?? "") === "")
      throw new InputError(`golden command ${JSON.stringify(c.name)}: the program is empty`, where);
  });
}

/** One command's result as a golden output: CRLF → LF, stdout capped, a timeout noted. */
function goldenOutput(
  name: string,
  result: ProcessResult,
  timeoutMs: number,
  maxStdoutBytes: number,
): GoldenOutput {
  const capped = truncateUtf8(result.stdout.replaceAll("\r\n", "\n"), maxStdoutBytes);
  const notes: string[] = [];
  if (result.timedOut) notes.push(`timed out after ${timeoutMs / 1000} s`);
  if (capped.truncated) notes.push(`stdout truncated at ${maxStdoutBytes} bytes`);
  const output: GoldenOutput = {
    name,
    stdout: capped.text,
    exitCode: result.timedOut ? null : result.exitCode,
  };
  return notes.length === 0 ? output : { ...output, note: notes.join("; ") };
}

/** Runs every command through `proc`, capping stdout and time and normalising CRLF → LF. */
export async function runGolden(
  commands: readonly GoldenCommand[],
  proc: ProcessPort,
  options: RunGoldenOptions,
): Promise<GoldenOutput[]> {
  validateGoldenCommands(commands);
  const maxStdoutBytes = options.maxStdoutBytes ?? MAX_GOLDEN_STDOUT_BYTES;
  const outputs: GoldenOutput[] = [];
  for (const c of commands) {
    const timeoutMs = c.timeoutMs ?? options.timeoutMs ?? DEFAULT_GOLDEN_TIMEOUT_MS;
    const result = await proc(c.command, {
      cwd: c.cwd ?? options.cwd,
      env: { ...options.env, ...c.env },
      timeoutMs,
      // A few bytes past the cap (one more UTF-8 character), so a longer stdout is seen as
      // truncated; the port keeps no more than that, however much the command writes.
      keepStdoutBytes: maxStdoutBytes + 4,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
    });
    outputs.push(goldenOutput(c.name, result, timeoutMs, maxStdoutBytes));
  }
  return outputs;
}
