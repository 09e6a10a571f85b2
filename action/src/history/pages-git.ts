// The git steps of a gh-pages update, with plumbing in a scratch repository: nothing is ever
// checked out, so a branch holding a symlink or a huge site cannot make us write outside the
// scratch directory or copy more than the files we change. Every call is argv through the
// ProcessPort (no shell), in the C locale so that git's rejection messages can be recognised.
import { InputError, ToolError } from "../errors.ts";
import { gitEnv } from "../exec/git.ts";
import type { ProcessPort, ProcessResult } from "../ports/process.ts";
import { InterruptedError } from "../exec/run-step.ts";

export interface GitPorts {
  readonly proc: ProcessPort;
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

/** Who commits to gh-pages: fixed, so the branch's log says which tool wrote what. */
export const PAGES_IDENTITY = Object.freeze({
  name: "benchgate",
  email: "benchgate@users.noreply.github.com",
});

const GIT_TIMEOUT_MS = 5 * 60_000;

// Hooks and signing from the user's configuration must not run in (or block) our commits.
const SAFE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "commit.gpgsign=false",
  "-c",
  "core.autocrlf=false",
];

/** Runs git in `repo`; throws ToolError when it cannot start, InterruptedError on abort. */
export async function git(
  repo: string,
  args: readonly string[],
  ports: GitPorts,
  options: { keep?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<ProcessResult> {
  let result: ProcessResult;
  try {
    result = await ports.proc(["git", ...SAFE_CONFIG, "-C", repo, ...args], {
      cwd: repo,
      env: { ...gitEnv(ports.env), LC_ALL: "C", LANGUAGE: "C", ...options.env },
      timeoutMs: GIT_TIMEOUT_MS,
      keepStdoutBytes: options.keep ?? 64 * 1024,
      ...(ports.signal === undefined ? {} : { signal: ports.signal }),
    });
  } catch (error) {
    throw new ToolError(
      `git could not be started (${(error as Error).message}); is git installed?`,
      {
        cause: error,
      },
    );
  }
  if (result.aborted) throw new InterruptedError(`interrupted during git ${args[0] ?? ""}`);
  return result;
}

/** Runs git and insists on exit code 0; `what` names the step in the error. */
export async function gitOk(
  repo: string,
  args: readonly string[],
  ports: GitPorts,
  what: string,
  options: { keep?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<string> {
  const result = await git(repo, args, ports, options);
  if (result.exitCode !== 0)
    throw new ToolError(`git ${what} failed (exit ${result.exitCode ?? result.signal ?? "?"})`, {
      details: result.stderrTail.trim() === "" ? undefined : result.stderrTail.trim(),
    });
  return result.stdout;
}

/** One entry of `git ls-tree -l`. */
interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly sha: string;
  /** Bytes of a blob; undefined for trees. */
  readonly size: number | undefined;
}

/** The entries at exactly these paths of `commit` (absent paths are missing from the map). */
export async function lsTree(
  repo: string,
  commit: string,
  paths: readonly string[],
  ports: GitPorts,
): Promise<Map<string, TreeEntry>> {
  const out = await gitOk(
    repo,
    ["ls-tree", "-z", "-l", "--full-tree", commit, "--", ...paths],
    ports,
    "ls-tree",
  );
  const entries = new Map<string, TreeEntry>();
  for (const record of out.split("\0")) {
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(-|\d+)\t(.*)$/s.exec(record);
    if (match === null) continue;
    const [, mode, type, sha, size, file] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    entries.set(file, { mode, type, sha, size: size === "-" ? undefined : Number(size) });
  }
  return entries;
}

/** A blob's text, checked to be exactly `size` bytes (nothing cut off by the output cap). */
export async function readBlob(
  repo: string,
  sha: string,
  size: number,
  ports: GitPorts,
): Promise<string | undefined> {
  const text = await gitOk(repo, ["cat-file", "blob", sha], ports, "cat-file", { keep: size + 1 });
  return new TextEncoder().encode(text).length === size ? text : undefined;
}

/**
 * The tip of `branch` on `remote`, fetched (one commit deep) into `repo`; undefined when the
 * remote has no such branch. Any other failure (unreachable remote, no access) throws.
 */
export async function fetchTip(
  repo: string,
  remote: string,
  branch: string,
  ports: GitPorts,
): Promise<string | undefined> {
  const ref = `refs/heads/${branch}`;
  const fetch = () =>
    git(
      repo,
      ["fetch", "--quiet", "--no-tags", "--depth=1", "--end-of-options", remote, ref],
      ports,
    );
  const tipOf = async (): Promise<string> =>
    (
      await gitOk(repo, ["rev-parse", "--verify", "FETCH_HEAD^{commit}"], ports, "rev-parse")
    ).trim();
  const fetched = await fetch();
  if (fetched.exitCode === 0) return tipOf();
  // Tell "no such branch yet" (a first run) from "cannot fetch": only the first may initialise.
  const listed = await git(
    repo,
    ["ls-remote", "--exit-code", "--heads", "--end-of-options", remote, ref],
    ports,
  );
  if (listed.exitCode === 2) return undefined;
  // Another first writer may have created the branch between our fetch and ls-remote.
  if (listed.exitCode === 0 && (await fetch()).exitCode === 0) return tipOf();
  throw new ToolError(`cannot fetch ${branch} from ${redactRemote(remote)}`, {
    details: redactText(fetched.stderrTail.trim(), remote) || undefined,
  });
}

type PushOutcome = "pushed" | "conflict";

// What git (client side) and receive-pack (server side) say when the branch moved under us:
// our commit is no longer a fast-forward, or another push held or changed the ref first.
const CONFLICT =
  /\[rejected\][^\n]*\((non-fast-forward|fetch first)\)|\[remote rejected\][^\n]*(lock|failed to update ref|incorrect old value|but expected)/i;

/**
 * A plain push of `commit` to `branch`: never forced, so the remote accepts it only as a
 * fast-forward of the tip it has — the compare-and-swap. "conflict" means the branch moved.
 */
export async function pushCommit(
  repo: string,
  remote: string,
  commit: string,
  branch: string,
  ports: GitPorts,
): Promise<PushOutcome> {
  const result = await git(
    repo,
    [
      "push",
      "--porcelain",
      "--no-verify",
      "--end-of-options",
      remote,
      `${commit}:refs/heads/${branch}`,
    ],
    ports,
  );
  if (result.exitCode === 0) return "pushed";
  if (CONFLICT.test(`${result.stdout}\n${result.stderrTail}`)) return "conflict";
  throw new ToolError(`git push to ${branch} of ${redactRemote(remote)} failed`, {
    details: redactText(`${result.stdout}\n${result.stderrTail}`.trim(), remote) || undefined,
  });
}

/** A remote as printed: a URL's user and password (a token) replaced by ***. */
export function redactRemote(remote: string): string {
  return remote.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1***@");
}

function redactText(text: string, remote: string): string {
  const shown = redactRemote(remote);
  return shown === remote ? text : text.split(remote).join(shown);
}

/**
 * The environment that makes git send `token` as HTTP basic auth to the remote's origin. It goes
 * through GIT_CONFIG_COUNT/KEY/VALUE (git ≥ 2.31), not argv or the URL: argv is visible to
 * every process on the machine, and a URL ends up in git's own messages.
 */
export function tokenEnv(remote: string, token: string): Record<string, string> {
  const origin = /^https:\/\/[^/@\s]+/i.exec(remote)?.[0];
  if (origin === undefined)
    throw new InputError(
      "a token is only sent to an https:// remote without credentials in its URL",
    );
  if (!/^[\x21-\x7e]{1,4096}$/.test(token))
    throw new InputError("the token is empty or has spaces or non-ASCII characters");
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${origin}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${btoa(`x-access-token:${token}`)}`,
  };
}

/** Refuses a remote that git could read as an option or that carries control characters. */
export function checkRemote(remote: string): void {
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/;
  if (remote === "" || remote.startsWith("-") || control.test(remote) || remote.length > 4096)
    throw new InputError(
      `remote ${JSON.stringify(redactRemote(remote).slice(0, 80))} is not a URL or a path`,
    );
}

/** A branch name git accepts and that cannot be read as an option or a pattern. */
export function checkBranch(branch: string): void {
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(branch) || /^[-/.]|\/$|\.\.|\/\/|\.lock$|\/\./.test(branch))
    throw new InputError(
      `branch ${JSON.stringify(branch.slice(0, 80))} is not a valid branch name`,
    );
}

export function shortSha(sha: string): string {
  return sha.slice(0, 12);
}
