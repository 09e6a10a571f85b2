// GitHubPort on Octokit, built once with the retry and throttling plugins (docs/threat-model.md, O4):
// rate limits and secondary limits wait as GitHub asks (retry-after / reset) and retry a few
// times; 5xx and network errors are retried, except on creating a comment, where a retry after
// an ambiguous failure could post a duplicate (the sticky-comment logic re-lists instead).
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import {
  GitHubError,
  type CheckConclusion,
  type CheckOutput,
  type GitHubPort,
  type IssueComment,
  type Permission,
} from "../ports/github.ts";

const BenchgateOctokit = Octokit.plugin(retry, throttling);

interface OctokitOptions {
  readonly token: string;
  readonly owner: string;
  readonly repo: string;
  /** https://api.github.com, or GITHUB_API_URL (GHES, tests). */
  readonly baseUrl: string;
  readonly log: (text: string) => void;
  /** Rate-limit retries before giving up (default 3). */
  readonly maxRetries?: number;
  /** Per request attempt; a stalled API must not outlive the job (default 30 s). */
  readonly timeoutMs?: number;
  /** Longest rate-limit wait worth sitting out; beyond it the call fails (default 120 s). */
  readonly maxWaitSeconds?: number;
}

const PERMISSIONS: readonly Permission[] = ["admin", "maintain", "write", "triage", "read", "none"];

function wrap(what: string, error: unknown): GitHubError {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  return new GitHubError(`${what}: ${message}`, typeof status === "number" ? status : undefined, {
    cause: error,
  });
}

export function octokitGitHub(options: OctokitOptions): GitHubPort {
  const client: Client = {
    octokit: createOctokit(options),
    repo: { owner: options.owner, repo: options.repo },
  };
  return { ...commentCalls(client), ...pullRequestCalls(client), ...checkCalls(client) };
}

/** The one configured Octokit and the repository every call is about. */
interface Client {
  readonly octokit: InstanceType<typeof BenchgateOctokit>;
  readonly repo: { readonly owner: string; readonly repo: string };
}

function createOctokit(options: OctokitOptions): InstanceType<typeof BenchgateOctokit> {
  const maxRetries = options.maxRetries ?? 3;
  const maxWait = options.maxWaitSeconds ?? 120;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // The throttling plugin's answer to a rate limit: log, then wait (true) within the retry and
  // wait caps, or give up (false) so the call fails with the API's error.
  const waitOrGiveUp =
    (what: string) =>
    (after: number, req: { method: string; url: string }, _o: unknown, count: number): boolean => {
      options.log(`${what} on ${req.method} ${req.url}: waiting ${after} s (retry ${count + 1})`);
      return count < maxRetries && after <= maxWait;
    };
  const octokit = new BenchgateOctokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: "benchgate",
    // Octokit's own warnings repeat what our error messages say; keep only its errors.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: options.log },
    retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    throttle: {
      onRateLimit: waitOrGiveUp("GitHub rate limit"),
      onSecondaryRateLimit: waitOrGiveUp("GitHub secondary rate limit"),
    },
  });
  // Every attempt gets its own deadline (the retry plugin's attempts each start a new one).
  octokit.hook.before("request", (req) => {
    req.request = { ...req.request, signal: AbortSignal.timeout(timeoutMs) };
  });
  return octokit;
}

