// The bundled action (dist/benchgate-action.js) in mode: authorize, run as the GitHub runner runs
// it for an issue_comment event, against the local GitHub server (every request and response
// checked against GitHub's OpenAPI description); then mode: gate with what authorize handed on,
// as benchgate-command.yml's bench job does, on a throw-away copy of examples/demo-crate with the
// real tools. Three real gate runs: the SHA pinned by /rebench, and a newer head before and after
// a maintainer accepted its regressions.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { readResultMarker, writeAcceptance } from "../src/github/acceptance.ts";
import { GATE_MARKER } from "../src/github/sticky-comment.ts";
import { escapeMarkdown } from "../src/render/escape-markdown.ts";
import type { BenchSummary } from "../src/schemas/summary.gen.ts";
import {
  applyEdits,
  commitAll,
  git,
  NORMALIZE_30X,
  throwAwayRepo,
  type ThrowAwayRepo,
} from "./support/git-repo.ts";
import {
  startGitHubServer,
  type GitHubServer,
  type StoredCheckRun,
  type StoredComment,
} from "./support/github-server.ts";
import { actionTestConfig, runAction, writes, type ActionRun } from "./support/run-action.ts";
import {
  issueCommentCreated,
  issueCommentDeleted,
  issueCommentEdited,
  issueCommentOnPull,
  pullRequestSynchronize,
  type CommentOverrides,
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
const OUTPUT_NAMES = [
  "run",
  "head-sha",
  "base-sha",
  "pr-number",
  "comment-id",
  "rounds",
  "filter",
  "check-id",
];

let server: GitHubServer;
let scratch: string;
let repo: ThrowAwayRepo;
let runs = 0;

beforeAll(async () => {
  scratch = await prepareActionTest("action-authorize");
  repo = throwAwayRepo(path.join(scratch, "repo"), {
    base: { [CONFIG]: actionTestConfig() },
    headPatch: true,
    // normalize ×30, not the patch's ×3: an acceptance needs a confirmed regression, and three
    // rounds on a busy machine confirm the ×3 only now and then.
    head: NORMALIZE_30X,
  });
  server = await startGitHubServer({
    repository: REPOSITORY,
    // maintain and triage: the endpoint's legacy `permission` says write and read for them.
    permissions: {
      walt: "write",
      wendy: "write",
      maya: "maintain",
      adam: "admin",
      rita: "read",
      tom: "triage",
      mallory: "read",
    },
    prs: [
      demoPull(PR, repo),
      {
        number: 8,
        state: "closed",
        head: { sha: repo.head, ref: "feature/old" },
        base: { sha: repo.base, ref: "main" },
      },
    ],
  });
}, LONG);

afterAll(async () => {
  await server?.close();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

afterEach(() => expectServerClean(server));

/** A comment by `login` on the server, and the issue_comment.created event GitHub sends for it. */
function command(login: string, body: string, issue = PR) {
  const stored = server.seedComment({ issue_number: issue, user: login, body });
  const payload = issueCommentOnPull({
    body,
    user: { login, id: stored.user.id, type: stored.user.type as "User" | "Bot" },
    commentId: stored.id,
    issueNumber: issue,
    repository: REPOSITORY,
  });
  return { stored, payload };
}

function authorize(payload: unknown): Promise<ActionRun> {
  runs += 1;
  return runAction({
    server,
    eventName: "issue_comment",
    payload,
    workspace: repo.dir,
    dir: path.join(scratch, `authorize-${runs}`),
    inputs: { mode: "authorize" },
  });
}

function gate(
  name: string,
  eventName: string,
  payload: unknown,
  inputs: Record<string, string> = {},
) {
  return runAction({
    server,
    eventName,
    payload,
    workspace: repo.dir,
    dir: path.join(scratch, name),
    inputs: { mode: "gate", config: CONFIG, out: path.join(scratch, name, "out"), ...inputs },
  });
}

const reactionsOn = (commentId: number): string[] =>
  server.state.reactions
    .filter((r) => r.comment_id === commentId && r.user.id === BOT_ID)
    .map((r) => r.content);
const botComments = (issue: number): StoredComment[] =>
  server.state.comments.filter((c) => c.issue_number === issue && c.user.id === BOT_ID);
const deniedReplies = (): StoredComment[] =>
  botComments(PR).filter((c) => c.body.includes("<!-- benchgate:denied user="));
/** The check runs of a commit that benchgate's app (github-actions, as for a GITHUB_TOKEN) made. */
const ourChecks = (sha: string): StoredCheckRun[] =>
  server.state.checkRuns.filter(
    (c) => c.head_sha === sha && (c["app"] as { slug?: string }).slug === "github-actions",
  );

/** Every output written once, in action.yml's order, and run=false with the rest empty. */
function expectNoRun(r: ActionRun): void {
  expect(r.status, r.said).toBe(0);
  expect(r.outputEntries.map(([name]) => name)).toEqual(OUTPUT_NAMES);
  expect(r.outputs).toEqual(
    Object.fromEntries(OUTPUT_NAMES.map((n) => [n, n === "run" ? "false" : ""])),
  );
  expect(
    r.commands.filter((c) => c.name === "error"),
    r.said,
  ).toEqual([]);
}

/** The `authorize: …` line that says why. */
const why = (r: ActionRun): string =>
  r.stdout.split("\n").find((l) => l.startsWith("authorize: ")) ?? "";

/** An issue_comment payload of an edit or deletion, made a pull request's like issueCommentOnPull. */
function onPull<T extends { issue: { number: number; html_url: string; pull_request?: unknown } }>(
  p: T,
): T {
  const html = p.issue.html_url.replace(/\/issues\/(\d+)$/, "/pull/$1");
  p.issue.html_url = html;
  p.issue.pull_request = {
    url: `https://api.github.com/repos/${REPOSITORY}/pulls/${p.issue.number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    merged_at: null,
  };
  return p;
}

describe("mode: authorize, the bundled action on issue_comment events", { timeout: LONG }, () => {
  it("stays silent — run=false and not one API call — for what is not a new command on a PR", async () => {
    const walt = server.user("walt");
    const as = { login: "walt", id: walt.id, type: "User" as const };
    const by = (user: NonNullable<CommentOverrides["user"]>): CommentOverrides => ({
      body: "/rebench",
      user,
      issueNumber: PR,
      repository: REPOSITORY,
    });
    const cases: Array<[string, unknown]> = [
      ["an edited comment", onPull(issueCommentEdited(by(as)))],
      ["a deleted comment", onPull(issueCommentDeleted(by(as)))],
      ["a comment on a plain issue", issueCommentCreated({ ...by(as), issueNumber: 3 })],
      ["the bot's own comment", command("github-actions[bot]", "/rebench").payload],
      [
        "a Bot account",
        issueCommentOnPull(by({ login: "dependabot[bot]", id: 49699333, type: "Bot" })),
      ],
      [
        "a *[bot] login typed User",
        issueCommentOnPull(by({ login: "renovate[bot]", id: 29139614, type: "User" })),
      ],
      [
        "the bot's id under another login",
        issueCommentOnPull(by({ login: "benchgate-helper", id: BOT_ID, type: "User" })),
      ],
      ["text that is not a command", command("walt", "Could someone /rebench this?").payload],
      ["a quoted command", command("walt", "> /rebench\n\nthat is how you ask").payload],
      ["a command in inline code", command("walt", "`/rebench`").payload],
      ["a longer word", command("walt", "/rebenchmark everything").payload],
    ];
    const before = server.requests.length;
    for (const [label, payload] of cases) {
      const r = await authorize(payload);
      expectNoRun(r);
      expect(r.requests, `${label}\n${r.said}`).toEqual([]);
      expect(why(r), label).not.toBe("");
    }
    expect(writes(server.requests.slice(before))).toEqual([]);
    expect(server.state.reactions).toEqual([]);
  });

  it("a read-only or triage user's command runs nothing: 👀 and 👎, and one reply per user however often", async () => {
    const first = command("rita", "/rebench");
    // author_association is never used, even when the payload says OWNER.
    first.payload.comment.author_association = "OWNER";
    const r1 = await authorize(first.payload);
    expectNoRun(r1);
    expect(why(r1)).toBe("authorize: rita may not run commands (permission: read)");
    expect(reactionsOn(first.stored.id)).toEqual(["eyes", "-1"]);
    expect(deniedReplies().map((c) => c.body)).toEqual([
      `benchgate commands need write, maintain or admin permission on this repository; \`rita\` has read. A maintainer can run \`/rebench\`.\n<!-- benchgate:denied user=${first.stored.user.id} -->`,
    ]);
    // Never as far as the pull request, let alone a check.
    expect(
      r1.requests.filter((q) => q.path.includes("/pulls/") || q.path.includes("/check-runs")),
    ).toEqual([]);

    const second = command("rita", "/benchgate accept let me in");
    const r2 = await authorize(second.payload);
    expectNoRun(r2);
    expect(reactionsOn(second.stored.id)).toEqual(["eyes", "-1"]);
    expect(deniedReplies()).toHaveLength(1);
    expect(writes(r2.requests).filter((q) => q.path.endsWith("/comments"))).toEqual([]);

    const triage = command("tom", "/rebench rounds=5");
    const r3 = await authorize(triage.payload);
    expectNoRun(r3);
    expect(why(r3)).toBe("authorize: tom may not run commands (permission: read)");
    expect(reactionsOn(triage.stored.id)).toEqual(["eyes", "-1"]);
    expect(deniedReplies()).toHaveLength(2);
    expect(server.state.checkRuns).toEqual([]);
  });

  it("fails closed: a permission endpoint that answers 500 (after Octokit's retries) or 404 denies", async () => {
    // wendy may write, but the API cannot say so: 500 on the first try and all three retries.
    server.inject({
      operationId: "repos/get-collaborator-permission-level",
      kind: "status",
      status: 500,
      times: 4,
    });
    const flaky = command("wendy", "/rebench");
    const r1 = await authorize(flaky.payload);
    expectNoRun(r1);
    const asked = r1.requests.filter(
      (q) => q.operationId === "repos/get-collaborator-permission-level",
    );
    expect(
      asked.map((q) => q.status),
      r1.said,
    ).toEqual([500, 500, 500, 500]);
    expect(why(r1)).toBe("authorize: wendy may not run commands (permission: unknown)");
    expect(reactionsOn(flaky.stored.id)).toEqual(["eyes", "-1"]);
    expect(deniedReplies().at(-1)?.body).toContain(
      "`wendy` has a permission that could not be read",
    );

    // No collaborator record at all: GitHub answers 404.
    const stranger = command("stranger", "/rebench");
    const r2 = await authorize(stranger.payload);
    expectNoRun(r2);
    expect(
      r2.requests
        .filter((q) => q.operationId === "repos/get-collaborator-permission-level")
        .map((q) => q.status),
    ).toEqual([404]);
    expect(reactionsOn(stranger.stored.id)).toEqual(["eyes", "-1"]);
    expect(deniedReplies().at(-1)?.body).toContain(
      "`stranger` has a permission that could not be read",
    );
    expect(server.state.checkRuns).toEqual([]);
  });

  it("a writer's malformed command gets 😕 and the usage; a closed pull request gets 👎", async () => {
    const bad = command("walt", "/rebench rounds=99");
    const r1 = await authorize(bad.payload);
    expectNoRun(r1);
    expect(reactionsOn(bad.stored.id)).toEqual(["eyes", "confused"]);
    expect(botComments(PR).at(-1)?.body).toMatch(
      /^benchgate: rounds must be a whole number from 1 to 50\. usage: /,
    );

    // An acceptance names the reviewed commit first, in full: without it, the usage.
    const noSha = command("walt", "/benchgate accept known cost");
    expectNoRun(await authorize(noSha.payload));
    expect(reactionsOn(noSha.stored.id)).toEqual(["eyes", "confused"]);
    expect(botComments(PR).at(-1)?.body).toMatch(
      /^benchgate: accepting a regression needs the commit you reviewed: .*`\/benchgate accept <sha> <reason>`/,
    );
    expect(server.state.checkRuns).toEqual([]);

    const closed = command("walt", "/rebench", 8);
    const r2 = await authorize(closed.payload);
    expectNoRun(r2);
    expect(why(r2)).toBe("authorize: pull request #8 is closed");
    expect(reactionsOn(closed.stored.id)).toEqual(["eyes", "-1"]);
    expect(botComments(8)).toEqual([]);
  });

  it("fails closed: when the checks cannot be listed, /rebench queues nothing and asks to try again", async () => {
    // 403 is not retried: the token may not read checks, or the API refuses for now.
    server.inject({ operationId: "checks/list-for-ref", kind: "status", status: 403 });
    const asked = command("walt", "/rebench");
    const r = await authorize(asked.payload);
    expectNoRun(r);
    expect(why(r)).toBe(
      `authorize: could not check for a benchmark of ${repo.head.slice(0, 12)} already queued: none queued`,
    );
    expect(reactionsOn(asked.stored.id)).toEqual(["eyes", "-1"]);
    expect(botComments(PR).at(-1)?.body).toBe(
      `benchgate: could not check whether a benchmark of \`${repo.head.slice(0, 12)}\` is already queued or running, so none was queued. Please try again in a few minutes.`,
    );
    expect(writes(r.requests).map((q) => q.operationId)).toEqual([
      "reactions/create-for-issue-comment",
      "reactions/create-for-issue-comment",
      "issues/create-comment",
    ]);
    expect(server.state.checkRuns).toEqual([]);
  });

  describe("with the real tools", () => {
    let pinned: string;
    let head2: string;

    it("/rebench from a writer benchmarks the SHA that was head at comment time, even after a push", async () => {
      const asked = command("walt", "/rebench normalize rounds=3");
      const r = await authorize(asked.payload);
      expect(r.status, r.said).toBe(0);
      expect(r.outputEntries.map(([name]) => name)).toEqual(OUTPUT_NAMES);
      // The "benchgate" check is opened on the pinned SHA now, shown as in progress while the
      // benchmark waits for the runner; the run that measures completes this very check.
      const queued = server.state.checkRuns.at(-1)!;
      expect(r.outputs).toEqual({
        run: "true",
        "head-sha": repo.head,
        "base-sha": repo.base,
        "pr-number": String(PR),
        "comment-id": String(asked.stored.id),
        rounds: "3",
        filter: "normalize",
        "check-id": String(queued.id),
      });
      expect([queued.head_sha, queued.status, queued.output.title]).toEqual([
        repo.head,
        "in_progress",
        "Queued",
      ]);
      expect(reactionsOn(asked.stored.id)).toEqual(["eyes", "rocket"]);
      expect(
        writes(r.requests).map((q) => q.operationId),
        r.said,
      ).toEqual([
        "reactions/create-for-issue-comment",
        "checks/create",
        "reactions/create-for-issue-comment",
      ]);

      // A second /rebench while that one is queued: an answer, no second run.
      const again = command("walt", "/rebench");
      const twice = await authorize(again.payload);
      expectNoRun(twice);
      expect(why(twice)).toMatch(/already queued \(check run \d+\)/);
      expect(botComments(PR).at(-1)?.body).toMatch(/already queued or running/);
      pinned = r.outputs["head-sha"] ?? "";

      // A newer commit arrives before the bench job starts. It puts the help text back, so its
      // only failure is the normalize regression: the kind of failure an acceptance can cover.
      git(repo.dir, ["checkout", "--quiet", repo.head]);
      applyEdits(repo.dir, {
        "README.md": (old) => `${old}\nPushed after the /rebench.\n`,
        "src/bin/demo-cli.rs": (old) => old.replace("show this help text", "print this help"),
      });
      head2 = commitAll(repo.dir, "head, pushed after the command");
      const seed = server.state.prs.get(PR)!;
      seed.head.sha = head2;
      seed.commits = [repo.head, head2];
      // A look-alike acceptance record for the pinned SHA, written by someone else.
      server.seedComment({
        issue_number: PR,
        user: "mallory",
        body:
          writeAcceptance(
            {
              sha: pinned,
              userId: server.user("maya").id,
              login: "maya",
              ids: ["normalize"],
              reason: "",
            },
            { reason: "ok", ids: "normalize" },
          )?.body ?? "",
      });
      const checksBefore = server.state.checkRuns.length;

      const g = await gate("pinned", "issue_comment", asked.payload, {
        "base-sha": r.outputs["base-sha"] ?? "",
        "head-sha": r.outputs["head-sha"] ?? "",
        "pr-number": r.outputs["pr-number"] ?? "",
        "command-comment-id": r.outputs["comment-id"] ?? "",
        rounds: r.outputs["rounds"] ?? "",
        filter: r.outputs["filter"] ?? "",
        "check-id": r.outputs["check-id"] ?? "",
      });
      expect(g.status, g.said).toBe(1);
      expect(g.outputs["verdict"]).toBe("fail");
      // What was measured: the pinned commit, never the newer head.
      const summaries = path.join(scratch, "pinned/out/summaries");
      const files = readdirSync(summaries).sort();
      expect(files).toEqual([
        "base-1.json",
        "base-2.json",
        "base-3.json",
        "head-1.json",
        "head-2.json",
        "head-3.json",
      ]);
      for (const file of files) {
        const s = JSON.parse(readFileSync(path.join(summaries, file), "utf8")) as BenchSummary;
        expect(s.commit, file).toBe(file.startsWith("head") ? pinned : repo.base);
        expect(s.benchmarks.map((b) => b.id)).toEqual(["normalize"]);
      }
      expect(g.stdout).not.toContain(head2.slice(0, 12));
      // No new check: the queued one is completed.
      expect(server.state.checkRuns.length, g.said).toBe(checksBefore);
      const completed = server.state.checkRuns.find((c) => String(c.id) === r.outputs["check-id"]);
      expect([completed?.head_sha, completed?.status, completed?.conclusion], g.said).toEqual([
        pinned,
        "completed",
        "failure",
      ]);
      // The forged record was not honoured.
      expect(completed?.output.title).toBe("fail");
      expect(g.outputs["markdown"]).not.toContain("Accepted");
      const sticky = botComments(PR).filter((c) => c.body.includes(GATE_MARKER));
      expect(sticky.map((c) => c.body)).toEqual([g.outputs["markdown"]]);
      // The command comment's last reaction is the verdict, given after the check was completed.
      expect(reactionsOn(asked.stored.id)).toEqual(["eyes", "rocket", "-1"]);
      const completedAt = g.requests.findIndex(
        (q) => q.method === "PATCH" && /\/check-runs\/\d+$/.test(q.path),
      );
      const reactedAt = g.requests.findIndex(
        (q) => q.operationId === "reactions/create-for-issue-comment",
      );
      expect(completedAt, g.said).toBeGreaterThan(0);
      expect(reactedAt).toBeGreaterThan(completedAt);
      expect(reactedAt).toBe(g.requests.length - 1);
    });

    it("/benchgate accept is refused, and no check passes, for a SHA that is no longer the head or that benchgate has no failed check of", async () => {
      expect(head2).toBeDefined();
      const reason = "normalize does three passes on purpose (see #7)";
      const checksBefore = server.state.checkRuns.length;
      // maya reviewed the pinned commit's failed benchmark; head2 was pushed before the job ran.
      const stale = command("maya", `/benchgate accept ${pinned} ${reason}`);
      const r1 = await authorize(stale.payload);
      expectNoRun(r1);
      expect(why(r1)).toBe(`authorize: acceptance of ${pinned.slice(0, 12)} refused: not-head`);
      expect(reactionsOn(stale.stored.id)).toEqual(["eyes", "-1"]);
      expect(botComments(PR).at(-1)?.body).toContain(`the head is now \`${head2}\``);

      // The SHA cannot hide in the reason any more.
      const inReason = command("maya", `/benchgate accept ${reason} ${head2}`);
      expectNoRun(await authorize(inReason.payload));
      expect(reactionsOn(inReason.stored.id)).toEqual(["eyes", "confused"]);

      // head2 is the head, but benchgate has not benchmarked it; another app's look-alike failed
      // "benchgate" check with a result marker does not count.
      const ours = ourChecks(pinned).find((c) => c.conclusion === "failure")!;
      const lookAlike: StoredCheckRun = {
        ...structuredClone(ours),
        id: Math.max(...server.state.checkRuns.map((c) => c.id)) + 1,
        head_sha: head2,
        app: { ...(ours["app"] as object), id: 999_999, slug: "mallory-ci", name: "Mallory CI" },
      };
      lookAlike.output.text = (ours.output.text ?? "").replace(pinned, head2);
      server.state.checkRuns.push(lookAlike);
      const early = command("maya", `/benchgate accept ${head2} ${reason}`);
      const r3 = await authorize(early.payload);
      expectNoRun(r3);
      expect(why(r3)).toBe(`authorize: acceptance of ${head2.slice(0, 12)} refused: no-result`);
      expect(reactionsOn(early.stored.id)).toEqual(["eyes", "-1"]);
      expect(botComments(PR).at(-1)?.body).toContain("has no completed benchgate check");

      // The checks cannot be read: refused too (fail closed).
      server.inject({ operationId: "checks/list-for-ref", kind: "status", status: 403 });
      const blind = command("maya", `/benchgate accept ${head2} ${reason}`);
      const r4 = await authorize(blind.payload);
      expectNoRun(r4);
      expect(why(r4)).toBe(`authorize: acceptance of ${head2.slice(0, 12)} refused: unreadable`);

      expect(server.state.checkRuns.slice(checksBefore)).toEqual([lookAlike]);
      expect(botComments(PR).filter((c) => c.body.includes("<!-- benchgate:accept "))).toEqual([]);
    });

    it("/benchgate accept <head> after benchgate's check of it failed: a record naming its regressions and a passing check on that SHA; the gate then passes that SHA", async () => {
      expect(head2).toBeDefined();
      const synchronize = pullRequestSynchronize({
        number: PR,
        before: pinned,
        headSha: head2,
        headRef: "feature/normalize",
        baseSha: repo.base,
        baseRef: "main",
        repository: REPOSITORY,
        user: { login: "alice" },
      });
      // Only normalize, so both runs of head2 find the same regressions.
      const failed = await gate("head2-failed", "pull_request", synchronize, {
        filter: "^normalize$",
      });
      expect(failed.status, failed.said).toBe(1);
      const failedCheck = ourChecks(head2).at(-1)!;
      expect([failedCheck.status, failedCheck.conclusion]).toEqual(["completed", "failure"]);
      // The gate's check names its regressions in a marker only benchgate writes.
      expect(failedCheck.output.text).toMatch(
        /^<!-- benchgate:result sha=[0-9a-f]{40} \S+ other=- -->\n/,
      );
      expect(readResultMarker(failedCheck.output.text, head2)?.regressions).toEqual({
        kind: "listed",
        ids: ["normalize"],
      });

      const reason = "normalize does three passes on purpose (see #7)";
      // As the bot shows untrusted text: inert Markdown, no #7 reference.
      const shown = escapeMarkdown(reason, { maxLength: 500 });
      const accept = command("maya", `/benchgate accept ${head2} ${reason}`);
      const r = await authorize(accept.payload);
      expectNoRun(r);
      expect(why(r)).toBe(
        `authorize: maya accepted 1 regression of ${head2.slice(0, 12)} (check run ${failedCheck.id})`,
      );
      expect(reactionsOn(accept.stored.id)).toEqual(["eyes", "+1"]);
      const maya = server.user("maya");
      const record = botComments(PR).at(-1)!;
      // Exactly the layout the gate honours, and the passing check that backs it names it.
      const written = writeAcceptance(
        { sha: head2, userId: maya.id, login: "maya", ids: ["normalize"], reason },
        { reason: shown, ids: "normalize" },
      );
      expect(record.body).toBe(written?.body);
      expect(record.body).toContain(
        `<!-- benchgate:reason -->\n${shown}\n<!-- /benchgate:reason -->`,
      );
      const accepted = ourChecks(head2).at(-1)!;
      expect([accepted.name, accepted.status, accepted.conclusion, accepted.output.title]).toEqual([
        "benchgate",
        "completed",
        "success",
        "Regression accepted by maya",
      ]);
      expect(accepted.output.text).toMatch(
        /^<!-- benchgate:accepted .* -->\nAccepted regressions: normalize\n/,
      );
      expect(accepted.output.text?.split("\n")[0]).toBe(written?.checkMarker(record.id));

      const checksBefore = server.state.checkRuns.length;
      const g = await gate("accepted", "pull_request", synchronize, { filter: "^normalize$" });
      // Still a failing comparison, but its regressions were accepted for this SHA: the step succeeds.
      expect(g.status, g.said).toBe(0);
      expect(g.outputs["verdict"]).toBe("fail");
      const added = server.state.checkRuns.slice(checksBefore);
      expect(
        added.map((c) => [c.head_sha, c.status, c.conclusion, c.output.title]),
        g.said,
      ).toEqual([[head2, "completed", "success", "fail (accepted)"]]);
      const markdown = g.outputs["markdown"] ?? "";
      expect(markdown).toContain(
        `**Accepted:** @maya accepted this result for \`${head2.slice(0, 12)}\`: ${shown}\nAccepted regressions: normalize\n`,
      );
      const sticky = botComments(PR).filter((c) => c.body.includes(GATE_MARKER));
      expect(sticky.map((c) => c.body)).toEqual([markdown]);
      expect(g.summary.trimEnd()).toBe(markdown.trimEnd());
      expect(
        g.commands.filter((c) => c.name === "error" && c.properties["title"] === undefined),
      ).toEqual([]);
    });
  });
});
