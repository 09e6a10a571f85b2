// The GitHub layer's reliability through the real Octokit adapter (retry + throttling plugins)
// against the OpenAPI-validating local server: docs/threat-model.md O3 and O4, C3 and C4 over
// HTTP, the client timeout, and C6 statically on the workflows. The in-memory cases are in
// src/bot/bot.test.ts and src/github/sticky-comment.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import type { CommentEvent } from "../src/github/event.ts";
import { authorize } from "../src/bot/authorize.ts";
import { GitHubError, type GitHubPort } from "../src/ports/github.ts";
import { GATE_MARKER, upsertSticky } from "../src/github/sticky-comment.ts";
import { octokitGitHub } from "../src/io/octokit-github.ts";
import { ROOT } from "./support/cli.ts";
import {
  nodeId,
  startGitHubServer,
  type GitHubServer,
  type RecordedRequest,
} from "./support/github-server.ts";

const OWNER = "octo-org";
const REPO = "benchgate-demo";
const BOT_ID = 41898282;
const PERMISSION_OP = "repos/get-collaborator-permission-level";
const sha = (n: number): string => n.toString(16).padStart(40, "0");
const BASE = sha(0xbbb);
const body = (text: string): string => `${text}\n${GATE_MARKER}`;

let server: GitHubServer;
let logs: string[] = [];

