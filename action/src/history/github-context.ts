// The guard's inputs and the commit's metadata from where GitHub Actions puts them: GITHUB_*
// variables and the event payload (GITHUB_EVENT_PATH), with flags for a run outside Actions.
// Pure: the caller reads the payload file. A flag may fill in what GitHub does not say, never
// contradict it: a workflow cannot talk its way past the guard with `--event push`.
import { InputError } from "../errors.ts";
import type { WriteContext } from "./history-guard.ts";
import type { CommitInfo } from "./history-record.ts";

export interface ContextFlags {
  readonly event?: string | undefined;
  readonly ref?: string | undefined;
  readonly defaultBranch?: string | undefined;
  /** The repository that may write this history (--repository). */
  readonly repository?: string | undefined;
  /** The repository the measured code came from (--head-repository), for local checks. */
  readonly headRepository?: string | undefined;
}

type Json = Readonly<Record<string, unknown>>;

function object(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** A short string field, or undefined when absent, of another type or implausibly long. */
function text(value: unknown, max = 256): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= max ? value : undefined;
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

/** The guard's inputs; throws InputError when the event or the ref cannot be known. */
export function writeContextFrom(
  vars: Readonly<Record<string, string>>,
  payload: unknown,
  flags: ContextFlags,
): WriteContext {
  const root = object(payload);
  const repo = object(root?.["repository"]);
  const pr = object(root?.["pull_request"]);
  const prHeadRepo = text(object(object(pr?.["head"])?.["repo"])?.["full_name"]);
  const eventName = agree(
    "--event",
    env(vars, "GITHUB_EVENT_NAME"),
    flags.event,
    "GITHUB_EVENT_NAME",
  );
  const ref = agree(
    "--ref",
    env(vars, "GITHUB_REF"),
    flags.ref === undefined ? undefined : fullRef(flags.ref),
    "GITHUB_REF",
  );
  const defaultBranch = agree(
    "--default-branch",
    text(repo?.["default_branch"]),
    flags.defaultBranch,
    "the event's repository.default_branch",
  );
  if (eventName === undefined || ref === undefined)
    throw new InputError(
      "cannot tell which event and ref this is: outside GitHub Actions pass --event push --ref refs/heads/BRANCH --default-branch BRANCH",
    );
  const headRepository = agree(
    "--head-repository",
    pr === undefined ? text(repo?.["full_name"]) : (prHeadRepo ?? "(a deleted fork)"),
    flags.headRepository,
    "the event payload",
  );
  return {
    eventName,
    ref,
    defaultBranch,
    repository: env(vars, "GITHUB_REPOSITORY") ?? text(repo?.["full_name"]),
    headRepository,
    repositoryIsFork: repo?.["fork"] === true,
    expectedRepository: flags.repository,
  };
}

/** What the push event says about the pushed commit, when it is `sha`. */
export function headCommitFrom(payload: unknown, sha: string): Partial<CommitInfo> {
  const head = object(object(payload)?.["head_commit"]);
  if (head === undefined || head["id"] !== sha) return {};
  const message = text(head["message"], 1 << 20);
  const date = text(head["timestamp"], 40);
  const author = text(object(head["author"])?.["name"]);
  const url = text(head["url"], 2048);
  return {
    ...(message === undefined ? {} : { message }),
    ...(date === undefined ? {} : { date }),
    ...(author === undefined ? {} : { author }),
    ...(url?.startsWith("https://") === true ? { url } : {}),
  };
}
