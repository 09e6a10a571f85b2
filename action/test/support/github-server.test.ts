// The local GitHub server: Octokit works against it unchanged, every request and response is
// validated against GitHub's OpenAPI description, and each injected fault behaves as GitHub does.
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startGitHubServer, type GitHubServer } from "./github-server.ts";
import { specLoadMs } from "./openapi-validator.ts";
import {
  issueCommentCreated,
  issueCommentDeleted,
  issueCommentEdited,
  issueCommentOnPull,
  pullRequestOpened,
  pullRequestSynchronize,
  push,
} from "./webhook-payloads.ts";

const OWNER = "octo-org";
const REPO = "benchgate-demo";
const repo = { owner: OWNER, repo: REPO };
const sha = (n: number): string => n.toString(16).padStart(40, "0");
const HEAD = sha(0xaaa);
const BASE = sha(0xbbb);
const MARKER = "<!-- benchgate:sticky -->";

let server: GitHubServer;
let startMs = 0;

beforeAll(async () => {
  const started = performance.now();
  server = await startGitHubServer({
    permissions: { alice: "admin", maya: "maintain", tom: "triage", mallory: "read" },
    tokens: {
      "test-token": "github-actions[bot]",
      "fork-token": {
        login: "github-actions[bot]",
        permissions: { issues: "read", pull_requests: "read", checks: "read" },
      },
    },
    prs: [
      {
        number: 7,
        title: "Speed up parsing",
        head: { sha: HEAD, ref: "feature/fast" },
        base: { sha: BASE, ref: "main" },
        commits: [sha(1), sha(2), HEAD],
        user: "alice",
      },
      {
        number: 8,
        draft: true,
        head: { sha: sha(0xccc), ref: "patch-1", repo: "mallory/benchgate-demo" },
        base: { sha: BASE, ref: "main" },
        user: "mallory",
      },
    ],
  });
  startMs = performance.now() - started;
});
afterAll(() => server.close());
afterEach(() => {
  server.faults.length = 0;
  server.responseHook = undefined;
});

const octokit = (auth = "test-token"): Octokit =>
  new Octokit({ baseUrl: server.url, auth, request: { retries: 0 } });

