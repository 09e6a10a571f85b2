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

export interface PullRequestEvent {
  readonly kind: "pull_request";
  readonly number: number;
  readonly baseSha: string;
  readonly headSha: string;
  readonly headRepo: string;
  readonly baseRepo: string;
}

export interface PushEvent {
  readonly kind: "push";
  readonly before: string;
  readonly after: string;
}

export type GateEvent =
  CommentEvent | PullRequestEvent | PushEvent | { readonly kind: "other"; readonly name: string };

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

export function parseEvent(eventName: string, payload: unknown): GateEvent {
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