/** Every API call fails as a GitHubError saying what was being done, with the HTTP status. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw wrap(what, error);
  }
}

function toComment(c: {
  id: number;
  body?: string | undefined;
  created_at: string;
  user: { id: number; login: string; type: string } | null;
}): IssueComment {
  return {
    id: c.id,
    body: c.body ?? "",
    createdAt: c.created_at,
    author: { id: c.user?.id ?? 0, login: c.user?.login ?? "", type: c.user?.type ?? "" },
  };
}

/** The sticky comment, command replies and reactions on comments. */
function commentCalls({
  octokit,
  repo,
}: Client): Pick<GitHubPort, "listComments" | "createComment" | "updateComment" | "addReaction"> {
  return {
    listComments: (issue) =>
      call(`listing comments of #${issue}`, async () => {
        const all = await octokit.paginate(octokit.rest.issues.listComments, {
          ...repo,
          issue_number: issue,
          per_page: 100,
        });
        return all.map(toComment);
      }),
    createComment: (issue, body) =>
      call(`commenting on #${issue}`, async () => {
        const { data } = await octokit.rest.issues.createComment({
          ...repo,
          issue_number: issue,
          body,
          request: { retries: 0 },
        });
        return toComment(data);
      }),
    updateComment: (commentId, body) =>
      call(`updating comment ${commentId}`, async () => {
        await octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body });
      }),
    addReaction: (commentId, content) =>
      call(`reacting to comment ${commentId}`, async () => {
        await octokit.rest.reactions.createForIssueComment({
          ...repo,
          comment_id: commentId,
          content,
        });
      }),
  };
}

/** What authorizing a command reads: the commenter's permission, the pull request, its commits. */
function pullRequestCalls({
  octokit,
  repo,
}: Client): Pick<GitHubPort, "permission" | "getPull" | "pullCommits"> {
  return {
    permission: (username) =>
      call(`reading ${username}'s permission`, async () => {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
          ...repo,
          username,
        });
        const permission = PERMISSIONS.find((p) => p === data.permission);
        if (permission === undefined)
          throw new Error(`unexpected permission ${JSON.stringify(data.permission)}`);
        return { permission, roleName: data.role_name };
      }),
    getPull: (number) =>
      call(`reading pull request #${number}`, async () => {
        const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
        return {
          number: data.number,
          state: data.state === "open" ? "open" : "closed",
          draft: data.draft === true,
          locked: data.locked,
          merged: data.merged,
          headSha: data.head.sha,
          baseSha: data.base.sha,
          headRepo: data.head.repo?.full_name ?? "",
          baseRepo: data.base.repo.full_name,
          title: data.title,
        };
      }),
    pullCommits: (number) =>
      call(`listing the commits of #${number}`, async () => {
        const commits = await octokit.paginate(octokit.rest.pulls.listCommits, {
          ...repo,
          pull_number: number,
          per_page: 100,
        });
        return commits.map((c) => c.sha);
      }),
  };
}

/**
 * The benchgate check run: created in progress, completed with the verdict, listed by name; and
 * the bot's login, which names the app whose check runs are benchgate's (bot/gate-result.ts).
 */
function checkCalls({
  octokit,
  repo,
}: Client): Pick<GitHubPort, "createCheck" | "completeCheck" | "listChecks" | "userLogin"> {
  return {
    createCheck: (headSha, name, output: CheckOutput) =>
      call(`creating the ${name} check`, async () => {
        const { data } = await octokit.rest.checks.create({
          ...repo,
          name,
          head_sha: headSha,
          status: "in_progress",
          output,
        });
        return data.id;
      }),
    completeCheck: (checkId, conclusion: CheckConclusion, output) =>
      call(`completing check ${checkId}`, async () => {
        await octokit.rest.checks.update({
          ...repo,
          check_run_id: checkId,
          status: "completed",
          conclusion,
          output,
        });
      }),
    listChecks: (headSha, name) =>
      call(`listing the ${name} checks of ${headSha.slice(0, 12)}`, async () => {
        // filter "all": the default ("latest") hides older runs, and with them a run still going.
        const runs = await octokit.paginate(octokit.rest.checks.listForRef, {
          ...repo,
          ref: headSha,
          check_name: name,
          filter: "all",
          per_page: 100,
        });
        return runs.map((c) => ({
          id: c.id,
          headSha: c.head_sha,
          status: c.status,
          conclusion: c.conclusion,
          startedAt: c.started_at,
          completedAt: c.completed_at,
          app: c.app?.slug ?? null,
          text: c.output.text,
        }));
      }),
    userLogin: (userId) =>
      call(`reading user ${userId}`, async () => {
        const { data } = await octokit.rest.users.getById({ account_id: userId });
        return data.login;
      }),
  };
}
