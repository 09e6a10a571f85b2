// The exact base and head commits, each checked out in a worktree of its own, so both sides are
// built from clean trees and the user's checkout is never touched. Refs are resolved to SHAs
// once, up front: a branch that moves during the run does not change what is measured.
import { InputError, ToolError } from "../errors.ts";
import type { DirPort } from "../ports/dirs.ts";
import type { ProcessPort } from "../ports/process.ts";
import { InterruptedError } from "./run-step.ts";

export interface GitDeps {
  readonly proc: ProcessPort;
  readonly dirs: DirPort;
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

const GIT_TIMEOUT_MS = 10 * 60_000;

/** A ref is user input that becomes an argument: refuse option-like and control characters. */
export function refProblem(ref: string): string | undefined {
  if (ref === "") return "is empty";
  if (ref.length > 256) return "is longer than 256 characters";
  if (ref.startsWith("-")) return "starts with '-'";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(ref)) return "contains whitespace or control characters";
  return undefined;
}

/** git's own environment variables would redirect it to another repository or index. */
export function gitEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (!/^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY)$/.test(k)) clean[k] = v;
  clean["GIT_TERMINAL_PROMPT"] = "0";
  return clean;
}

async function git(repo: string, args: readonly string[], deps: GitDeps, keep = 64 * 1024) {
  let result;
  try {
    result = await deps.proc(["git", "-C", repo, ...args], {
      cwd: repo,
      env: gitEnv(deps.env),
      timeoutMs: GIT_TIMEOUT_MS,
      keepStdoutBytes: keep,
      ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    });
  } catch (error) {
    throw new ToolError(
      `git could not be started (${(error as Error).message}); is git installed?`,
      { cause: error },
    );
  }
  if (result.aborted) throw new InterruptedError(`interrupted during git ${args[0] ?? ""}`);
  return result;
}

/** The 40-hex SHA of a ref (branch, tag, SHA, `HEAD~1`, `origin/main`). */
export async function resolveCommit(repo: string, ref: string, deps: GitDeps): Promise<string> {
  const problem = refProblem(ref);
  if (problem !== undefined)
    throw new InputError(`ref ${JSON.stringify(ref.slice(0, 80))} ${problem}`);
  const inside = await git(repo, ["rev-parse", "--git-dir"], deps);
  if (inside.exitCode !== 0)
    throw new InputError(
      `${repo} is not a git repository (${inside.stderrTail.trim().split("\n").pop() ?? ""})`,
    );
  const result = await git(
    repo,
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
    deps,
  );
  const sha = result.stdout.trim();
  if (result.exitCode !== 0 || !/^[0-9a-f]{40}$/.test(sha))
    throw new InputError(
      `unknown ref ${JSON.stringify(ref)} in ${repo} (fetch it first, or pass a commit SHA)`,
    );
  return sha;
}

/** Checks out `sha` (detached) into `dir`, with submodules when the commit has any. */
export async function addWorktree(
  repo: string,
  dir: string,
  sha: string,
  deps: GitDeps,
): Promise<void> {
  const added = await git(repo, ["worktree", "add", "--detach", "--force", dir, sha], deps);
  if (added.exitCode !== 0)
    throw new ToolError(
      `git worktree add failed for ${sha.slice(0, 12)}: ${added.stderrTail.trim().slice(-500)}`,
    );
  if ((await deps.dirs.names(dir)).includes(".gitmodules")) {
    const sub = await git(dir, ["submodule", "update", "--init", "--recursive"], deps);
    if (sub.exitCode !== 0)
      throw new ToolError(
        `git submodule update failed in the ${sha.slice(0, 12)} worktree: ${sub.stderrTail.trim().slice(-500)}`,
      );
  }
}

/** Removes a worktree and its registration; never throws (it runs while unwinding). */
export async function removeWorktree(repo: string, dir: string, deps: GitDeps): Promise<void> {
  // Cleanup must run even after Ctrl-C, so it ignores the abort signal.
  const quiet: GitDeps = { proc: deps.proc, dirs: deps.dirs, env: deps.env };
  try {
    await git(repo, ["worktree", "remove", "--force", "--force", dir], {
      proc: quiet.proc,
      dirs: quiet.dirs,
      env: quiet.env,
    });
  } catch {
    // Fall through to removing the directory ourselves.
  }
  await deps.dirs.remove(dir).catch(() => undefined);
  await git(repo, ["worktree", "prune"], quiet).catch(() => undefined);
}

/** A file's text at a commit (`git show SHA:PATH`), or undefined when the commit lacks it. */
export async function fileAtCommit(
  repo: string,
  sha: string,
  file: string,
  maxBytes: number,
  deps: GitDeps,
): Promise<string | undefined> {
  const result = await git(repo, ["show", `${sha}:${file}`], deps, maxBytes + 1);
  if (result.exitCode !== 0) return undefined;
  if (Buffer.byteLength(result.stdout) > maxBytes)
    throw new InputError(`${file} at ${sha.slice(0, 12)} is larger than ${maxBytes} bytes`);
  return result.stdout;
}
