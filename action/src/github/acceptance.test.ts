// The two hidden markers of an acceptance (docs/threat-model.md, C7): hostile benchmark ids
// survive them exactly and cannot break out of them, the caps hold, and whatever cannot be read
// back accepts nothing.
import { describe, expect, it } from "vitest";
import type { IssueComment } from "../ports/github.ts";
import {
  acceptanceBody,
  acceptanceMarker,
  findAcceptance,
  MAX_ACCEPTED_IDS,
  readResultMarker,
  resultMarker,
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

const byBot = (body: string, id = 1): IssueComment => ({
  id,
  body,
  author: { id: BOT, login: "github-actions[bot]", type: "Bot" },
  createdAt: "2025-01-01T00:00:00Z",
});
const record = (a: Partial<Acceptance> = {}): string =>
  acceptanceBody(
    { sha: SHA, userId: 100, login: "maya", ids: ["parse"], reason: "ok", ...a },
    { reason: "ok", ids: "shown" },
  ) ?? "";

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
    const comments = [byBot(record({ ids: HOSTILE }))];
    expect(findAcceptance(comments, BOT, SHA, HOSTILE)?.ids).toEqual(HOSTILE);
    expect(findAcceptance(comments, BOT, SHA, [HOSTILE[1] ?? ""])).toBeDefined();
    expect(findAcceptance(comments, BOT, SHA, [...HOSTILE, "lex"])).toBeUndefined();
    expect(findAcceptance(comments, BOT, SHA, [])).toBeUndefined();
    expect(findAcceptance(comments, BOT, OTHER_SHA, HOSTILE)).toBeUndefined();
    expect(findAcceptance(comments, 1, SHA, HOSTILE)).toBeUndefined();
  });

  it("any record that covers counts, the newest first", () => {
    const comments = [
      byBot(record({ ids: ["parse"], login: "maya" }), 1),
      byBot(record({ ids: ["parse", "lex"], login: "adam" }), 2),
    ];
    expect(findAcceptance(comments, BOT, SHA, ["parse"])?.login).toBe("adam");
    expect(findAcceptance(comments, BOT, SHA, ["lex"])?.login).toBe("adam");
    expect(findAcceptance(comments.slice(0, 1), BOT, SHA, ["lex"])).toBeUndefined();
  });

  it("a record of the old form (no ids) accepts nothing", () => {
    const old = `✅ **Regression accepted** for \`${SHA.slice(0, 12)}\` by @maya:\n<!-- benchgate:accept sha=${SHA} user=100 login=maya -->`;
    expect(findAcceptance([byBot(old)], BOT, SHA, ["parse"])).toBeUndefined();
  });

  it("cannot be written for no ids, too many or too long ones", () => {
    const base = { sha: SHA, userId: 1, login: "maya" };
    expect(acceptanceMarker({ ...base, ids: [] })).toBeUndefined();
    expect(
      acceptanceMarker({
        ...base,
        ids: Array.from({ length: MAX_ACCEPTED_IDS + 1 }, (_, i) => `${i}`),
      }),
    ).toBeUndefined();
    expect(acceptanceMarker({ ...base, ids: ["z".repeat(1025)] })).toBeUndefined();
    expect(record({ ids: [] })).toBe("");
  });
});
