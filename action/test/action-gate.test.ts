// The bundled action (dist/benchgate-action.js) in mode: gate, run as the GitHub runner runs it,
// against the local GitHub server (every request and response checked against GitHub's OpenAPI
// description) and the real tools (git, cargo + Criterion, hyperfine, critcmp) on a throw-away
// copy of examples/demo-crate. Nothing depends on a timing except the `normalize` slowdown (×30
// here, support/git-repo.ts NORMALIZE_30X, so that three rounds confirm it on a busy machine) and
// the changed --help line of the demo's head patch. Three real gate runs: the first comment (with
// an ambiguous 5xx on creating it and a secondary rate limit), the update after a push (with an
// attacker's look-alike comment), and a token that may not comment.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { readResultMarker } from "../src/github/acceptance.ts";
import { GATE_MARKER } from "../src/github/sticky-comment.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import {
  applyEdits,
  commitAll,
  git,
  NORMALIZE_30X,
  throwAwayRepo,
  worktrees,
  type ThrowAwayRepo,
} from "./support/git-repo.ts";
import {
  startGitHubServer,
  type GitHubServer,
  type StoredCheckRun,
  type StoredComment,
} from "./support/github-server.ts";
import {
  actionTestConfig,
  runAction,
  TEST_CACHE,
  writes,
  type ActionRun,
  type ActionRunOptions,
} from "./support/run-action.ts";
import {
  issueCommentOnPull,
  pullRequestOpened,
  pullRequestSynchronize,
} from "./support/webhook-payloads.ts";
import {
  BOT_ID,
  DEMO_CONFIG,
  DEMO_REPOSITORY,
  demoPull,
  expectServerClean,
  prepareActionTest,
} from "./support/action-scene.ts";

const LONG = 600_000;
const REPOSITORY = DEMO_REPOSITORY;
const CONFIG = DEMO_CONFIG;
const PR = 7;

let server: GitHubServer;
let scratch: string;
let repo: ThrowAwayRepo;

beforeAll(async () => {
  scratch = await prepareActionTest("action-gate");
  repo = throwAwayRepo(path.join(scratch, "repo"), {
    base: { [CONFIG]: actionTestConfig() },
    headPatch: true,
    // The pull request's own copy of the config would measure something else, once: the action
    // must read the base commit's. normalize ×30, not the patch's ×3: the first run must find a
    // confirmed regression to annotate, on a busy machine too.
    head: {
      ...NORMALIZE_30X,
      [CONFIG]: actionTestConfig({ rounds: 1, filter: "^render_report$" }),
    },
  });
  server = await startGitHubServer({
    repository: REPOSITORY,
    tokens: {
      "test-token": "github-actions[bot]",
      // A token that may read issues and pull requests but not write them (checks it may).
      "read-only-token": {
        login: "github-actions[bot]",
        permissions: { issues: "read", pull_requests: "read", checks: "write" },
      },
    },
    permissions: { alice: "write", mallory: "read" },
    prs: [demoPull(PR, repo)],
  });
}, LONG);