beforeAll(async () => {
  server = await startGitHubServer({
    repository: `${OWNER}/${REPO}`,
    permissions: { walt: "write", wendy: "write", mona: "maintain" },
    prs: [
      {
        number: 7,
        head: { sha: sha(0x7), ref: "feature/seven" },
        base: { sha: BASE, ref: "main" },
      },
      {
        number: 8,
        draft: true,
        head: { sha: sha(0x8), ref: "wip" },
        base: { sha: BASE, ref: "main" },
      },
      {
        number: 9,
        locked: true,
        head: { sha: sha(0x9), ref: "heated" },
        base: { sha: BASE, ref: "main" },
      },
    ],
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.faults.length = 0;
  vi.useRealTimers();
  logs = [];
  expect(server.violations).toEqual([]);
});

function github(maxRetries?: number, timeoutMs?: number): GitHubPort {
  return octokitGitHub({
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    token: "test-token",
    owner: OWNER,
    repo: REPO,
    baseUrl: server.url,
    log: (text) => void logs.push(text),
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
}

/** Runs `fn` and returns its result with the requests it made. */
async function recorded<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; requests: RecordedRequest[] }> {
  const before = server.requests.length;
  const result = await fn();
  return { result, requests: server.requests.slice(before) };
}

/** A command comment stored on the server, and the issue_comment event announcing it. */
function command(login: string, issue: number, text = "/rebench"): CommentEvent {
  const stored = server.seedComment({ issue_number: issue, body: text, user: login });
  return {
    kind: "comment",
    action: "created",
    isPullRequest: true,
    issueNumber: issue,
    commentId: stored.id,
    body: text,
    author: { id: stored.user.id, login, type: stored.user.type },
  };
}

const reactionsOn = (commentId: number): string[] =>
  server.state.reactions.filter((r) => r.comment_id === commentId).map((r) => r.content);

/**
 * Runs `work` while moving a fake setTimeout clock forward, so the retry plugin's backoff (1 s,
 * 4 s, 9 s) and the throttling plugin's spacing of writes (1 s; 3 s between comment POSTs, a
 * limiter shared by every Octokit in the process) pass at once; real I/O still runs between steps
 * (setImmediate and the server's timers are real). The write limiter books its slots in real
 * (Date.now) time, so fast-forwarded writes leave it booked seconds ahead: every test that writes
 * goes through here. The O4 rate-limit and timeout tests time real waits and only read (GET, not limited).
 */
async function fastForward<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
  const promise = work();
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await vi.advanceTimersByTimeAsync(250);
    await new Promise((resolve) => setImmediate(resolve));
  }
  vi.useRealTimers();
  return promise;
}

describe("O3: the sticky comment behind pagination", () => {
  it("finds the bot's marked comment on page 3 of 250 and PATCHes it, never POSTs", async () => {
    const issue = 30;
    const others = ["alice", "mallory", "dependabot[bot]", "renovate[bot]", "octocat"];
    for (let i = 0; i < 249; i++)
      server.seedComment({
        issue_number: issue,
        user: others[i % others.length] ?? "octocat",
        // Some carry the marker: copied by people, or another bot's own comment.
        body: i % 7 === 0 ? body(`copied marker ${i}`) : `comment ${i}`,
      });
    const mine = server.seedComment({
      issue_number: issue,
      user: "github-actions[bot]",
      body: body("old verdict"),
    });
    expect(server.state.comments.filter((c) => c.issue_number === issue)).toHaveLength(250);

    const { result, requests } = await recorded(() =>
      fastForward(() => upsertSticky(github(), issue, body("new verdict"), BOT_ID)),
    );
    expect(result).toEqual({ action: "updated", commentId: mine.id });
    const lists = requests.filter((q) => q.operationId === "issues/list-comments");
    expect(lists.map((q) => [q.query["per_page"], q.query["page"] ?? "1", q.status])).toEqual([
      ["100", "1", 200],
      ["100", "2", 200],
      ["100", "3", 200],
    ]);
    expect(requests.map((q) => `${q.method} ${q.operationId}`)).toEqual([
      "GET issues/list-comments",
      "GET issues/list-comments",
      "GET issues/list-comments",
      "PATCH issues/update-comment",
    ]);
    expect(requests.at(-1)?.path).toBe(`/repos/${OWNER}/${REPO}/issues/comments/${mine.id}`);
    expect(mine.body).toBe(body("new verdict"));
    expect(
      server.state.comments.filter((c) => c.issue_number === issue && c.body.includes("copied")),
    ).toHaveLength(36); // none of the copies was touched
  });
});

describe("O4: rate limits through the throttling plugin", () => {
  it("a primary limit (403, x-ratelimit-remaining 0, reset 1 s ahead) waits until reset, then succeeds", async () => {
    const t0 = Date.now();
    const resetNoEarlierThan = (Math.floor(t0 / 1000) + 1) * 1000;
    server.inject({ kind: "rate-limit", resetInSeconds: 1, operationId: "pulls/get" });
    const { result, requests } = await recorded(() => github(1).getPull(7));
    const elapsed = Date.now() - t0;
    expect(result.headSha).toBe(sha(0x7));
    expect(requests.map((q) => [q.status, q.fault])).toEqual([
      [403, "rate-limit"],
      [200, undefined],
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(Date.now()).toBeGreaterThanOrEqual(resetNoEarlierThan);
    expect(elapsed).toBeLessThan(5000);
    // (Octokit's own request log of the 403 goes to the same log.)
    expect(logs.filter((l) => l.includes("rate limit"))).toEqual([
      expect.stringMatching(
        /^GitHub rate limit on GET \S+\/pulls\/\{pull_number\}: waiting [12] s \(retry 1\)$/,
      ),
    ]);
  });

  it.each([403, 429] as const)(
    "a secondary limit (%i) that outlasts maxRetries gives up with a GitHubError, not a loop",
    async (status) => {
      server.inject({
        kind: "secondary-rate-limit",
        status,
        retryAfter: 1,
        operationId: "pulls/get",
        times: 10,
      });
      const t0 = Date.now();
      const before = server.requests.length;
      const error = await github(1)
        .getPull(7)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      const elapsed = Date.now() - t0;
      expect(error).toBeInstanceOf(GitHubError);
      expect((error as GitHubError).status).toBe(status);
      expect((error as GitHubError).message).toMatch(
        /^reading pull request #7: You have exceeded a secondary rate limit/,
      );
      // The first try and one retry after retry-after (1 s); then it stops.
      expect(server.requests.slice(before).map((q) => q.status)).toEqual([status, status]);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(5000);
      expect(logs.filter((l) => l.includes("secondary rate limit on"))).toEqual([
        expect.stringMatching(/waiting 1 s \(retry 1\)$/),
        expect.stringMatching(/waiting 1 s \(retry 2\)$/),
      ]);
    },
  );
});

describe("client timeout", () => {
  it("a slow answer within the timeout is awaited", async () => {
    server.inject({ kind: "delay", ms: 1500, operationId: "pulls/get" });
    const t0 = Date.now();
    expect((await github(1).getPull(7)).number).toBe(7);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1400);
  });

  it("a stalled answer past the per-attempt timeout fails instead of hanging the job", async () => {
    server.inject({ kind: "delay", ms: 3000, operationId: "pulls/get", times: 10 });
    const t0 = Date.now();
    await expect(github(0, 300).getPull(7)).rejects.toThrow(GitHubError);
    // Timed-out attempts are retried by the retry plugin (1 + 3, with its backoff), each cut at
    // 300 ms: bounded, far below the 300 s per attempt of fetch's own limit.
    expect(Date.now() - t0).toBeLessThan(25_000);
  });
});

describe("C3 over HTTP: authorize fails closed", () => {
  it("a permission endpoint that answers 500 to every try (1 + 3 retries) denies with 👎", async () => {
    server.inject({ kind: "status", status: 500, operationId: PERMISSION_OP, times: 4 });
    const event = command("wendy", 7);
    const { result, requests } = await recorded(() =>
      fastForward(() =>
        authorize(event, github(), { botUserId: BOT_ID, log: (t) => logs.push(t) }),
      ),
    );
    expect(result.run).toBe(false);
    expect(result.why).toBe("wendy may not run commands (permission: unknown)");
    expect(requests.filter((q) => q.operationId === PERMISSION_OP).map((q) => q.status)).toEqual([
      500, 500, 500, 500,
    ]);
    expect(requests.some((q) => q.operationId === "pulls/get")).toBe(false);
    expect(reactionsOn(event.commentId)).toEqual(["eyes", "-1"]);
    expect(logs.some((l) => l.startsWith("permission check failed, denying"))).toBe(true);
  });

  it("a permission answer that is not JSON denies with 👎 after one try", async () => {
    server.inject({ kind: "malformed-json", operationId: PERMISSION_OP });
    const event = command("walt", 7);
    const { result, requests } = await recorded(() =>
      fastForward(() =>
        authorize(event, github(), { botUserId: BOT_ID, log: (t) => logs.push(t) }),
      ),
    );
    expect(result).toEqual({ run: false, why: "walt may not run commands (permission: unknown)" });
    expect(
      requests.filter((q) => q.operationId === PERMISSION_OP).map((q) => [q.status, q.fault]),
    ).toEqual([[200, "malformed-json"]]);
    expect(reactionsOn(event.commentId)).toEqual(["eyes", "-1"]);
    expect(logs.find((l) => l.startsWith("permission check failed"))).toMatch(
      /unexpected permission undefined/,
    );
  });
});

describe("O3: the bot is its numeric id, never its login", () => {
  it("a marked comment by another account named github-actions[bot] is not ours: a new one is made", async () => {
    const issue = 31;
    const impostor = server.seedComment({
      issue_number: issue,
      user: "impostor",
      body: body("fake verdict"),
    });
    impostor.user = server.user("impostor", {
      login: "github-actions[bot]",
      id: 66_600_000,
      type: "Bot",
      node_id: nodeId("Bot", 66_600_000),
    });
    const { result, requests } = await recorded(() =>
      fastForward(() => upsertSticky(github(), issue, body("real verdict"), BOT_ID)),
    );
    expect(result.action).toBe("created");
    expect(result.commentId).not.toBe(impostor.id);
    expect(requests.map((q) => `${q.method} ${q.operationId}`)).toEqual([
      "GET issues/list-comments",
      "POST issues/create-comment",
    ]);
    expect(impostor.body).toBe(body("fake verdict"));
    const created = server.state.comments.find((c) => c.id === result.commentId);
    expect(created?.user.id).toBe(BOT_ID);
  });

  it("a marked comment by the bot's id under a renamed login is ours: it is updated", async () => {
    const issue = 32;
    const renamed = server.seedComment({
      issue_number: issue,
      user: "github-actions[bot]",
      body: body("old verdict"),
    });
    renamed.user = { ...renamed.user, login: "benchgate-renamed[bot]" };
    const { result, requests } = await recorded(() =>
      fastForward(() => upsertSticky(github(), issue, body("new verdict"), BOT_ID)),
    );
    expect(result).toEqual({ action: "updated", commentId: renamed.id });
    expect(requests.map((q) => `${q.method} ${q.operationId}`)).toEqual([
      "GET issues/list-comments",
      "PATCH issues/update-comment",
    ]);
    expect(renamed.body).toBe(body("new verdict"));
  });
});

describe("C4 over HTTP: the pull request's state", () => {
  it("a draft pull request may be benchmarked (policy: drafts are allowed)", async () => {
    const event = command("mona", 8);
    const result = await fastForward(() =>
      authorize(event, github(), { botUserId: BOT_ID, log: (t) => logs.push(t) }),
    );
    expect(result).toMatchObject({ run: true, headSha: sha(0x8), baseSha: BASE, prNumber: 8 });
    expect(reactionsOn(event.commentId)).toEqual(["eyes", "rocket"]);
  });

  it("a locked pull request is refused with 👎", async () => {
    const event = command("mona", 9);
    const { result, requests } = await recorded(() =>
      fastForward(() =>
        authorize(event, github(), { botUserId: BOT_ID, log: (t) => logs.push(t) }),
      ),
    );
    expect(result).toEqual({ run: false, why: "pull request #9 is locked" });
    expect(requests.some((q) => q.operationId === "pulls/list-commits")).toBe(false);
    expect(reactionsOn(event.commentId)).toEqual(["eyes", "-1"]);
  });
});

describe("C6 (static): a newer run for the same pull request supersedes the running one", () => {
  type Json = Record<string, unknown>;
  const workflow = (name: string): Json =>
    parse(readFileSync(path.join(ROOT, ".github/workflows", name), "utf8")) as Json;
  const concurrency = (holder: Json): Json => (holder["concurrency"] ?? {}) as Json;

  it("benchgate-command.yml: the measure job is grouped by the PR number, cancel-in-progress", () => {
    const jobs = workflow("benchgate-command.yml")["jobs"] as Record<string, Json>;
    const bench = concurrency(jobs["measure"] ?? {});
    expect(bench["group"]).toMatch(/\$\{\{\s*github\.event\.issue\.number\s*\}\}/);
    expect(bench["cancel-in-progress"]).toBe(true);
    // Authorizing is never cancelled: every command is answered, only the benchmark restarts.
    expect(jobs["authorize"]?.["concurrency"]).toBeUndefined();
  });

  it("benchgate-pr.yml: the whole workflow is grouped by the PR number, cancel-in-progress", () => {
    const pr = concurrency(workflow("benchgate-pr.yml"));
    expect(pr["group"]).toMatch(/\$\{\{\s*github\.event\.pull_request\.number\s*\}\}/);
    expect(pr["cancel-in-progress"]).toBe(true);
  });
});
