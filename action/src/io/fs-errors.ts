// A failed file-system call as the CLI reports it (docs/cli.md, "Outputs"): one error naming the
// path, exit 2 for what the user can fix (a missing or wrong directory, permissions), exit 3 for
// what the machine lacks (space, a working disk). Never a bare errno message with exit 3 as
// "internal error".
import { InputError, ToolError } from "../errors.ts";

const PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: "a directory in this path does not exist",
  ENOTDIR: "a part of this path is not a directory",
  EISDIR: "is a directory, not a regular file",
  EEXIST: "already exists",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ELOOP: "too many symbolic links in this path",
  ENAMETOOLONG: "path is too long",
};

const MACHINE_FAILURES: ReadonlySet<string> = new Set([
  "ENOSPC",
  "EDQUOT",
  "EIO",
  "EMFILE",
  "ENFILE",
]);

/**
 * `error` from a call on `file` as an InputError or ToolError naming `file`. `problems` words a
 * code for this call (e.g. EEXIST for a directory that is a file); an error without an errno
 * code is returned as it is (a bug stays a bug).
 */
export function fsError(
  file: string,
  error: unknown,
  problems: Readonly<Record<string, string>> = {},
): unknown {
  if (error instanceof InputError || error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return error;
  const problem = problems[code] ?? PROBLEMS[code];
  if (problem !== undefined) return new InputError(problem, { source: file }, { cause: error });
  const detail = (error as Error).message;
  if (MACHINE_FAILURES.has(code)) return new ToolError(`${file}: ${detail}`, { cause: error });
  return new InputError(detail, { source: file }, { cause: error });
}
