// What benchgate needs from GitHub, in our words. The Octokit adapter implements it; the bot and
// gate logic only see this, so they are tested against an in-memory fake or the local server.

interface Author {
  readonly id: number;
  readonly login: string;
  /** "User", "Bot", "Organization". */
  readonly type: string;
}

export interface IssueComment {
  readonly id: number;
  readonly body: string;
  readonly author: Author;
  readonly createdAt: string;
}

export type Reaction = "+1" | "-1" | "eyes" | "rocket" | "confused";

/** Repository permission as the collaborator-permission endpoint reports it. */
export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface PullRequest {
  readonly number: number;
  readonly state: "open" | "closed";
  readonly draft: boolean;
  readonly locked: boolean;
  readonly merged: boolean;
  readonly headSha: string;
  readonly baseSha: string;
  /** owner/name of the head's repository: a fork when it differs from the base's. */
  readonly headRepo: string;
  readonly baseRepo: string;
  readonly title: string;
}

export type CheckConclusion = "success" | "failure" | "neutral" | "cancelled";

export interface CheckOutput {
  readonly title: string;
  readonly summary: string;
  readonly text?: string;
}

export interface CheckRun {
  readonly id: number;
  readonly headSha: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  /** The slug of the GitHub App that created it: only that app can create or update it. */
  readonly app: string | null;
  /** Its output text (where the gate's result marker is). */
  readonly text: string | null;
}

export interface GitHubPort {
  listComments(issue: number): Promise<IssueComment[]>;
  createComment(issue: number, body: string): Promise<IssueComment>;
  updateComment(commentId: number, body: string): Promise<void>;
  addReaction(commentId: number, reaction: Reaction): Promise<void>;
  /** Throws when the permission cannot be read; callers deny on any error (fail closed). */
  permission(username: string): Promise<{ permission: Permission; roleName: string }>;
  getPull(number: number): Promise<PullRequest>;
  pullCommits(number: number): Promise<string[]>;
  createCheck(headSha: string, name: string, output: CheckOutput): Promise<number>;
  completeCheck(checkId: number, conclusion: CheckConclusion, output: CheckOutput): Promise<void>;
  /** Every check run of that name on the commit (all pages, not only the latest). */
  listChecks(headSha: string, name: string): Promise<CheckRun[]>;
  /** The login of a user (or app bot) by numeric id. */
  userLogin(userId: number): Promise<string>;
}

/** An HTTP error from the API, with the status when there was one. */
export class GitHubError extends Error {
  override name = "GitHubError";
  readonly status: number | undefined;
  constructor(message: string, status: number | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}
