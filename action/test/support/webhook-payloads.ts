// Real webhook payloads (GitHub's own examples, from @octokit/webhooks-examples) for the bot's
// tests, so events have GitHub's shapes. The package ships one file, api.github.com/index.json:
// one definition per event with its example payloads. Every loader returns a fresh deep copy
// (structuredClone) with the requested overrides applied.
//
// The examples hold no issue_comment on a pull request: issueCommentOnPull derives one from the
// plain-issue example by adding `issue.pull_request` (and the /pull/ html_url), as GitHub sends
// for a comment on a PR's conversation.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";

export type EventName = WebhookDefinition["name"];
export type Payload<N extends EventName> = WebhookDefinition<N>["examples"][number];
type WithAction<N extends EventName, A extends string> = Extract<Payload<N>, { action: A }>;
export type IssueCommentCreated = WithAction<"issue_comment", "created">;
export type IssueCommentEdited = WithAction<"issue_comment", "edited">;
export type IssueCommentDeleted = WithAction<"issue_comment", "deleted">;
export type PullRequestOpened = WithAction<"pull_request", "opened">;
export type PullRequestSynchronize = WithAction<"pull_request", "synchronize">;
export type PushEvent = Payload<"push">;

let definitions: WebhookDefinition[] | undefined;

/** The first example of `name` that `pick` accepts (all of them by default), deep-copied. */
export function webhookExample<N extends EventName>(
  name: N,
  pick: (payload: Payload<N>) => boolean = () => true,
): Payload<N> {
  definitions ??= JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8"),
  ) as WebhookDefinition[];
  const definition = definitions.find((d) => d.name === name) as WebhookDefinition<N> | undefined;
  const example = definition?.examples.find(pick);
  if (example === undefined)
    throw new Error(`@octokit/webhooks-examples has no such ${name} example`);
  return structuredClone(example);
}

const byAction =
  (action: string) =>
  (p: object): boolean =>
    "action" in p && p.action === action;

/** Fields a comment event's test usually sets; absent ones keep the example's values. */
export interface CommentOverrides {
  body?: string;
  /** The comment's author (also the sender). */
  user?: { login?: string; id?: number; type?: "User" | "Bot" | "Organization" };
  commentId?: number;
  issueNumber?: number;
  /** "owner/name" */
  repository?: string;
}

/** Fields a pull_request event's test usually sets. */
export interface PullOverrides {
  number?: number;
  headSha?: string;
  headRef?: string;
  baseSha?: string;
  baseRef?: string;
  /** "owner/name" of the head repository (a fork); default the base repository. */
  headRepo?: string;
  draft?: boolean;
  /** The author (also the sender). */
  user?: { login?: string; id?: number; type?: "User" | "Bot" | "Organization" };
  repository?: string;
}

type Repo = { name: string; full_name: string; owner: { login: string } };
type Account = { login: string; id: number; type: string };

function setRepository(repo: Repo, fullName: string | undefined): void {
  if (fullName === undefined) return;
  const [owner = "", name = ""] = fullName.split("/");
  Object.assign(repo, { name, full_name: fullName });
  repo.owner.login = owner;
}

function setAccount(account: Account, o: CommentOverrides["user"]): void {
  if (o?.login !== undefined) account.login = o.login;
  if (o?.id !== undefined) account.id = o.id;
  if (o?.type !== undefined) account.type = o.type;
}

function applyComment<T extends IssueCommentCreated | IssueCommentEdited | IssueCommentDeleted>(
  p: T,
  o: CommentOverrides,
): T {
  if (o.body !== undefined) p.comment.body = o.body;
  if (o.commentId !== undefined) p.comment.id = o.commentId;
  setAccount(p.comment.user, o.user);
  setAccount(p.sender, o.user);
  if (o.issueNumber !== undefined) {
    p.issue.number = o.issueNumber;
    p.issue.html_url = p.issue.html_url.replace(/\/\d+$/, `/${o.issueNumber}`);
    p.issue.url = p.issue.url.replace(/\/\d+$/, `/${o.issueNumber}`);
    p.comment.issue_url = p.issue.url;
  }
  setRepository(p.repository, o.repository);
  return p;
}

