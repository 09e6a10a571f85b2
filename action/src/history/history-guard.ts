// Who may write history (docs/history.md, "Who may write"; docs/threat-model.md, H1): only a
// trusted run on the default branch of the repository itself. Anything else could put a pull
// request's numbers into the default branch's record. Pure: the caller gathers plain values (GITHUB_* variables,
// the event payload, or flags for a local run); anything unknown counts against writing.
//
// Allowed events:
// - push: the normal case, a commit landed on the default branch;
// - workflow_dispatch and schedule: they run the default branch's own workflow file and need
//   write access (dispatch) or come from GitHub (schedule); they re-measure the branch tip,
//   which the upsert by SHA turns into a replacement, never a duplicate.
// Refused: pull_request and pull_request_target (the numbers are a PR's, whatever branch name
// it has — a fork's branch called `main` included), issue_comment (/rebench runs a PR head),
// workflow_run (it runs with default-branch privileges but its data came from another,
// possibly untrusted, run), merge_group, release, every other event; a ref that is not
// refs/heads/<default branch> (tags, other branches, refs/pull/*); a head repository other than
// the repository itself; a repository GitHub marks as a fork, unless the caller names it as the
// expected repository (a fork that keeps its own history on purpose).

const WRITE_EVENTS = ["push", "workflow_dispatch", "schedule"] as const;

export interface WriteContext {
  /** GITHUB_EVENT_NAME. */
  readonly eventName: string;
  /** GITHUB_REF, e.g. refs/heads/main. */
  readonly ref: string;
  /** The repository's default branch (payload repository.default_branch); unknown refuses. */
  readonly defaultBranch: string | undefined;
  /** GITHUB_REPOSITORY (owner/name). */
  readonly repository?: string | undefined;
  /** The repository whose code was measured (payload repository / pull_request.head.repo). */
  readonly headRepository?: string | undefined;
  /** payload repository.fork. */
  readonly repositoryIsFork?: boolean | undefined;
  /** The repository that may write this history, when the caller pins it. */
  readonly expectedRepository?: string | undefined;
}

type WriteDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

function sameRepository(a: string, b: string): boolean {
  // GitHub compares owner/name without regard to case.
  return a.toLowerCase() === b.toLowerCase();
}

/** Whether this run may write history, and if not, one sentence why. */
export function checkHistoryWrite(context: WriteContext): WriteDecision {
  const refuse = (reason: string): WriteDecision => ({ allowed: false, reason });
  const event = context.eventName;
  if (!(WRITE_EVENTS as readonly string[]).includes(event))
    return refuse(
      `the ${JSON.stringify(event)} event may not write history (only ${WRITE_EVENTS.join(", ")} on the default branch)` +
        (event.startsWith("pull_request")
          ? "; a pull request's numbers are never recorded, whatever its branch is called"
          : ""),
    );
  const branch = context.defaultBranch;
  if (branch === undefined || branch === "")
    return refuse("the default branch is unknown (no repository.default_branch in the event)");
  if (context.ref !== `refs/heads/${branch}`)
    return refuse(`${JSON.stringify(context.ref)} is not the default branch refs/heads/${branch}`);
  const { repository, headRepository, expectedRepository } = context;
  if (
    repository !== undefined &&
    headRepository !== undefined &&
    !sameRepository(repository, headRepository)
  )
    return refuse(
      `the measured code comes from ${JSON.stringify(headRepository)}, not from ${JSON.stringify(repository)}`,
    );
  if (expectedRepository !== undefined) {
    if (repository === undefined)
      return refuse(
        `the repository is unknown, so it cannot be ${JSON.stringify(expectedRepository)}`,
      );
    if (!sameRepository(repository, expectedRepository))
      return refuse(
        `this run is in ${JSON.stringify(repository)}, not in ${JSON.stringify(expectedRepository)} (a fork?)`,
      );
  } else if (context.repositoryIsFork === true)
    return refuse(
      `${JSON.stringify(repository ?? "this repository")} is a fork; name it with --repository to keep a history of its own`,
    );
  return { allowed: true };
}
