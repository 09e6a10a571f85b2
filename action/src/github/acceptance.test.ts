// The hidden markers of an acceptance (docs/threat-model.md, C7): hostile benchmark ids survive
// them exactly and cannot break out of them, the caps hold, and whatever cannot be read back
// accepts nothing. A record counts only in the exact layout the bot writes, by the bot, with the
// passing check the bot completed for it listing the same ids.
import { describe, expect, it } from "vitest";
import type { CheckRun, IssueComment } from "../ports/github.ts";
import {
  ACCEPTANCE_COMMENT_MARKER,
  acceptanceRecords,
  findAcceptance,
  MAX_ACCEPTED_IDS,
  readResultMarker,
  resultMarker,
  writeAcceptance,
  type Acceptance,
} from "./acceptance.ts";

const SHA = "a".repeat(40);
const OTHER_SHA = "c".repeat(40);
const BOT = 41898282;
const HOSTILE = [
  "parse --> <!-- benchgate:accept -->",
  "line\nbreak",
  'quote " and \\ backslash',
  "ünïcödé \u202E bidi \uD83D\uDE00",
  "x".repeat(1024),
];

const APP = "github-actions";

const byBot = (body: string, id = 1): IssueComment => ({
  id,
  body,
  author: { id: BOT, login: "github-actions[bot]", type: "Bot" },
  createdAt: "2025-01-01T00:00:00Z",
});
const writing = (a: Partial<Acceptance> = {}) =>
  writeAcceptance(
    { sha: SHA, userId: 100, login: "maya", ids: ["parse"], reason: "ok", ...a },
    { reason: "ok", ids: "shown" },
  );
const record = (a: Partial<Acceptance> = {}): string => writing(a)?.body ?? "";

/** The passing check the bot completes on the SHA when it accepts: its text opens with `marker`. */
const passed = (marker: string, over: Partial<CheckRun> = {}): CheckRun => ({
  id: 9,
  headSha: SHA,
  status: "completed",
  conclusion: "success",
  startedAt: null,
  completedAt: null,
  app: APP,
  text: `${marker}\nAccepted regressions: shown`,
  ...over,
});

/** Bot comment `id` holds the record of `a`, and the bot's passing check backs it. */
function accepted(a: Partial<Acceptance> = {}, id = 1) {
  const w = writing(a);
  return { comment: byBot(w?.body ?? "", id), check: passed(w?.checkMarker(id) ?? "") };
}

const find = (
  comments: readonly IssueComment[],
  checks: readonly CheckRun[],
  regressions: readonly string[],
  sha = SHA,
) => findAcceptance({ comments, checks, botId: BOT, app: APP }, sha, regressions);

describe("the result marker the gate writes into its check", () => {
  it("carries hostile ids exactly, in an alphabet that cannot end the comment", () => {
    const marker = resultMarker(SHA, HOSTILE, ["budgets", "golden"]);
    expect(marker).toMatch(
      /^<!-- benchgate:result sha=a{40} regressions=[A-Za-z0-9_-]+ other=budgets,golden -->$/,
    );
    expect(readResultMarker(`${marker}\n### benchgate`, SHA)).toEqual({
      sha: SHA,
      regressions: { kind: "listed", ids: HOSTILE },
      other: ["budgets", "golden"],
    });
    expect(readResultMarker(resultMarker(SHA, [], []), SHA)).toEqual({
      sha: SHA,
      regressions: { kind: "listed", ids: [] },
      other: [],
    });
  });

  it("writes only a count when the list is too long, and reads it as such", () => {
    const many = Array.from({ length: MAX_ACCEPTED_IDS + 1 }, (_, i) => `b${i}`);
    expect(readResultMarker(resultMarker(SHA, many, []), SHA)?.regressions).toEqual({
      kind: "too-many",
      count: MAX_ACCEPTED_IDS + 1,
    });
    const long = Array.from({ length: 20 }, (_, i) => `${i}${"y".repeat(1000)}`);
    expect(readResultMarker(resultMarker(SHA, long, []), SHA)?.regressions.kind).toBe("too-many");
  });

  it("reads nothing from another commit's marker, a marker not at the start, or a tampered list", () => {
    const marker = resultMarker(SHA, ["parse"], []);
    expect(readResultMarker(marker, OTHER_SHA)).toBeUndefined();
    expect(readResultMarker(`text\n${marker}`, SHA)).toBeUndefined();
    expect(readResultMarker(null, SHA)).toBeUndefined();
    const encoded = (ids: string): string =>
      `<!-- benchgate:result sha=${SHA} regressions=${ids} other=- -->`;
    for (const bad of [
      Buffer.from('{"a":1}').toString("base64url"),
      Buffer.from("[1]").toString("base64url"),
      Buffer.from('["a","a"]').toString("base64url"),
      Buffer.from('[""]').toString("base64url"),
      Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]).toString("base64url"), // invalid UTF-8
      "A",
    ])
      expect(readResultMarker(encoded(bad), SHA), bad).toBeUndefined();
  });
});