export const issueCommentCreated = (o: CommentOverrides = {}): IssueCommentCreated =>
  applyComment(webhookExample("issue_comment", byAction("created")) as IssueCommentCreated, o);

export const issueCommentEdited = (o: CommentOverrides = {}): IssueCommentEdited =>
  applyComment(webhookExample("issue_comment", byAction("edited")) as IssueCommentEdited, o);

export const issueCommentDeleted = (o: CommentOverrides = {}): IssueCommentDeleted =>
  applyComment(webhookExample("issue_comment", byAction("deleted")) as IssueCommentDeleted, o);

/** issue_comment.created on a pull request's conversation (issue.pull_request is set). */
export function issueCommentOnPull(o: CommentOverrides = {}): IssueCommentCreated {
  const p = issueCommentCreated(o);
  const api = p.issue.url.replace(/\/issues\/\d+$/, `/pulls/${p.issue.number}`);
  const html = p.issue.html_url.replace(/\/issues\/(\d+)$/, "/pull/$1");
  p.issue.html_url = html;
  p.issue.pull_request = {
    url: api,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    merged_at: null,
  };
  p.comment.html_url = `${html}#issuecomment-${p.comment.id}`;
  return p;
}

function applyPull<T extends PullRequestOpened | PullRequestSynchronize>(
  p: T,
  o: PullOverrides,
): T {
  const pr = p.pull_request;
  setRepository(p.repository, o.repository);
  setRepository(pr.base.repo, o.repository);
  if (o.number !== undefined) {
    p.number = o.number;
    pr.number = o.number;
    pr.url = pr.url.replace(/\/\d+$/, `/${o.number}`);
    pr.html_url = pr.html_url.replace(/\/\d+$/, `/${o.number}`);
  }
  if (o.headSha !== undefined) pr.head.sha = o.headSha;
  if (o.headRef !== undefined) pr.head.ref = o.headRef;
  if (o.baseSha !== undefined) pr.base.sha = o.baseSha;
  if (o.baseRef !== undefined) pr.base.ref = o.baseRef;
  if (o.draft !== undefined) pr.draft = o.draft;
  if (pr.head.repo) setRepository(pr.head.repo, o.headRepo ?? o.repository);
  if (pr.head.repo) pr.head.repo.fork = pr.head.repo.full_name !== pr.base.repo.full_name;
  pr.head.label = `${pr.head.repo?.owner.login ?? pr.head.user.login}:${pr.head.ref}`;
  pr.base.label = `${pr.base.repo.owner.login}:${pr.base.ref}`;
  setAccount(pr.user, o.user);
  setAccount(p.sender, o.user);
  return p;
}

export const pullRequestOpened = (o: PullOverrides = {}): PullRequestOpened =>
  applyPull(webhookExample("pull_request", byAction("opened")) as PullRequestOpened, o);

/** pull_request.synchronize; `before` is set to the old head, `after` to headSha. */
export function pullRequestSynchronize(
  o: PullOverrides & { before?: string } = {},
): PullRequestSynchronize {
  const p = applyPull(
    webhookExample("pull_request", byAction("synchronize")) as PullRequestSynchronize,
    o,
  );
  if (o.before !== undefined) p.before = o.before;
  p.after = p.pull_request.head.sha;
  return p;
}

/** A push of one commit to refs/heads/master, with `ref`, `after` (and its head_commit id). */
export function push(
  o: { ref?: string; before?: string; after?: string; repository?: string } = {},
): PushEvent {
  const p = webhookExample("push", (e) => e.ref.startsWith("refs/heads/") && e.commits.length > 0);
  if (o.ref !== undefined) p.ref = o.ref;
  if (o.before !== undefined) p.before = o.before;
  if (o.after !== undefined) {
    p.after = o.after;
    if (p.head_commit) p.head_commit.id = o.after;
    const last = p.commits[p.commits.length - 1];
    if (last) last.id = o.after;
  }
  setRepository(p.repository, o.repository);
  return p;
}
