// The command grammar (docs/threat-model.md, C1) and the authorize funnel (C2–C7) against an
// in-memory GitHub.
import { describe, expect, it } from "vitest";
import { BOT, fakeGitHub, type FakeGitHub } from "../../test/support/fake-github.ts";
import type { CommentEvent } from "../github/event.ts";
import { findAcceptance } from "../github/acceptance.ts";
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
      "/benchgate accept known cost of the new parser",
      { kind: "accept", reason: "known cost of the new parser" },
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
  gh.pulls.set(7, {
    number: 7,
    state: "open",
    draft: false,
    locked: false,
    merged: false,
    headSha: HEAD,
    baseSha: BASE,
    headRepo: "o/r",
    baseRepo: "o/r",
    title: "t",
    commits: [BASE, HEAD],
  });
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

  it.each(["maintain", "admin"] as const)("A5: %s may run commands", async (p) => {
    expect((await run(setup(p), comment("/rebench"))).run).toBe(true);
  });

  it.each(["read", "triage", "none"] as const)(
    "A4: %s is denied, with one reply however often asked",
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

  it("/benchgate accept records who accepted which SHA and why, and passes the check", async () => {
    const gh = setup("maintain");
    const result = await run(gh, comment("/benchgate accept the new <b>parser</b> is worth it"));
    expect(result.run).toBe(false);
    const record = findAcceptance(gh.comments, BOT.id, HEAD);
    expect(record).toMatchObject({ sha: HEAD, login: "alice", userId: 100 });
    expect(record?.reason).not.toContain("<b>");
    expect(gh.checks.map((c) => c.conclusion)).toEqual(["success"]);
    expect(findAcceptance(gh.comments, BOT.id, NEWER)).toBeUndefined();
  });

  it("an acceptance record in a comment not written by the bot is never honoured", async () => {
    const gh = setup("write");
    await run(gh, comment("/benchgate accept ok"));
    const forged = gh.comments.map((c) => ({
      ...c,
      author: { id: 999, login: "mallory", type: "User" },
    }));
    expect(findAcceptance(forged, BOT.id, HEAD)).toBeUndefined();
  });
});