/** Runs `fn` and returns the violations it added (and clears them). */
async function violationsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const before = server.violations.length;
  await fn().catch(() => {});
  return server.violations.splice(before);
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe("Octokit against the local server, with zero violations", () => {
  afterEach(() => expect(server.violations).toEqual([]));

  it("starts quickly once the spec is loaded (it is read once per process)", async () => {
    expect(specLoadMs).toBeGreaterThan(0);
    const t = performance.now();
    const second = await startGitHubServer();
    const secondMs = performance.now() - t;
    await second.close();
    expect(secondMs).toBeLessThan(500);
    expect(startMs).toBeGreaterThanOrEqual(0);
  });

  it("creates, lists, updates and deletes comments, authored by the token's bot", async () => {
    const gh = octokit();
    const created = await gh.rest.issues.createComment({ ...repo, issue_number: 7, body: "first" });
    expect(created.status).toBe(201);
    expect(created.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(created.headers["x-github-request-id"]).toMatch(/^[0-9A-F:]+$/);
    expect(created.headers.location).toBe(created.data.url);
    expect(created.data.user).toMatchObject({
      login: "github-actions[bot]",
      id: 41898282,
      type: "Bot",
    });
    expect(created.data.html_url).toBe(
      `https://github.com/${OWNER}/${REPO}/pull/7#issuecomment-${created.data.id}`,
    );
    const updated = await gh.rest.issues.updateComment({
      ...repo,
      comment_id: created.data.id,
      body: `${MARKER}\nsecond`,
    });
    expect(updated.data.body).toBe(`${MARKER}\nsecond`);
    const listed = await gh.rest.issues.listComments({ ...repo, issue_number: 7 });
    expect(listed.data.map((c) => c.body)).toEqual([`${MARKER}\nsecond`]);
    expect(server.state.comments.find((c) => c.id === created.data.id)?.body).toContain("second");
    expect(
      (await gh.rest.issues.deleteComment({ ...repo, comment_id: created.data.id })).status,
    ).toBe(204);
    expect(
      await statusOf(
        gh.rest.issues.updateComment({ ...repo, comment_id: created.data.id, body: "x" }),
      ),
    ).toBe(404);
  });

  it("paginates 250 comments over 3 pages with GitHub's Link header", async () => {
    for (let i = 0; i < 250; i++)
      server.seedComment({ issue_number: 42, body: `c${i}`, user: "alice" });
    const gh = octokit();
    const before = server.requests.length;
    const all = await gh.paginate(gh.rest.issues.listComments, {
      ...repo,
      issue_number: 42,
      per_page: 100,
    });
    expect(all.map((c) => c.body)).toEqual(Array.from({ length: 250 }, (_, i) => `c${i}`));
    expect(server.requests.slice(before).map((r) => [r.query["page"], r.status])).toEqual([
      [undefined, 200],
      ["2", 200],
      ["3", 200],
    ]);
    const second = await gh.rest.issues.listComments({ ...repo, issue_number: 42, page: 2 });
    const base = `${server.url}/repos/${OWNER}/${REPO}/issues/42/comments?page=`;
    expect(second.data).toHaveLength(30); // default per_page
    expect(second.headers.link).toBe(
      `<${base}1>; rel="prev", <${base}3>; rel="next", <${base}9>; rel="last", <${base}1>; rel="first"`,
    );
    const capped = await gh.rest.issues.listComments({ ...repo, issue_number: 42, per_page: 500 });
    expect(capped.data).toHaveLength(100);
  });

  it("shows a seeded comment by another user copying the bot's marker as theirs", async () => {
    server.seedComment({ issue_number: 9, body: `${MARKER}\nfake verdict`, user: "mallory" });
    const { data } = await octokit().rest.issues.listComments({ ...repo, issue_number: 9 });
    expect(data[0]?.user).toMatchObject({ login: "mallory", type: "User" });
    expect(data[0]?.author_association).toBe("NONE");
  });

  it("adds reactions: 201 when new, 200 when the same user already reacted so", async () => {
    const gh = octokit();
    const { data: comment } = await gh.rest.issues.createComment({
      ...repo,
      issue_number: 7,
      body: "go",
    });
    const react = (content: "+1" | "eyes") =>
      gh.rest.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content });
    expect((await react("eyes")).status).toBe(201);
    const again = await react("eyes");
    expect(again.status).toBe(200);
    expect(again.data.user?.login).toBe("github-actions[bot]");
    await react("+1");
    const [listed] = (await gh.rest.issues.listComments({ ...repo, issue_number: 7 })).data.filter(
      (c) => c.id === comment.id,
    );
    expect(listed?.reactions).toMatchObject({ total_count: 2, eyes: 1, "+1": 1 });
    expect(
      await statusOf(
        gh.rest.reactions.createForIssueComment({ ...repo, comment_id: 1, content: "+1" }),
      ),
    ).toBe(404);
  });

  it("reads collaborator permissions; a non-collaborator is 404", async () => {
    const gh = octokit();
    const get = (username: string) =>
      gh.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
    expect((await get("alice")).data).toMatchObject({ permission: "admin", role_name: "admin" });
    expect((await get("maya")).data).toMatchObject({ permission: "write", role_name: "maintain" });
    expect((await get("tom")).data).toMatchObject({ permission: "read", role_name: "triage" });
    expect((await get("mallory")).data.user?.permissions).toMatchObject({
      pull: true,
      push: false,
    });
    expect(await statusOf(get("stranger"))).toBe(404);
  });

  it("gets a pull request and its commits, including one from a fork", async () => {
    const gh = octokit();
    const { data: pr } = await gh.rest.pulls.get({ ...repo, pull_number: 7 });
    expect(pr).toMatchObject({
      number: 7,
      state: "open",
      draft: false,
      locked: false,
      merged: false,
    });
    expect([pr.head.sha, pr.head.ref, pr.base.sha, pr.base.repo.full_name]).toEqual([
      HEAD,
      "feature/fast",
      BASE,
      `${OWNER}/${REPO}`,
    ]);
    const commits = await gh.paginate(gh.rest.pulls.listCommits, {
      ...repo,
      pull_number: 7,
      per_page: 2,
    });
    expect(commits.map((c) => c.sha)).toEqual([sha(1), sha(2), HEAD]);
    expect(commits[0]?.parents[0]?.sha).toBe(BASE);
    const { data: fork } = await gh.rest.pulls.get({ ...repo, pull_number: 8 });
    expect(fork).toMatchObject({
      draft: true,
      head: { repo: { full_name: "mallory/benchgate-demo", fork: true } },
    });
    expect(await statusOf(gh.rest.pulls.get({ ...repo, pull_number: 99 }))).toBe(404);
  });

  it("creates, updates and lists check runs (latest per name by default, filtered by name)", async () => {
    const gh = octokit();
    const output = { title: "benchgate", summary: "running" };
    const first = await gh.rest.checks.create({
      ...repo,
      name: "benchgate",
      head_sha: HEAD,
      status: "in_progress",
      output,
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({
      status: "in_progress",
      conclusion: null,
      app: { slug: "github-actions" },
    });
    expect(first.data.pull_requests.map((p) => p.number)).toEqual([7]);
    const done = await gh.rest.checks.update({
      ...repo,
      check_run_id: first.data.id,
      status: "completed",
      conclusion: "failure",
      output: { ...output, summary: "2 regressions", text: "details" },
    });
    expect(done.data).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { summary: "2 regressions" },
    });
    expect(done.data.completed_at).not.toBeNull();
    const second = await gh.rest.checks.create({
      ...repo,
      name: "benchgate",
      head_sha: HEAD,
      conclusion: "success",
      output,
    });
    expect(second.data.status).toBe("completed");
    await gh.rest.checks.create({ ...repo, name: "other", head_sha: HEAD });
    const latest = await gh.rest.checks.listForRef({ ...repo, ref: HEAD, check_name: "benchgate" });
    expect(latest.data.check_runs.map((r) => r.id)).toEqual([second.data.id]);
    const all = await gh.rest.checks.listForRef({
      ...repo,
      ref: HEAD,
      check_name: "benchgate",
      filter: "all",
    });
    expect(all.data).toMatchObject({ total_count: 2 });
    const byBranch = await gh.rest.checks.listForRef({ ...repo, ref: "heads/feature/fast" });
    expect(byBranch.data.check_runs.map((r) => r.name).sort()).toEqual(["benchgate", "other"]);
  });

  it("finds a user by id, the bot as GitHub shows it; an unknown id is 404", async () => {
    const gh = octokit();
    const { data } = await gh.rest.users.getById({ account_id: 41898282 });
    expect(data).toMatchObject({ login: "github-actions[bot]", id: 41898282, type: "Bot" });
    expect(await statusOf(gh.rest.users.getById({ account_id: 1 }))).toBe(404);
  });
});