afterAll(async () => {
  await server?.close();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

afterEach(() => expectServerClean(server));

/** A gate run of its own in scratch/<name>; `out` there too unless `defaultOut` (action.yml's). */
function gate(
  name: string,
  options: Omit<ActionRunOptions, "server" | "workspace" | "dir">,
  defaultOut = false,
): Promise<ActionRun> {
  return runAction({
    server,
    workspace: repo.dir,
    dir: path.join(scratch, name),
    ...options,
    inputs: {
      mode: "gate",
      config: CONFIG,
      ...(defaultOut ? {} : { out: path.join(scratch, name, "out") }),
      ...options.inputs,
    },
  });
}

const isBot = (c: StoredComment): boolean => c.user.id === BOT_ID;
const commentsOn = (issue: number): StoredComment[] =>
  server.state.comments.filter((c) => c.issue_number === issue);
const stickyComments = (issue: number): StoredComment[] =>
  commentsOn(issue).filter((c) => isBot(c) && c.body.includes(GATE_MARKER));
const checksOf = (sha: string): StoredCheckRun[] =>
  server.state.checkRuns.filter((r) => r.head_sha === sha && r.name === "benchgate");
const readReport = (file: string): BenchReport =>
  JSON.parse(readFileSync(file, "utf8")) as BenchReport;
const indexOf = (r: ActionRun, method: string, pathPattern: RegExp, from = 0): number =>
  r.requests.findIndex((q, i) => i >= from && q.method === method && pathPattern.test(q.path));
const warnings = (r: ActionRun): string[] =>
  r.commands.filter((c) => c.name === "warning").map((c) => c.message);

const COMMENTS = /\/issues\/\d+\/comments$/;
const COMMENT = /\/issues\/comments\/(\d+)$/;
const CHECKS = /\/check-runs$/;
const CHECK = /\/check-runs\/\d+$/;

describe(
  "mode: gate, the bundled action against the local GitHub server",
  { timeout: LONG },
  () => {
    let firstCommentId: number;

    it("pull_request: one comment, one check, outputs and summary; the step fails only after them", async () => {
      // Someone pasted the marker into a comment of their own before the bot ever commented.
      const forged = server.seedComment({
        issue_number: PR,
        user: "mallory",
        body: `${GATE_MARKER}\n## ✅ benchgate: pass\n\nnothing to see here`,
      });
      const forgedBody = forged.body;
      // The POST that creates the comment succeeds on GitHub's side but answers 502; the first
      // listing of the comments meets a secondary rate limit (retry-after: 1 s).
      server.inject({
        operationId: "issues/create-comment",
        kind: "commit-then-fail",
        status: 502,
      });
      server.inject({
        operationId: "issues/list-comments",
        kind: "secondary-rate-limit",
        retryAfter: 1,
      });

      const r = await gate("first", {
        eventName: "pull_request",
        payload: pullRequestOpened({
          number: PR,
          headSha: repo.head,
          headRef: "feature/normalize",
          baseSha: repo.base,
          baseRef: "main",
          repository: REPOSITORY,
          user: { login: "alice" },
        }),
      });
      expect(r.status, r.said).toBe(1);
      expect(r.stderr, r.said).toBe("");

      // Outputs, each written once.
      expect(r.outputEntries.map(([name]) => name)).toEqual(["verdict", "report-path", "markdown"]);
      expect(r.outputs["verdict"]).toBe("fail");
      const reportPath = r.outputs["report-path"] ?? "";
      expect(reportPath).toBe(path.join(scratch, "first/out/report.json"));
      const report = readReport(reportPath);
      expect(report.verdict).toBe("fail");
      // The base commit's config: its filter and rounds, not the pull request's copy.
      expect(report.benchmarks.map((b) => b.id).sort()).toEqual([
        "checksum/fnv1a",
        "help",
        "normalize",
      ]);
      expect(report.rounds).toHaveLength(3);
      expect(report.benchmarks.find((b) => b.id === "normalize")?.verdict, r.said).toBe(
        "regressed",
      );
      expect(report.golden.map((g) => [g.name, g.ok])).toEqual([
        ["cli-help", false],
        ["cli-stats", true],
      ]);
      const markdown = r.outputs["markdown"] ?? "";
      // The posted comment is comment.md with the commands that apply right under the "why":
      // a golden output fails, so no acceptance, only the re-run of this head.
      const rerun = `To measure again: \`/rebench ${repo.head}\` (while it is the head of this pull request).`;
      const commentLines = markdown.split("\n");
      const afterWhy = commentLines.slice(commentLines.indexOf("**Why:**") + 1);
      expect(afterWhy.find((l) => l !== "" && !l.startsWith("- "))).toBe(rerun);
      expect(markdown.replace(`\n\n${rerun}`, "")).toBe(
        readFileSync(path.join(scratch, "first/out/comment.md"), "utf8"),
      );
      expect(markdown).not.toContain("/benchgate accept");
      expect(markdown.split("\n")[0]).toBe(GATE_MARKER);
      expect(markdown).toMatch(/^## \S+ benchgate: fail/mu);
      expect(markdown).toContain("golden output changed: cli-help");
      expect(r.summary.trimEnd()).toBe(markdown.trimEnd());

      // Exactly one comment of the bot's, with the report; the forged one untouched.
      const sticky = stickyComments(PR);
      expect(sticky, r.said).toHaveLength(1);
      firstCommentId = sticky[0]!.id;
      expect(sticky[0]!.body).toBe(markdown);
      expect(commentsOn(PR).filter((c) => !isBot(c))).toEqual([forged]);
      expect(forged.body).toBe(forgedBody);
      expect(forged.updated_at).toBe(forged.created_at);

      // The ambiguous 502 was not retried blindly: one POST, then a fresh listing found the
      // comment, which already had this body (no edit at all).
      const posts = r.requests.filter((q) => q.method === "POST" && COMMENTS.test(q.path));
      expect(posts.map((q) => [q.status, q.fault])).toEqual([[502, "commit-then-fail"]]);
      expect(indexOf(r, "GET", COMMENTS, indexOf(r, "POST", COMMENTS)), r.said).toBeGreaterThan(0);
      expect(r.requests.filter((q) => COMMENT.test(q.path))).toEqual([]);

      // The secondary rate limit: answered 403 once, waited for, then the same listing succeeded.
      const listed = r.requests.flatMap((q, i) =>
        q.method === "GET" && COMMENTS.test(q.path) ? [i] : [],
      );
      const [limited = -1, retried = -1] = listed;
      expect(r.requests[limited]).toMatchObject({ status: 403, fault: "secondary-rate-limit" });
      expect(r.requests[retried]?.status).toBe(200);
      // retry-after: 1 was honoured (a lower bound on a sleep, not a benchmark timing).
      expect(r.requestTimes[retried]! - r.requestTimes[limited]!, r.said).toBeGreaterThanOrEqual(
        900,
      );
      expect(warnings(r).join("\n")).toMatch(
        /secondary rate limit on GET .*\/issues\/7\/comments.*waiting 1 s/,
      );

      // Exactly one check run, on the head SHA, completed as a failure with the verdict.
      const checks = checksOf(repo.head);
      expect(server.state.checkRuns).toEqual(checks);
      expect(checks, r.said).toHaveLength(1);
      expect(checks[0]).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(checks[0]!.output.title).toBe("fail");
      expect(checks[0]!.output.summary).toContain("golden output changed: cli-help");
      // The text: the result marker an acceptance is checked against (C7), then the comment.
      const text = checks[0]!.output.text ?? "";
      expect(text.slice(text.indexOf("\n") + 1)).toBe(markdown);
      expect(readResultMarker(text, repo.head)?.other).toContain("golden");

      // The order that keeps the verdict: check opened → comment → check completed → step failed.
      const opened = indexOf(r, "POST", CHECKS);
      const commented = indexOf(r, "POST", COMMENTS);
      const completed = indexOf(r, "PATCH", CHECK);
      expect(opened, r.said).toBe(0);
      expect(commented).toBeGreaterThan(opened);
      expect(completed).toBeGreaterThan(commented);
      expect(completed).toBe(r.requests.length - 1);
      expect((r.requests[opened]?.body as { status?: string }).status).toBe("in_progress");
      const lines = r.stdout.trimEnd().split("\n");
      const commentLine = lines.findIndex((l) =>
        /^PR comment (created|updated|unchanged) \(\d+\)$/.test(l),
      );
      expect(commentLine, r.said).toBeGreaterThanOrEqual(0);
      const errors = r.commands.filter((c) => c.name === "error");
      const failed = errors.at(-1)!;
      expect(failed.properties).toEqual({});
      expect(failed.message).toBe(
        "benchgate: the gate failed (fail); see the PR comment or the job summary",
      );
      expect(failed.index).toBe(lines.length - 1);
      expect(failed.index).toBeGreaterThan(commentLine);

      // Error annotations, as the runner reads them: `::error title=benchgate%3A …::message`.
      const annotations = errors.slice(0, -1);
      for (const a of annotations) {
        expect(a.line).toMatch(/^::error title=benchgate%3A [^:]+::/);
        expect(a.properties["title"]).toMatch(/^benchgate: /);
        expect(a.index).toBeGreaterThan(commentLine);
      }
      // One annotation per failing part: the golden output, and each regression the report
      // confirmed. normalize (×30) is confirmed under any load; a busy machine may confirm
      // another benchmark too, which must then be annotated like it, not asserted away.
      const regressed = report.benchmarks.filter((b) => b.verdict === "regressed").map((b) => b.id);
      expect(regressed).toContain("normalize");
      const annotated = annotations.map((a) => [a.properties["title"], a.message.split(":")[0]]);
      expect(annotated[0]).toEqual(["benchgate: golden output changed", "cli-help"]);
      const byName = (x: string, y: string): number => x.localeCompare(y);
      expect(
        annotated
          .slice(1)
          .map(([title, id]) => `${title} ${id}`)
          .sort(byName),
      ).toEqual(regressed.map((id) => `benchgate: regression ${id}`).sort(byName));

      // The worktrees (made in the child's TMPDIR) are gone, and so is the cache's lock.
      expect(worktrees(repo.dir)).toEqual([repo.dir]);
      expect(readdirSync(path.join(scratch, "first/tmp"))).toEqual([]);
      expect(existsSync(path.join(TEST_CACHE, "run.lock"))).toBe(false);
    });

    it("a second run after a push updates that comment, never an attacker's look-alike", async () => {
      expect(firstCommentId).toBeDefined();
      // A push to the pull request: a new head commit, still with the slow normalize.
      git(repo.dir, ["checkout", "--quiet", repo.head]);
      applyEdits(repo.dir, { "README.md": (old) => `${old}\nA second commit.\n` });
      const head2 = commitAll(repo.dir, "head, second commit");
      const seed = server.state.prs.get(PR)!;
      seed.head.sha = head2;
      seed.commits = [repo.head, head2];
      // Newer than the bot's comment this time, and with the marker as its first line too.
      const forged = server.seedComment({
        issue_number: PR,
        user: "mallory",
        body: `${GATE_MARKER}\n## ✅ benchgate: pass — forged after the first run`,
      });
      const forgedBody = forged.body;
      const before = server.state.comments.map((c) => ({ ...c }));

      const r = await gate("second", {
        eventName: "pull_request",
        payload: pullRequestSynchronize({
          number: PR,
          before: repo.head,
          headSha: head2,
          headRef: "feature/normalize",
          baseSha: repo.base,
          baseRef: "main",
          repository: REPOSITORY,
          user: { login: "alice" },
        }),
        // Two rounds: the body differs from the first run's in a way no timing decides.
        inputs: { rounds: "2" },
      });
      expect(r.status, r.said).toBe(1);
      expect(r.outputs["verdict"]).toBe("fail");
      const markdown = r.outputs["markdown"] ?? "";
      expect(markdown).toContain("2 interleaved rounds");

      const sticky = stickyComments(PR);
      expect(
        sticky.map((c) => c.id),
        r.said,
      ).toEqual([firstCommentId]);
      expect(sticky[0]!.body).toBe(markdown);
      // The PATCH went to the bot's own comment; nothing was created; nobody else's was touched.
      const commentWrites = writes(r.requests).filter(
        (q) => COMMENTS.test(q.path) || COMMENT.test(q.path),
      );
      expect(commentWrites.map((q) => [q.method, q.path, q.status])).toEqual([
        ["PATCH", `/repos/${REPOSITORY}/issues/comments/${firstCommentId}`, 200],
      ]);
      expect(forged.body).toBe(forgedBody);
      for (const old of before.filter((c) => c.id !== firstCommentId))
        expect(server.state.comments.find((c) => c.id === old.id)).toEqual(old);
      expect(commentsOn(PR)).toHaveLength(before.length);

      // One check per head: the new one for the pushed commit, the first one as it was.
      expect(checksOf(head2), r.said).toHaveLength(1);
      expect(checksOf(head2)[0]).toMatchObject({ status: "completed", conclusion: "failure" });
      expect(checksOf(repo.head)).toHaveLength(1);
      expect(r.summary.trimEnd()).toBe(markdown.trimEnd());
    });

    it("a token that may not comment: a warning, and the verdict still reaches the check and the outputs", async () => {
      // Another pull request of the same branch, not commented on yet: the bot tries to create.
      const sha = server.state.prs.get(PR)!.head.sha;
      server.state.prs.set(9, {
        number: 9,
        head: { sha, ref: "feature/normalize-again" },
        base: { sha: repo.base, ref: "main" },
        user: "alice",
      });
      const checksBefore = server.state.checkRuns.length;
      const r = await gate("read-only", {
        eventName: "pull_request",
        payload: pullRequestOpened({
          number: 9,
          headSha: sha,
          baseSha: repo.base,
          repository: REPOSITORY,
          user: { login: "alice" },
        }),
        token: "read-only-token",
        // Only normalize (and the golden outputs), a shorter run; action.yml's default `out`.
        inputs: { filter: "^normalize$", out: "" },
      });
      expect(r.status, r.said).toBe(1);
      expect(r.outputs["verdict"]).toBe("fail");
      const reportPath = r.outputs["report-path"] ?? "";
      expect(reportPath).toBe(path.join(repo.dir, ".benchgate/run/report.json"));
      expect(readReport(reportPath).benchmarks.map((b) => b.id)).toEqual(["normalize"]);
      expect(r.summary.trimEnd()).toBe((r.outputs["markdown"] ?? "").trimEnd());
      // Octokit's own log line for the failed request, then ours.
      expect(warnings(r), r.said).toEqual([
        expect.stringMatching(
          /^POST \/repos\/octo-org\/benchgate-demo\/issues\/9\/comments - 403 /,
        ),
        expect.stringMatching(
          /^could not post the PR comment \(the verdict is still in the check and the job summary\): commenting on #9: Resource not accessible by integration/,
        ),
      ]);
      // Refused with 403 and not retried; nothing was written to the conversation.
      const posts = r.requests.filter((q) => COMMENTS.test(q.path) && q.method === "POST");
      expect(
        posts.map((q) => q.status),
        r.said,
      ).toEqual([403]);
      expect(commentsOn(9)).toEqual([]);
      const added = server.state.checkRuns.slice(checksBefore);
      expect(added, r.said).toHaveLength(1);
      expect(added[0]).toMatchObject({ head_sha: sha, status: "completed", conclusion: "failure" });
      expect(added[0]!.output.title).toBe("fail");
      expect(r.commands.at(-1)?.message).toMatch(/^benchgate: the gate failed \(fail\)/);
    });

    it("an error after the check was opened (no such config in the base commit) still completes it", async () => {
      // As benchgate-command.yml's bench job runs it: the SHAs pinned by /rebench as inputs.
      const sha = server.state.prs.get(PR)!.head.sha;
      const asked = server.seedComment({ issue_number: PR, user: "alice", body: "/rebench" });
      const checksBefore = server.state.checkRuns.length;
      const commentsBefore = server.state.comments.map((c) => ({ ...c }));
      const r = await gate("no-config", {
        eventName: "issue_comment",
        payload: issueCommentOnPull({
          body: asked.body,
          user: { login: "alice", id: asked.user.id, type: "User" },
          commentId: asked.id,
          issueNumber: PR,
          repository: REPOSITORY,
        }),
        inputs: {
          config: "ci/missing.yml",
          "base-sha": repo.base,
          "head-sha": sha,
          "pr-number": String(PR),
          "command-comment-id": String(asked.id),
        },
      });
      expect(r.status, r.said).toBe(1);
      expect(r.outputEntries).toEqual([["verdict", "error"]]);
      const problem = r.commands.at(-1)?.message ?? "";
      expect(problem, r.said).toMatch(
        /^benchgate: the base commit [0-9a-f]{40} \([0-9a-f]{12}\) has no ci\/missing\.yml/,
      );
      // Never left "in progress": completed as a failure that says why; the command answered.
      const added = server.state.checkRuns.slice(checksBefore);
      expect(
        added.map((c) => [c.head_sha, c.status, c.conclusion, c.output.title]),
        r.said,
      ).toEqual([[sha, "completed", "failure", "error"]]);
      expect(added[0]!.output.summary).toContain("has no ci/missing.yml");
      // The sticky comment no longer claims the earlier verdict: it says there is none.
      expect(r.requests.map((q) => [q.method, q.operationId])).toEqual([
        ["POST", "checks/create"],
        ["GET", "issues/list-comments"],
        ["PATCH", "issues/update-comment"],
        ["PATCH", "checks/update"],
        ["POST", "reactions/create-for-issue-comment"],
      ]);
      expect(
        server.state.reactions.filter((x) => x.comment_id === asked.id).map((x) => x.content),
      ).toEqual(["-1"]);
      const sticky = stickyComments(PR);
      expect(sticky).toHaveLength(1);
      expect(sticky[0]!.body).toMatch(/^<!-- benchgate:gate -->\n### benchgate: error\n/);
      expect(sticky[0]!.body).toContain("has no ci/missing.yml");
      expect(server.state.comments.filter((c) => c.id !== sticky[0]!.id)).toEqual(
        commentsBefore.filter((c) => c.id !== sticky[0]!.id),
      );
      expect(existsSync(path.join(scratch, "no-config/out"))).toBe(false);
    });

    it("a pull_request from a fork is refused before anything runs: no cargo, no API call, verdict=error", async () => {
      const r = await gate("fork", {
        eventName: "pull_request",
        payload: pullRequestOpened({
          number: 8,
          headSha: repo.head,
          baseSha: repo.base,
          headRepo: "mallory/benchgate-demo",
          repository: REPOSITORY,
          user: { login: "mallory" },
        }),
      });
      expect(r.status, r.said).toBe(1);
      expect(r.outputEntries).toEqual([["verdict", "error"]]);
      expect(
        r.commands.map((c) => [c.name, c.message]),
        r.said,
      ).toEqual([
        [
          "error",
          expect.stringMatching(
            /^benchgate: .*pull request #8 comes from a fork \(mallory\/benchgate-demo\); fork PRs are benchmarked only through a maintainer's \/rebench/,
          ),
        ],
      ]);
      expect(r.requests).toEqual([]);
      expect(r.stdout).not.toMatch(/checking out|build \(|round \d/);
      expect(existsSync(path.join(scratch, "fork/out"))).toBe(false);
      expect(readdirSync(path.join(scratch, "fork/tmp"))).toEqual([]);
      expect(r.summary).toBe("");
    });
  },
);
