// An in-memory GitHubPort for unit tests of the bot and gate logic (the HTTP-level tests use the
// OpenAPI-validating local server instead). Records every write.
/* eslint-disable @typescript-eslint/require-await -- the fake implements an async port synchronously */
import {
  GitHubError,
  type CheckRun,
  type GitHubPort,
  type IssueComment,
  type Permission,
  type PullRequest,
  type Reaction,
} from "../../src/ports/github.ts";

export const BOT = { id: 41898282, login: "github-actions[bot]", type: "Bot" } as const;

export interface FakeGitHub extends GitHubPort {
  comments: IssueComment[];
  reactions: { commentId: number; reaction: Reaction }[];
  checks: (CheckRun & { output?: unknown })[];
  /** Logins by user id (the bot's is there); any other id is 404. */
  users: Map<number, string>;
  /** The app slug new check runs are created by (github-actions, as with a GITHUB_TOKEN). */
  app: string;
  /** Fail every listChecks with this error while set. */
  listChecksError?: Error | undefined;
  permissions: Map<string, Permission | Error>;
  pulls: Map<number, PullRequest & { commits: string[] }>;
  writes: string[];
  /** Fail the next createComment with this status, after storing the comment when `stored`. */
  failNextCreate?: { status: number; stored: boolean } | undefined;
}

/** An open, unlocked pull request #7 of o/r from its own repository, base → head. */
export function openPull(baseSha: string, headSha: string): PullRequest & { commits: string[] } {
  return {
    number: 7,
    state: "open",
    draft: false,
    locked: false,
    merged: false,
    headSha,
    baseSha,
    headRepo: "o/r",
    baseRepo: "o/r",
    title: "t",
    commits: [baseSha, headSha],
  };
}

export function fakeGitHub(): FakeGitHub {
  let nextId = 1000;
  const fake: FakeGitHub = {
    comments: [],
    reactions: [],
    checks: [],
    users: new Map([[BOT.id, BOT.login]]),
    app: "github-actions",
    permissions: new Map(),
    pulls: new Map(),
    writes: [],
    async listComments() {
      return [...fake.comments];
    },
    async createComment(_issue, body) {
      const comment: IssueComment = {
        id: nextId++,
        body,
        author: BOT,
        createdAt: new Date(0).toISOString(),
      };
      const failure = fake.failNextCreate;
      fake.failNextCreate = undefined;
      if (failure !== undefined) {
        if (failure.stored) fake.comments.push(comment);
        throw new GitHubError("injected", failure.status);
      }
      fake.comments.push(comment);
      fake.writes.push(`create ${comment.id}`);
      return comment;
    },
    async updateComment(id, body) {
      const i = fake.comments.findIndex((c) => c.id === id);
      if (i < 0) throw new GitHubError("not found", 404);
      fake.comments[i] = { ...(fake.comments[i] as IssueComment), body };
      fake.writes.push(`update ${id}`);
    },
    async addReaction(commentId, reaction) {
      fake.reactions.push({ commentId, reaction });
    },
    async permission(username) {
      const p = fake.permissions.get(username);
      if (p === undefined) throw new GitHubError("Not Found", 404);
      if (p instanceof Error) throw p;
      return { permission: p, roleName: p };
    },
    async getPull(number) {
      const pr = fake.pulls.get(number);
      if (pr === undefined) throw new GitHubError("Not Found", 404);
      return pr;
    },
    async pullCommits(number) {
      return fake.pulls.get(number)?.commits ?? [];
    },
    async createCheck(headSha, _name, output) {
      const id = nextId++;
      fake.checks.push({
        id,
        headSha,
        status: "in_progress",
        conclusion: null,
        startedAt: new Date().toISOString(),
        completedAt: null,
        app: fake.app,
        text: output.text ?? null,
        output,
      });
      return id;
    },
    async completeCheck(id, conclusion, output) {
      const i = fake.checks.findIndex((c) => c.id === id);
      fake.checks[i] = {
        ...(fake.checks[i] as CheckRun),
        status: "completed",
        conclusion,
        completedAt: new Date().toISOString(),
        text: output.text ?? null,
        output,
      };
    },
    async listChecks(headSha) {
      if (fake.listChecksError !== undefined) throw fake.listChecksError;
      return fake.checks.filter((c) => c.headSha === headSha);
    },
    async userLogin(userId) {
      const login = fake.users.get(userId);
      if (login === undefined) throw new GitHubError("Not Found", 404);
      return login;
    },
  };
  return fake;
}