describe("validation: what GitHub would refuse is refused and recorded", () => {
  const gh = (): Octokit => octokit();
  const request = (route: string, params: Record<string, unknown>) =>
    gh().request(route, { ...repo, ...params });

  it("a comment without a body is a 422 and a violation", async () => {
    let status = 0;
    const found = await violationsOf(async () => {
      status = await statusOf(
        request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { issue_number: 7 }),
      );
    });
    expect(status).toBe(422);
    expect(found).toEqual([
      `issues/create-comment POST /repos/${OWNER}/${REPO}/issues/7/comments: request body is required`,
    ]);
  });

  it("a reaction 'thumbs' is a 422 naming the enum", async () => {
    const { data } = await gh().rest.issues.createComment({ ...repo, issue_number: 7, body: "x" });
    let status = 0;
    const found = await violationsOf(async () => {
      status = await statusOf(
        request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
          comment_id: data.id,
          content: "thumbs",
        }),
      );
    });
    expect(status).toBe(422);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /reactions\/create-for-issue-comment .*request body: \/content must be equal to one of the allowed values/,
    );
  });

  it("an unknown path, an unimplemented operation, a bad path parameter, broken JSON", async () => {
    const found = await violationsOf(async () => {
      expect(await statusOf(gh().request("GET /repos/{owner}/{repo}/no-such-thing", repo))).toBe(
        404,
      );
      expect(await statusOf(gh().rest.issues.listLabelsForRepo(repo))).toBe(404);
      expect(
        await statusOf(
          request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { pull_number: "abc" }),
        ),
      ).toBe(404);
      const res = await fetch(`${server.url}/repos/${OWNER}/${REPO}/issues/7/comments`, {
        method: "POST",
        headers: { authorization: "token test-token", "content-type": "application/json" },
        body: '{"body": ',
      });
      expect(res.status).toBe(400);
    });
    expect(found).toEqual([
      `(no operation) GET /repos/${OWNER}/${REPO}/no-such-thing: no operation of GitHub's REST API has this method and path`,
      `issues/list-labels-for-repo GET /repos/${OWNER}/${REPO}/labels: the fake does not implement this operation`,
      `pulls/get GET /repos/${OWNER}/${REPO}/pulls/abc: path parameter pull_number="abc": must be integer`,
      `(no operation) POST /repos/${OWNER}/${REPO}/issues/7/comments: request body is not JSON`,
    ]);
  });

  it("what GitHub silently ignores is still a violation: unknown query and body fields", async () => {
    const found = await violationsOf(async () => {
      await request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        issue_number: 7,
        perPage: 100,
      });
      await request("POST /repos/{owner}/{repo}/check-runs", {
        name: "b",
        head_sha: HEAD,
        conclution: "success",
      });
    });
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('unknown query parameter "perPage"');
    expect(found[1]).toMatch(/checks\/create .*must NOT have unevaluated properties.*conclution/);
  });

  it("GitHub's semantic limits: a 65537-character body, a head_sha that is a branch name", async () => {
    const found = await violationsOf(async () => {
      expect(
        await statusOf(
          gh().rest.issues.createComment({ ...repo, issue_number: 7, body: "x".repeat(65537) }),
        ),
      ).toBe(422);
      expect(
        await statusOf(gh().rest.checks.create({ ...repo, name: "b", head_sha: "main" })),
      ).toBe(422);
    });
    expect(found.map((v) => v.split(": ").slice(1).join(": "))).toEqual([
      "comment body has 65537 characters; GitHub's limit is 65536",
      'head_sha "main" is not a full commit SHA',
    ]);
  });

  it("a response of the fake that drifts from GitHub's schema is a violation", async () => {
    server.responseHook = (op, _status, body) => {
      if (op === "issues/create-comment") delete (body as Record<string, unknown>)["node_id"];
      if (op === "pulls/get") (body as Record<string, unknown>)["mergable"] = true;
      return body;
    };
    const found = await violationsOf(async () => {
      await gh().rest.issues.createComment({ ...repo, issue_number: 7, body: "x" });
      await gh().rest.pulls.get({ ...repo, pull_number: 7 });
    });
    expect(found).toEqual([
      `issues/create-comment POST /repos/${OWNER}/${REPO}/issues/7/comments: response 201: (root) must have required property 'node_id'`,
      `pulls/get GET /repos/${OWNER}/${REPO}/pulls/7: response 200: (root) must NOT have unevaluated properties {"unevaluatedProperty":"mergable"}`,
    ]);
  });

  it("auth: a bad token is 401; a read-only (fork) token is 403 on writes", async () => {
    expect(await statusOf(octokit("nope").rest.pulls.get({ ...repo, pull_number: 7 }))).toBe(401);
    const fork = octokit("fork-token");
    expect((await fork.rest.pulls.get({ ...repo, pull_number: 7 })).status).toBe(200);
    const denied = await fork.rest.issues
      .createComment({ ...repo, issue_number: 7, body: "x" })
      .catch((e: unknown) => e);
    expect(denied).toMatchObject({ status: 403 });
    expect((denied as Error).message).toContain("Resource not accessible by integration");
    expect(
      await statusOf(octokit().rest.pulls.get({ owner: "someone", repo: "else", pull_number: 7 })),
    ).toBe(404);
    expect(server.violations).toEqual([]);
  });
});

