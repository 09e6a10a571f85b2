// The command grammar (docs/threat-model.md, C1) and the authorize funnel (C2–C7) against an
// in-memory GitHub.
import { describe, expect, it } from "vitest";
import { BOT, fakeGitHub, openPull, type FakeGitHub } from "../../test/support/fake-github.ts";
import type { CommentEvent } from "../github/event.ts";
import { GitHubError } from "../ports/github.ts";
import { findAcceptance, MAX_ACCEPTED_IDS, resultMarker } from "../github/acceptance.ts";
import { CHECK_NAME } from "../github/check-name.ts";
import { authorize, STALE_CHECK_MS, type AuthorizeOptions } from "./authorize.ts";
import { parseCommand } from "./parse-command.ts";

describe("parseCommand", () => {
  it.each([
    ["/rebench", { kind: "rebench" }],
    ["/rebench  \r\n", { kind: "rebench" }],
    ["\n\n/rebench\nthanks!", { kind: "rebench" }],
    ["/rebench parse/.*", { kind: "rebench", filter: "parse/.*" }],
    ["/rebench rounds=7", { kind: "rebench", rounds: 7 }],
    ["/rebench ^parse rounds=3", { kind: "rebench", filter: "^parse", rounds: 3 }],
    [`/rebench ${"a1".repeat(20)}`, { kind: "rebench", sha: "a1".repeat(20) }],
    [
      `/rebench ${"a1".repeat(20)} parse rounds=2`,
      { kind: "rebench", sha: "a1".repeat(20), filter: "parse", rounds: 2 },
    ],
    [
      `/benchgate accept ${"a1".repeat(20)} known cost of the new parser`,
      { kind: "accept", sha: "a1".repeat(20), reason: "known cost of the new parser" },
    ],
    [
      `/benchgate accept ${"a1".repeat(20)}  it is ${"b2".repeat(20)}'s cost`,
      { kind: "accept", sha: "a1".repeat(20), reason: `it is ${"b2".repeat(20)}'s cost` },
    ],
  ])("accepts %j", (body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it.each([
    "not /rebench",
    "> /rebench",
    "```\n/rebench\n```",
    "`/rebench`",
    "<!-- /rebench -->",
    "／rebench",
    "/rebenchmark",
    "please /rebench",
    "",
  ])("ignores %j", (body) => {
    expect(parseCommand(body)).toEqual({ kind: "ignored" });
  });

  it.each([
    "/rebench;rm -rf /",
    "/rebench rounds=0",
    "/rebench rounds=51",
    "/rebench rounds=3 rounds=4",
    "/rebench a b",
    "/rebench foo=bar",
    // C1: a commit is named in full or not at all.
    "/rebench 1a2b3c4",
    `/rebench ${"a1".repeat(19)}a`,
    `/rebench ${"A1".repeat(20)}`,
    `/rebench ${"a1".repeat(20)} ${"b2".repeat(20)}`,
    "/rebench \u202Eparse",
    "/rebench\u200B",
    "/benchgate accept",
    "/benchgate merge",
    // C7: the commit comes first, in full, and is never read out of the reason.
    "/benchgate accept known cost of the new parser",
    `/benchgate accept known cost of ${"a1".repeat(20)}`,
    "/benchgate accept 1a2b3c4 known cost",
    `/benchgate accept ${"A1".repeat(20)} known cost`,
    `/benchgate accept ${"a1".repeat(20)}`,
    `/benchgate accept ${"a1".repeat(20)}   `,
  ])("answers %j with the usage", (body) => {
    expect(parseCommand(body).kind).toBe("invalid");
  });

  it("looks only at the start of a 65,536-character body, quickly", () => {
    const body = `/rebench\n${"x".repeat(65_536)}`;
    const t0 = performance.now();
    expect(parseCommand(body)).toEqual({ kind: "rebench" });
    expect(parseCommand("a".repeat(100_000) + "!").kind).toBe("ignored");
    expect(performance.now() - t0).toBeLessThan(1000); // generous: linear work on 165 KB
  });
});

const HEAD = "a".repeat(40);
const NEWER = "c".repeat(40);
const BASE = "b".repeat(40);

function setup(
  permission: "admin" | "maintain" | "write" | "triage" | "read" | "none" | Error = "write",
): FakeGitHub {
  const gh = fakeGitHub();
  gh.permissions.set("alice", permission);
  gh.pulls.set(7, openPull(BASE, HEAD));
  return gh;
}

function comment(body: string, extra: Partial<CommentEvent> = {}): CommentEvent {
  return {
    kind: "comment",
    action: "created",
    isPullRequest: true,
    issueNumber: 7,
    commentId: 55,
    body,
    author: { id: 100, login: "alice", type: "User" },
    ...extra,
  };
}

const run = (gh: FakeGitHub, event: CommentEvent, options: Partial<AuthorizeOptions> = {}) =>
  authorize(event, gh, { botUserId: BOT.id, log: () => {}, ...options });

describe("authorize", () => {
  it("C5: a writer's /rebench pins the head SHA read now, with 👀 then 🚀", async () => {
    const gh = setup("write");
    const result = await run(gh, comment("/rebench parse rounds=3"));
    expect(result).toMatchObject({
      run: true,
      headSha: HEAD,
      baseSha: BASE,
      prNumber: 7,
      commentId: 55,
      rounds: 3,
      filter: "parse",
    });
    expect(gh.reactions.map((r) => r.reaction)).toEqual(["eyes", "rocket"]);
  });

  it("C5: a push after the command does not change the pinned SHA", async () => {
    const gh = setup("admin");
    const result = await run(gh, comment("/rebench"));
    const pr = gh.pulls.get(7);
    if (pr !== undefined)
      gh.pulls.set(7, { ...pr, headSha: NEWER, commits: [...pr.commits, NEWER] });
    expect(result.headSha).toBe(HEAD);
  });

  it.each(["maintain", "admin"] as const)("C3: %s may run commands", async (p) => {
    expect((await run(setup(p), comment("/rebench"))).run).toBe(true);
  });

  it.each(["read", "triage", "none"] as const)(
    "C3: %s is denied, with one reply however often asked",
    async (p) => {
      const gh = setup(p);
      expect((await run(gh, comment("/rebench"))).run).toBe(false);
      expect((await run(gh, comment("/rebench"))).run).toBe(false);
      const replies = gh.comments.filter((c) => c.body.includes("benchgate:denied"));
      expect(replies).toHaveLength(1);
      expect(replies[0]?.body).not.toMatch(/@alice/); // no mention ping
    },
  );

  it("C3: author_association is never consulted: the API's answer decides", async () => {
    // The event carries no association at all here; a MEMBER with read is denied like anyone.
    expect((await run(setup("read"), comment("/rebench"))).run).toBe(false);
  });

  it("C3: a failing permission endpoint denies (fail closed)", async () => {
    const gh = setup(new Error("500 Internal Server Error"));
    const result = await run(gh, comment("/rebench"));
    expect(result.run).toBe(false);
    expect(gh.reactions.map((r) => r.reaction)).toContain("-1");
  });

  it("C2: plain issues, edits, deletions and bots are ignored without any API call", async () => {
    for (const event of [
      comment("/rebench", { isPullRequest: false }),
      comment("/rebench", { action: "edited" }),
      comment("/rebench", { action: "deleted" }),
      comment("/rebench", { author: { id: BOT.id, login: BOT.login, type: "Bot" } }),
      comment("/rebench", { author: { id: 5, login: "renovate[bot]", type: "Bot" } }),
      comment("nice work"),
    ]) {
      const gh = setup("admin");
      expect((await run(gh, event)).run).toBe(false);
      expect(gh.reactions).toEqual([]);
      expect(gh.comments).toEqual([]);
    }
  });

  it("C4: a closed or locked pull request is refused", async () => {
    const gh = setup("admin");
    const pr = gh.pulls.get(7);
    if (pr !== undefined) gh.pulls.set(7, { ...pr, state: "closed" });
    expect((await run(gh, comment("/rebench"))).run).toBe(false);
  });

  it("C3: an allowlist is keyed by user id: a renamed login keeps its place, a taken login does not", async () => {
    const allowedUserIds = new Set([100]);
    const renamed = setup("write");
    renamed.permissions.set("alice-renamed", "write");
    const asRenamed = comment("/rebench", {
      author: { id: 100, login: "alice-renamed", type: "User" },
    });
    expect((await run(renamed, asRenamed, { allowedUserIds })).run).toBe(true);
    // Someone else now holds the login "alice" (and even write permission): denied.
    const taken = setup("write");
    const asImpostor = comment("/rebench", { author: { id: 666, login: "alice", type: "User" } });
    const denied = await run(taken, asImpostor, { allowedUserIds });
    expect(denied).toMatchObject({ run: false });
    expect(denied.why).toMatch(/not in allowed-user-ids/);
    expect(taken.comments[0]?.body).toContain("no place on that list");
  });

  it("C5: /rebench <sha> runs only when the SHA is still the head, and shows the head when not", async () => {
    const ok = setup("write");
    expect(await run(ok, comment(`/rebench ${HEAD}`))).toMatchObject({ run: true, headSha: HEAD });
    const moved = setup("write");
    const stale = await run(moved, comment(`/rebench ${NEWER}`));
    expect(stale.run).toBe(false);
    expect(moved.comments[0]?.body).toContain(`the head is now \`${HEAD}\``);
    expect(moved.checks).toEqual([]);
  });

  it("a fork's pull request runs only with the reviewed commit named in the command", async () => {
    const gh = setup("maintain");
    const pr = gh.pulls.get(7);
    if (pr !== undefined) gh.pulls.set(7, { ...pr, headRepo: "mallory/r" });
    const bare = await run(gh, comment("/rebench"));
    expect(bare.run).toBe(false);
    expect(gh.comments[0]?.body).toContain(`\`/rebench ${HEAD}\``);
    expect((await run(gh, comment(`/rebench ${HEAD}`))).run).toBe(true);
  });

  it("C6: a second /rebench while one is queued for the same SHA answers instead of running; a stale queued check does not block", async () => {
    const gh = setup("write");
    const first = await run(gh, comment("/rebench"));
    expect(first).toMatchObject({ run: true, checkId: gh.checks[0]?.id });
    expect(gh.checks.map((c) => c.status)).toEqual(["in_progress"]);
    const second = await run(gh, comment("/rebench", { commentId: 56 }));
    expect(second.run).toBe(false);
    expect(gh.comments.at(-1)?.body).toMatch(/already queued or running \(check run \d+\)/);
    expect(gh.checks).toHaveLength(1);
    // Seven hours later the queued check is taken as abandoned (its run was cancelled).
    const later = () => new Date(Date.now() + STALE_CHECK_MS + 3_600_000);
    expect((await run(gh, comment("/rebench", { commentId: 57 }), { now: later })).run).toBe(true);
    // Once completed, a new command runs again.
    const gh2 = setup("write");
    const done = await run(gh2, comment("/rebench"));
    await gh2.completeCheck(done.checkId ?? 0, "failure", { title: "fail", summary: "" });
    expect((await run(gh2, comment("/rebench", { commentId: 58 }))).run).toBe(true);
  });

  it("a malformed command from a writer gets the usage, not a run", async () => {
    const gh = setup("write");
    expect((await run(gh, comment("/rebench rounds=99"))).run).toBe(false);
    expect(gh.comments[0]?.body).toContain("usage:");
  });

  it("C6: when the checks cannot be listed, /rebench queues nothing and asks to try again", async () => {
    const gh = setup("write");
    gh.listChecksError = new GitHubError("listing the benchgate checks: 502", 502);
    const result = await run(gh, comment("/rebench"));
    expect(result).toMatchObject({ run: false });
    expect(result.checkId).toBeUndefined();
    expect(result.headSha).toBeUndefined();
    expect(result.why).toMatch(/could not check for a benchmark of a{12} already queued/);
    expect(gh.checks).toEqual([]);
    expect(gh.reactions.map((r) => r.reaction)).toEqual(["eyes", "-1"]);
    expect(gh.comments.map((c) => c.body)).toEqual([
      `benchgate: could not check whether a benchmark of \`${"a".repeat(12)}\` is already queued or running, so none was queued. Please try again in a few minutes.`,
    ]);
  });
});

/** benchgate's completed check of `sha`, failed on `ids` (and `other`), as the gate writes it. */
async function failedCheck(
  gh: FakeGitHub,
  sha: string,
  ids: readonly string[],
  other: readonly string[] = [],
): Promise<number> {
  const output = {
    title: "fail",
    summary: "",
    text: `${resultMarker(sha, ids, other)}\n### benchgate`,
  };
  const id = await gh.createCheck(sha, CHECK_NAME, output);
  await gh.completeCheck(id, "failure", output);
  return id;
}

/** What the gate would find: the bot's record of `sha` covering `ids`, backed by its check. */
const accepted = (gh: FakeGitHub, sha: string, ids: readonly string[]) =>
  findAcceptance(
    { comments: gh.comments, checks: gh.checks, botId: BOT.id, app: gh.app },
    sha,
    ids,
  );

const accepting = (sha = HEAD, reason = "the new <b>parser</b> is worth it") =>
  comment(`/benchgate accept ${sha} ${reason}`);

/** No acceptance happened: no record, no new (passing) check, and 👎. */
function expectRefused(gh: FakeGitHub, checksBefore: number): void {
  expect(gh.comments.filter((c) => c.body.includes("benchgate:accept"))).toEqual([]);
  expect(gh.checks.slice(checksBefore)).toEqual([]);
  expect(gh.reactions.at(-1)?.reaction).toBe("-1");
  expect(gh.comments.at(-1)?.body).toMatch(/^benchgate: not accepted — /);
}

describe("/benchgate accept (C7)", () => {
  it("accepts exactly the regressions benchgate's failed check of the named head lists, and passes that SHA", async () => {
    const gh = setup("maintain");
    const failed = await failedCheck(gh, HEAD, ["parse/json", "parse/@xml"]);
    const result = await run(gh, accepting());
    expect(result.run).toBe(false);
    expect(result.why).toBe(
      `alice accepted 2 regressions of ${"a".repeat(12)} (check run ${failed})`,
    );
    const record = accepted(gh, HEAD, ["parse/json", "parse/@xml"]);
    expect(record).toMatchObject({ sha: HEAD, login: "alice", userId: 100 });
    expect(record?.ids).toEqual(["parse/json", "parse/@xml"]);
    expect(record?.reason).not.toContain("<b>");
    // Fewer regressions later are covered; another or an additional one is not.
    expect(accepted(gh, HEAD, ["parse/json"])).toBeDefined();
    expect(accepted(gh, HEAD, ["parse/json", "lex"])).toBeUndefined();
    expect(accepted(gh, HEAD, [])).toBeUndefined();
    expect(accepted(gh, NEWER, ["parse/json"])).toBeUndefined();
    const passed = gh.checks.filter((c) => c.conclusion === "success");
    expect(passed.map((c) => c.headSha)).toEqual([HEAD]);
    // The passing check names the record comment it backs, then the ids for people.
    const recordId = gh.comments.find((c) => c.body.includes("benchgate:accept "))?.id;
    expect(passed[0]?.text).toMatch(
      new RegExp(
        `^<!-- benchgate:accepted sha=a{40} record=${recordId} ids=[\\w-]+ -->\nAccepted regressions: parse/json, parse/@<!-- -->xml\n`,
      ),
    );
    expect(gh.reactions.map((r) => r.reaction)).toEqual(["eyes", "+1"]);
  });

  it("the head moved between the comment and the job: refused, no record and no passing check", async () => {
    const gh = setup("maintain");
    await failedCheck(gh, HEAD, ["parse"]);
    // The maintainer reviewed HEAD and commented; a push made NEWER the head before the job ran.
    const pr = gh.pulls.get(7);
    if (pr !== undefined)
      gh.pulls.set(7, { ...pr, headSha: NEWER, commits: [...pr.commits, NEWER] });
    await failedCheck(gh, NEWER, ["parse"]);
    const result = await run(gh, accepting(HEAD));
    expect(result).toMatchObject({ run: false });
    expectRefused(gh, 2);
    expect(gh.comments.at(-1)?.body).toContain(`the head is now \`${NEWER}\``);
  });

  it("a fork's pull request (like any) needs the SHA: without it the command is invalid", async () => {
    const gh = setup("maintain");
    const pr = gh.pulls.get(7);
    if (pr !== undefined) gh.pulls.set(7, { ...pr, headRepo: "mallory/r" });
    await failedCheck(gh, HEAD, ["parse"]);
    const result = await run(gh, comment("/benchgate accept known cost"));
    expect(result.why).toMatch(/^invalid command: accepting a regression needs the commit/);
    expect(gh.reactions.map((r) => r.reaction)).toEqual(["eyes", "confused"]);
    expect(gh.comments.map((c) => c.body)).toEqual([
      expect.stringContaining("`/benchgate accept <sha> <reason>`"),
    ]);
    expect(gh.checks).toHaveLength(1);
    expect((await run(gh, accepting())).why).toMatch(/^alice accepted 1 regression of /);
  });

  it.each([
    ["no check at all", async () => {}, /has no completed benchgate check/],
    [
      "a benchmark still running",
      async (gh: FakeGitHub) => {
        await failedCheck(gh, HEAD, ["parse"]);
        await gh.createCheck(HEAD, CHECK_NAME, { title: "Queued", summary: "" });
      },
      /is still queued or running/,
    ],
    [
      "a passing check",
      async (gh: FakeGitHub) => {
        const id = await gh.createCheck(HEAD, CHECK_NAME, { title: "pass", summary: "" });
        await gh.completeCheck(id, "success", {
          title: "pass",
          summary: "",
          text: resultMarker(HEAD, [], []),
        });
      },
      /did not fail \(conclusion: success\)/,
    ],
    [
      "an error (a failure without the result marker)",
      async (gh: FakeGitHub) => {
        const id = await gh.createCheck(HEAD, CHECK_NAME, { title: "error", summary: "" });
        await gh.completeCheck(id, "failure", { title: "error", summary: "no config" });
      },
      /does not list confirmed regressions/,
    ],
    [
      "a failure that is not a regression",
      async (gh: FakeGitHub) => void (await failedCheck(gh, HEAD, [], ["budgets"])),
      /fails for broken budgets, not for confirmed regressions/,
    ],
    [
      "regressions and a changed golden output",
      async (gh: FakeGitHub) => void (await failedCheck(gh, HEAD, ["parse"], ["golden"])),
      /also fails for changed golden outputs, which an acceptance does not cover/,
    ],
    [
      "more regressions than one acceptance may name",
      async (gh: FakeGitHub) =>
        void (await failedCheck(
          gh,
          HEAD,
          Array.from({ length: MAX_ACCEPTED_IDS + 1 }, (_, i) => `b${i}`),
        )),
      new RegExp(`has ${MAX_ACCEPTED_IDS + 1} regressions .* at most ${MAX_ACCEPTED_IDS}`),
    ],
    [
      "a marker for another commit",
      async (gh: FakeGitHub) => {
        const output = { title: "fail", summary: "", text: resultMarker(NEWER, ["parse"], []) };
        const id = await gh.createCheck(HEAD, CHECK_NAME, output);
        await gh.completeCheck(id, "failure", output);
      },
      /does not list confirmed regressions/,
    ],
    [
      "a look-alike check by another app",
      async (gh: FakeGitHub) => {
        gh.app = "mallory-ci";
        await failedCheck(gh, HEAD, ["parse"]);
        gh.app = "github-actions";
      },
      /has no completed benchgate check/,
    ],
    [
      "checks that cannot be listed",
      async (gh: FakeGitHub) => {
        await failedCheck(gh, HEAD, ["parse"]);
        gh.listChecksError = new GitHubError("502", 502);
      },
      /could not read the benchgate checks .* try again/,
    ],
    [
      "a bot user that is not an app's bot",
      async (gh: FakeGitHub) => {
        await failedCheck(gh, HEAD, ["parse"]);
        gh.users.set(BOT.id, "a-machine-user");
      },
      /is not a GitHub App's bot/,
    ],
  ])("refuses with %s: no record, no passing check", async (_label, arrange, says) => {
    const gh = setup("maintain");
    await arrange(gh);
    const before = gh.checks.length;
    expect((await run(gh, accepting())).run).toBe(false);
    expectRefused(gh, before);
    expect(gh.comments.at(-1)?.body).toMatch(says);
  });

  it("an acceptance record in a comment not written by the bot is never honoured", async () => {
    const gh = setup("write");
    await failedCheck(gh, HEAD, ["parse"]);
    await run(gh, accepting(HEAD, "ok"));
    expect(accepted(gh, HEAD, ["parse"])).toBeDefined();
    const forged = gh.comments.map((c) => ({
      ...c,
      author: { id: 999, login: "mallory", type: "User" },
    }));
    const sources = { comments: forged, checks: gh.checks, botId: BOT.id, app: gh.app };
    expect(findAcceptance(sources, HEAD, ["parse"])).toBeUndefined();
  });
});
