// The webhook payload at GITHUB_EVENT_PATH: only the fields benchgate uses, each checked, since
// parts of it (titles, bodies, branch names, logins) are written by whoever opened the PR.
import { InputError } from "../errors.ts";

export interface CommentEvent {
  readonly kind: "comment";
  readonly action: string;
  readonly isPullRequest: boolean;
  readonly issueNumber: number;
  readonly commentId: number;
  readonly body: string;
  readonly author: { readonly id: number; readonly login: string; readonly type: string };
}

interface PullRequestEvent {
  readonly kind: "pull_request";
  readonly number: number;
  readonly baseSha: string;
  readonly headSha: string;
  readonly headRepo: string;
  readonly baseRepo: string;
}

interface PushEvent {
  readonly kind: "push";
  readonly before: string;
  readonly after: string;
}

/** The pushed commit as the push event's head_commit describes it. */
export interface HeadCommitFacts {
  readonly id?: string;
  readonly message?: string;
  readonly timestamp?: string;
  readonly author?: string;
  readonly url?: string;
}

/**
 * Where the event happened, as the payload tells it: what the history guard and the history
 * record read (docs/history.md). Read leniently, never thrown over: a field that is missing, of
 * another type or implausibly long is left out, and the guard counts what is unknown against
 * writing.
 */
export interface PayloadFacts {
  /** repository.full_name. */
  readonly repository?: string;
  /** repository.default_branch. */
  readonly defaultBranch?: string;
  /** repository.fork: GitHub marks the repository as a fork. */
  readonly fork: boolean;
  /** Present for a pull request's payload: where its code came from (absent: a deleted fork). */
  readonly pullRequest?: { readonly headRepository?: string };
  /** head_commit (push events). */
  readonly headCommit?: HeadCommitFacts;
}

/**
 * `facts` is optional so that an event built by hand (a test's) needs none; parseEvent always
 * sets it, and a missing one reads as "nothing known".
 */
export type GateEvent = (
  CommentEvent | PullRequestEvent | PushEvent | { readonly kind: "other"; readonly name: string }
) & { readonly facts?: PayloadFacts };

type Json = Record<string, unknown>;

function obj(value: unknown, where: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new InputError(`the event payload has no object at ${where}`);
  return value as Json;
}

function str(value: unknown, where: string): string {
  if (typeof value !== "string")
    throw new InputError(`the event payload has no string at ${where}`);
  return value;
}

function num(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw new InputError(`the event payload has no integer at ${where}`);
  return value;
}

/** T's fields, each of which may be given as undefined (and is then left out). */
type Maybe<T> = { [K in keyof T]: T[K] | undefined };

/** A string field, or undefined when absent, empty, of another type or over `max` characters. */
function text(value: unknown, max = 256): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= max ? value : undefined;
}

function optionalObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** The same object without its undefined properties (exact optional types allow no undefined). */
function defined<T extends object>(fields: Maybe<T>): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

function headCommitFacts(value: unknown): HeadCommitFacts | undefined {
  const head = optionalObject(value);
  if (head === undefined) return undefined;
  return defined<HeadCommitFacts>({
    id: typeof head["id"] === "string" ? head["id"] : undefined,
    // A message can be long; the record keeps only its first line.
    message: text(head["message"], 1 << 20),
    timestamp: text(head["timestamp"], 40),
    author: text(optionalObject(head["author"])?.["name"]),
    url: text(head["url"], 2048),
  });
}

/** Where any payload (or none) says the event happened. */
export function payloadFacts(payload: unknown): PayloadFacts {
  const root = optionalObject(payload);
  const repo = optionalObject(root?.["repository"]);
  const pr = optionalObject(root?.["pull_request"]);
  const prHead = optionalObject(optionalObject(pr?.["head"])?.["repo"]);
  return defined<PayloadFacts>({
    repository: text(repo?.["full_name"]),
    defaultBranch: text(repo?.["default_branch"]),
    fork: repo?.["fork"] === true,
    pullRequest:
      pr === undefined
        ? undefined
        : defined<{ headRepository?: string }>({ headRepository: text(prHead?.["full_name"]) }),
    headCommit: headCommitFacts(root?.["head_commit"]),
  });
}

export function parseEvent(eventName: string, payload: unknown): GateEvent {
  return { ...parseEventKind(eventName, payload), facts: payloadFacts(payload) };
}

function parseEventKind(eventName: string, payload: unknown): GateEvent {
  const root = obj(payload, "the top level");
  switch (eventName) {
    case "issue_comment": {
      const issue = obj(root["issue"], "issue");
      const comment = obj(root["comment"], "comment");
      const user = obj(comment["user"], "comment.user");
      return {
        kind: "comment",
        action: str(root["action"], "action"),
        isPullRequest: issue["pull_request"] !== undefined && issue["pull_request"] !== null,
        issueNumber: num(issue["number"], "issue.number"),
        commentId: num(comment["id"], "comment.id"),
        body: typeof comment["body"] === "string" ? comment["body"] : "",
        author: {
          id: num(user["id"], "comment.user.id"),
          login: str(user["login"], "comment.user.login"),
          type: str(user["type"], "comment.user.type"),
        },
      };
    }
    case "pull_request": {
      const pr = obj(root["pull_request"], "pull_request");
      const base = obj(pr["base"], "pull_request.base");
      const head = obj(pr["head"], "pull_request.head");
      const headRepo =
        head["repo"] === null
          ? ""
          : str(
              obj(head["repo"], "pull_request.head.repo")["full_name"],
              "pull_request.head.repo.full_name",
            );
      return {
        kind: "pull_request",
        number: num(pr["number"], "pull_request.number"),
        baseSha: str(base["sha"], "pull_request.base.sha"),
        headSha: str(head["sha"], "pull_request.head.sha"),
        headRepo,
        baseRepo: str(
          obj(base["repo"], "pull_request.base.repo")["full_name"],
          "pull_request.base.repo.full_name",
        ),
      };
    }
    case "push":
      return {
        kind: "push",
        before: str(root["before"], "before"),
        after: str(root["after"], "after"),
      };
    default:
      return { kind: "other", name: eventName };
  }
}