describe("faults", () => {
  afterEach(() => expect(server.violations).toEqual([]));
  const create = (gh = octokit()) =>
    gh.rest.issues.createComment({ ...repo, issue_number: 11, body: "hello" });
  const comments11 = (): number =>
    server.state.comments.filter((c) => c.issue_number === 11).length;

  it.each([500, 502, 503])("status %i, then back to normal", async (status) => {
    server.inject({ kind: "status", status, operationId: "pulls/get" });
    expect(await statusOf(octokit().rest.pulls.get({ ...repo, pull_number: 7 }))).toBe(status);
    expect(server.requests.at(-1)).toMatchObject({ status, fault: "status" });
    expect(await statusOf(octokit().rest.pulls.get({ ...repo, pull_number: 7 }))).toBe(200);
  });

  it("a secondary rate limit: 403 with retry-after and GitHub's message (429 too)", async () => {
    server.inject({
      kind: "secondary-rate-limit",
      retryAfter: 7,
      method: "POST",
      path: /\/comments$/,
    });
    const error = (await create().catch((e: unknown) => e)) as {
      status: number;
      message: string;
      response: { headers: Record<string, string> };
    };
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/You have exceeded a secondary rate limit/);
    expect(error.response.headers["retry-after"]).toBe("7");
    server.inject({ kind: "secondary-rate-limit", status: 429 });
    expect(await statusOf(create())).toBe(429);
  });

  it("the throttling plugin waits retry-after and retries a secondary rate limit", async () => {
    const Throttled = Octokit.plugin(throttling);
    const waits: number[] = [];
    const gh = new Throttled({
      baseUrl: server.url,
      auth: "test-token",
      throttle: {
        onRateLimit: () => false,
        onSecondaryRateLimit: (after: number) => (waits.push(after), waits.length < 2),
      },
    });
    server.inject({ kind: "secondary-rate-limit", retryAfter: 1, operationId: "pulls/get" });
    expect((await gh.rest.pulls.get({ ...repo, pull_number: 7 })).status).toBe(200);
    expect(waits).toEqual([1]);
  });

  it("a primary rate limit: 403 with x-ratelimit-remaining 0 and the reset time", async () => {
    server.inject({ kind: "rate-limit", resetInSeconds: 120, operationId: "pulls/get", times: 2 });
    const error = (await octokit()
      .rest.pulls.get({ ...repo, pull_number: 7 })
      .catch((e: unknown) => e)) as {
      status: number;
      response: { headers: Record<string, string> };
    };
    expect(error.status).toBe(403);
    expect(error.response.headers["x-ratelimit-remaining"]).toBe("0");
    const reset = Number(error.response.headers["x-ratelimit-reset"]);
    expect(reset - Date.now() / 1000).toBeGreaterThan(100);
    expect(await statusOf(octokit().rest.pulls.get({ ...repo, pull_number: 7 }))).toBe(403);
    expect(await statusOf(octokit().rest.pulls.get({ ...repo, pull_number: 7 }))).toBe(200);
  });

  it("a delay makes a client time out, and the write still happens (like GitHub's)", async () => {
    server.inject({ kind: "delay", ms: 300, operationId: "issues/create-comment" });
    const before = comments11();
    const slow = octokit().rest.issues.createComment({
      ...repo,
      issue_number: 11,
      body: "slow",
      request: { signal: AbortSignal.timeout(50) },
    });
    await expect(slow).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(comments11()).toBe(before + 1);
  });

  it("commit-then-fail: the comment is stored, the client sees 502", async () => {
    server.inject({ kind: "commit-then-fail", operationId: "issues/create-comment" });
    const before = comments11();
    expect(await statusOf(create())).toBe(502);
    expect(comments11()).toBe(before + 1);
    expect(server.requests.at(-1)).toMatchObject({ status: 502, fault: "commit-then-fail" });
  });

  it("malformed JSON: Octokit hands back the text", async () => {
    server.inject({ kind: "malformed-json", operationId: "pulls/get" });
    const { data } = await octokit().rest.pulls.get({ ...repo, pull_number: 7 });
    expect(typeof data).toBe("string");
    expect(() => JSON.parse(data as unknown as string) as unknown).toThrow();
  });

  it("a connection reset is a network error", async () => {
    server.inject({ kind: "connection-reset", operationId: "pulls/get" });
    await expect(octokit().rest.pulls.get({ ...repo, pull_number: 7 })).rejects.toThrow();
    expect(server.requests.at(-1)?.fault).toBe("connection-reset");
  });
});

