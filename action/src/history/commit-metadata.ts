// The recorded commit's metadata from a local clone, for `history append --repo DIR`: its full
// SHA, committer date, author and subject line, as `git log` reports them.
import { InputError } from "../errors.ts";
import { refProblem } from "../exec/git.ts";
import { git, type GitPorts } from "./pages-git.ts";
import type { CommitInfo } from "./history-record.ts";

/** The most of a commit message read; the record keeps only its first line anyway. */
const MAX_LOG_BYTES = 1024 * 1024;

/** `rev` (a SHA, HEAD, a branch) in `repo`, resolved and described. */
export async function commitFromGit(
  repo: string,
  rev: string,
  ports: GitPorts,
): Promise<Pick<CommitInfo, "sha" | "date" | "author" | "message">> {
  const problem = refProblem(rev);
  if (problem !== undefined)
    throw new InputError(`revision ${JSON.stringify(rev.slice(0, 80))} ${problem}`);
  const result = await git(
    repo,
    [
      "log",
      "-1",
      "--no-show-signature",
      "--format=%H%x00%cI%x00%an%x00%B",
      "--end-of-options",
      `${rev}^{commit}`,
      "--",
    ],
    ports,
    { keep: MAX_LOG_BYTES },
  );
  const [sha, date, author, message] = result.stdout.split("\0");
  if (
    result.exitCode !== 0 ||
    sha === undefined ||
    !/^[0-9a-f]{40}$/.test(sha) ||
    date === undefined
  )
    throw new InputError(
      `cannot read commit ${JSON.stringify(rev)} in ${repo} (${result.stderrTail.trim().split("\n").pop() ?? "not a git repository?"}); pass --sha, --date, --author and --message instead`,
    );
  return { sha, date, author: author ?? "", message: message ?? "" };
}
