// The guard's inputs and the commit's metadata from where GitHub Actions puts them: GITHUB_*
// variables and the event payload (GITHUB_EVENT_PATH), with flags for a run outside Actions.
// Pure: the caller reads the payload file (the CLI), or passes what parseEvent kept of the
// payload it already read (the action). A flag may fill in what GitHub does not say, never
// contradict it: a workflow cannot talk its way past the guard with `--event push`.
import { InputError } from "../errors.ts";
import { payloadFacts, type HeadCommitFacts, type PayloadFacts } from "../github/event.ts";
import type { WriteContext } from "./history-guard.ts";
import type { CommitInfo } from "./history-record.ts";

interface ContextFlags {
  readonly event?: string | undefined;
  readonly ref?: string | undefined;
  readonly defaultBranch?: string | undefined;
  /** The repository that may write this history (--repository). */
  readonly repository?: string | undefined;
  /** The repository the measured code came from (--head-repository), for local checks. */
  readonly headRepository?: string | undefined;
}

/** What GitHub says about this run: its variables, and what the event payload tells. */
interface RunFacts {
  /** GITHUB_EVENT_NAME. */
  readonly eventName?: string | undefined;
  /** GITHUB_REF. */
  readonly ref?: string | undefined;
  /** GITHUB_REPOSITORY (owner/name). */
  readonly repository?: string | undefined;
  readonly payload: PayloadFacts;
}

function env(vars: Readonly<Record<string, string>>, name: string): string | undefined {
  const value = vars[name];
  return value === undefined || value === "" ? undefined : value;
}

/** A flag's value must agree with what GitHub reports; either may be missing. */
function agree(
  what: string,
  fromGitHub: string | undefined,
  fromFlag: string | undefined,
  source: string,
): string | undefined {
  if (fromGitHub !== undefined && fromFlag !== undefined && fromGitHub !== fromFlag)
    throw new InputError(
      `${what} ${JSON.stringify(fromFlag)} contradicts ${source} (${JSON.stringify(fromGitHub)}); refusing to write history`,
    );
  return fromGitHub ?? fromFlag;
}

/** `main` → `refs/heads/main`; full refs stay as they are. */
export function fullRef(ref: string): string {
  return ref.startsWith("refs/") ? ref : `refs/heads/${ref}`;
}

/** The guard's inputs from GitHub's variables and the raw payload (the CLI's case). */
export function writeContextFrom(
  vars: Readonly<Record<string, string>>,
  payload: unknown,
  flags: ContextFlags,
): WriteContext {
  return writeContextOf(
    {
      eventName: env(vars, "GITHUB_EVENT_NAME"),
      ref: env(vars, "GITHUB_REF"),
      repository: env(vars, "GITHUB_REPOSITORY"),
      payload: payloadFacts(payload),
    },
    flags,
  );
}

/** The guard's inputs; throws InputError when the event or the ref cannot be known. */
export function writeContextOf(run: RunFacts, flags: ContextFlags): WriteContext {
  const { payload } = run;
  const eventName = agree("--event", run.eventName, flags.event, "GITHUB_EVENT_NAME");
  const ref = agree(
    "--ref",
    run.ref,
    flags.ref === undefined ? undefined : fullRef(flags.ref),
    "GITHUB_REF",
  );
  const defaultBranch = agree(
    "--default-branch",
    payload.defaultBranch,
    flags.defaultBranch,
    "the event's repository.default_branch",
  );
  if (eventName === undefined || ref === undefined)
    throw new InputError(
      "cannot tell which event and ref this is: outside GitHub Actions pass --event push --ref refs/heads/BRANCH --default-branch BRANCH",
    );
  // A pull request's code comes from its head repository; one whose fork was deleted names none.
  const headRepository = agree(
    "--head-repository",
    payload.pullRequest === undefined
      ? payload.repository
      : (payload.pullRequest.headRepository ?? "(a deleted fork)"),
    flags.headRepository,
    "the event payload",
  );
  return {
    eventName,
    ref,
    defaultBranch,
    repository: run.repository ?? payload.repository,
    headRepository,
    repositoryIsFork: payload.fork,
    expectedRepository: flags.repository,
  };
}

/** What the push event says about the pushed commit, when it is `sha`. */
export function headCommitFrom(payload: unknown, sha: string): Partial<CommitInfo> {
  return headCommitOf(payloadFacts(payload).headCommit, sha);
}

/** The same from the payload's facts; a commit page is kept only when it is https. */
export function headCommitOf(head: HeadCommitFacts | undefined, sha: string): Partial<CommitInfo> {
  if (head === undefined || head.id !== sha) return {};
  const { message, timestamp: date, author, url } = head;
  return {
    ...(message === undefined ? {} : { message }),
    ...(date === undefined ? {} : { date }),
    ...(author === undefined ? {} : { author }),
    ...(url?.startsWith("https://") === true ? { url } : {}),
  };
}