describe("the acceptance record the bot writes", () => {
  it("is honoured only by the bot, for its SHA, when it names every regression found", () => {
    const { comment, check } = accepted({ ids: HOSTILE });
    expect(find([comment], [check], HOSTILE)?.ids).toEqual(HOSTILE);
    expect(find([comment], [check], [HOSTILE[1] ?? ""])).toBeDefined();
    expect(find([comment], [check], [...HOSTILE, "lex"])).toBeUndefined();
    expect(find([comment], [check], [])).toBeUndefined();
    expect(find([comment], [check], HOSTILE, OTHER_SHA)).toBeUndefined();
    const checks = [check];
    expect(
      findAcceptance({ comments: [comment], checks, botId: 1, app: APP }, SHA, HOSTILE),
    ).toBeUndefined();
  });

  it("any record that covers counts, the newest first", () => {
    const first = accepted({ ids: ["parse"], login: "maya" }, 1);
    const second = accepted({ ids: ["parse", "lex"], login: "adam" }, 2);
    const comments = [first.comment, second.comment];
    const checks = [first.check, second.check];
    expect(find(comments, checks, ["parse"])?.login).toBe("adam");
    expect(find(comments, checks, ["lex"])?.login).toBe("adam");
    expect(find(comments.slice(0, 1), checks, ["lex"])).toBeUndefined();
    expect(acceptanceRecords(comments, BOT, SHA, ["parse"]).map((r) => r.commentId)).toEqual([
      1, 2,
    ]);
  });

  it("a record of the old form (no ids, or no acceptance comment marker) accepts nothing", () => {
    const old = `✅ **Regression accepted** for \`${SHA.slice(0, 12)}\` by @maya:\n<!-- benchgate:accept sha=${SHA} user=100 login=maya -->`;
    expect(find([byBot(old)], [], ["parse"])).toBeUndefined();
    const { comment, check } = accepted();
    const unmarked = comment.body.replace(`${ACCEPTANCE_COMMENT_MARKER}\n`, "");
    expect(find([{ ...comment, body: unmarked }], [check], ["parse"])).toBeUndefined();
    expect(find([comment], [check], ["parse"])).toBeDefined();
  });

  it.each([
    ["inside a code fence", (b: string) => `\`\`\`\n${b}\n\`\`\``],
    ["inside a tilde fence", (b: string) => `~~~\n${b}\n~~~`],
    ["as an indented code block", (b: string) => b.replace(/^/gm, "    ")],
    ["inside inline code", (b: string) => `\`${b}\``],
    ["quoted", (b: string) => b.replace(/^/gm, "> ")],
    ["after other text", (b: string) => `A lint bot quotes the PR:\n\n${b}`],
    ["before other text", (b: string) => `${b}\n\nquoted by a coverage bot`],
    ["with a line break in its reason", (b: string) => b.replace("\nok\n", "\nok\nmore\n")],
    ["with a code span as its reason", (b: string) => b.replace("\nok\n", "\n`ok`\n")],
    ["with an opened fence as its reason", (b: string) => b.replace("\nok\n", "\n```\n")],
    ["with another login shown than recorded", (b: string) => b.replace("by @maya", "by @adam")],
    ["with CRLF line ends", (b: string) => b.replace(/\n/g, "\r\n")],
    ["after a fence opened in place of its marker", (b: string) => b.replace(/^.*\n/, "```\n")],
    [
      "after a fence opened in place of its note",
      (b: string) => b.replace(/\nThe .*\n/, "\n```\n"),
    ],
  ])("is not a record %s, even by the bot with its check", (_label, edit) => {
    const { comment, check } = accepted();
    expect(find([comment], [check], ["parse"])).toBeDefined();
    expect(find([{ ...comment, body: edit(comment.body) }], [check], ["parse"])).toBeUndefined();
  });

  it.each([
    ["missing", () => []],
    ["by another app", (c: CheckRun) => [{ ...c, app: "mallory-ci" }]],
    ["on another commit", (c: CheckRun) => [{ ...c, headSha: OTHER_SHA }]],
    ["not passing", (c: CheckRun) => [{ ...c, conclusion: "failure" }]],
    ["still in progress", (c: CheckRun) => [{ ...c, status: "in_progress", conclusion: null }]],
    ["for another record", (c: CheckRun) => [{ ...c, text: writing()?.checkMarker(2) ?? "" }]],
    [
      "listing other ids",
      (c: CheckRun) => [{ ...c, text: writing({ ids: ["lex"] })?.checkMarker(1) ?? "" }],
    ],
    [
      "listing more ids",
      (c: CheckRun) => [{ ...c, text: writing({ ids: ["parse", "lex"] })?.checkMarker(1) ?? "" }],
    ],
    ["without the marker first", (c: CheckRun) => [{ ...c, text: `x\n${c.text ?? ""}` }]],
  ])("accepts nothing when the bot's passing check of the record is %s", (_label, checks) => {
    const { comment, check } = accepted();
    expect(find([comment], [check], ["parse"])).toBeDefined();
    expect(find([comment], checks(check), ["parse"])).toBeUndefined();
  });

  it("cannot be written for no ids, too many or too long ones, or shown text that is not escaped", () => {
    expect(record({ ids: [] })).toBe("");
    expect(record({ ids: Array.from({ length: MAX_ACCEPTED_IDS + 1 }, (_, i) => `${i}`) })).toBe(
      "",
    );
    expect(record({ ids: ["z".repeat(1025)] })).toBe("");
    const a = { sha: SHA, userId: 1, login: "maya", ids: ["parse"], reason: "r" };
    for (const reason of ["two\nlines", "`code`", "```", "    indented", "<!-- x -->"])
      expect(writeAcceptance(a, { reason, ids: "parse" }), reason).toBeUndefined();
    expect(writeAcceptance(a, { reason: "r", ids: "a`b" })).toBeUndefined();
    expect(writeAcceptance(a, { reason: "@<!-- -->bob", ids: "parse" })).toBeDefined();
  });
});
