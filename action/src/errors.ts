// Errors someone branches on. A regression is never an exception: it is a verdict in the report.
// The CLI maps these to exit codes (docs/cli.md): InputError → 2, ToolError → 3.

/** Bad usage or invalid input: a file that is missing, too large, malformed or of the wrong schema. */
export class InputError extends Error {
  override name = "InputError";
  readonly source: string | undefined;
  readonly jsonPath: string | undefined;
  constructor(
    message: string,
    where: { source?: string; jsonPath?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.source = where.source;
    this.jsonPath = where.jsonPath;
  }

  /** One line: `FILE: /json/path: problem`. */
  describe(): string {
    const parts: string[] = [];
    if (this.source !== undefined) parts.push(this.source);
    if (this.jsonPath !== undefined && this.jsonPath !== "") parts.push(this.jsonPath);
    parts.push(this.message);
    return parts.join(": ");
  }
}

/** A tool or the environment failed (a benchmark process crashed, git is missing, a disk is full). */
export class ToolError extends Error {
  override name = "ToolError";
  /** Context printed before the one error line, e.g. the tail of a failed process's stderr. */
  readonly details: string | undefined;
  constructor(message: string, options: { cause?: unknown; details?: string | undefined } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
  }
}

/**
 * The whole story of a failure for a log or an annotation: an InputError's file and JSON path,
 * a ToolError's details (the tail of a failed process's output) below its message, else the
 * error's name and message.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof InputError) return error.describe();
  if (error instanceof ToolError)
    return `${error.message}${error.details === undefined ? "" : `\n${error.details}`}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The failure as a PR comment or a check run states it: an InputError's file, JSON path and
 * problem, else the message alone. A ToolError's details (a process's output) stay in the log.
 */
export function failureHeadline(error: unknown): string {
  if (error instanceof InputError) return error.describe();
  return error instanceof Error ? error.message : String(error);
}