describe("webhook payloads from @octokit/webhooks-examples", () => {
  it("issue_comment created/edited/deleted, on an issue and on a pull request", () => {
    const c = issueCommentCreated({
      body: `${MARKER} hi`,
      user: { login: "mallory", id: 3, type: "User" },
      issueNumber: 7,
    });
    expect(c).toMatchObject({
      action: "created",
      comment: { body: `${MARKER} hi`, user: { login: "mallory" } },
    });
    expect(c.issue.pull_request).toBeUndefined();
    expect(c.sender.login).toBe("mallory");
    const onPull = issueCommentOnPull({ issueNumber: 7, body: "/benchgate run" });
    expect(onPull.issue.pull_request?.html_url).toMatch(/\/pull\/7$/);
    expect(issueCommentEdited({ body: "b" }).action).toBe("edited");
    expect(issueCommentDeleted().action).toBe("deleted");
    expect(issueCommentCreated().comment.body).not.toContain(MARKER); // fresh copies
  });

  it("pull_request opened/synchronize and push, with overrides", () => {
    const opened = pullRequestOpened({
      number: 7,
      headSha: HEAD,
      baseSha: BASE,
      repository: `${OWNER}/${REPO}`,
    });
    expect([
      opened.number,
      opened.pull_request.head.sha,
      opened.pull_request.base.repo.full_name,
    ]).toEqual([7, HEAD, `${OWNER}/${REPO}`]);
    const fromFork = pullRequestSynchronize({
      headRepo: "mallory/benchgate-demo",
      headSha: sha(5),
      before: HEAD,
    });
    expect(fromFork).toMatchObject({
      before: HEAD,
      after: sha(5),
      pull_request: { head: { repo: { fork: true } } },
    });
    const pushed = push({ ref: "refs/heads/main", after: HEAD });
    expect([pushed.ref, pushed.after, pushed.head_commit?.id]).toEqual([
      "refs/heads/main",
      HEAD,
      HEAD,
    ]);
  });
});
