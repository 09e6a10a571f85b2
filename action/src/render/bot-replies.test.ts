// The bot's replies: text a user chose is made inert (no mention pings, no Markdown), the denied
// reply carries the marker the bot finds it by, and SHAs are shown in full where a command
// must name one.
import { describe, expect, it } from "vitest";
import {
  acceptedCheck,
  acceptRefusedReply,
  checksUnreadableReply,
  deniedMarker,
  deniedReply,
  forkNeedsShaReply,
  invalidCommandReply,
  notHeadReply,
  queuedCheck,
} from "./bot-replies.ts";

const HEAD = "a".repeat(40);
const BASE = "b".repeat(40);

describe("bot replies", () => {
  it("denies with the reason, the escaped login and the marker", () => {
    const body = deniedReply({
      userId: 7,
      login: "@eve",
      hasAllowList: false,
      listed: true,
      permission: "read",
    });
    expect(body).toMatch(/^benchgate commands need write, maintain or admin permission on this/);
    expect(body).toContain("has read. A maintainer can run `/rebench`.");
    expect(body).not.toMatch(/(^|[^>])@eve/);
    expect(body.endsWith(`\n${deniedMarker(7)}`)).toBe(true);
  });

  it("names the list of allowed users only when there is one", () => {
    const denial = { userId: 7, login: "eve", permission: "write" } as const;
    expect(deniedReply({ ...denial, hasAllowList: true, listed: false })).toContain(
      "and a place on its list of allowed users; `eve` has no place on that list.",
    );
    expect(deniedReply({ ...denial, hasAllowList: false, listed: true })).not.toContain("list");
    expect(
      deniedReply({ ...denial, permission: "unknown", hasAllowList: false, listed: true }),
    ).toContain("has a permission that could not be read.");
  });

  it("escapes the problem of an invalid command and appends the usage", () => {
    const body = invalidCommandReply("bad `x` <b>", "usage: here");
    expect(body).toMatch(/^benchgate: bad .*\. usage: here$/);
    expect(body).not.toMatch(/[<`]/);
  });

  it("says why an acceptance was refused, with the current head in full when it moved", () => {
    expect(acceptRefusedReply("c".repeat(40), { kind: "not-head", headSha: HEAD }, 50)).toBe(
      `benchgate: not accepted — \`${"c".repeat(12)}\` is not the head of this pull request any more; the head is now \`${HEAD}\`. Review it and its benchmark, then \`/benchgate accept ${HEAD} <reason>\`.`,
    );
    expect(
      acceptRefusedReply(HEAD, { kind: "other-failures", other: ["budgets", "<b>"] }, 50),
    ).toContain("also fails for broken budgets, &lt;b&gt;, which an acceptance does not cover");
    expect(acceptRefusedReply(HEAD, { kind: "too-many", count: 51 }, 50)).toContain(
      "has 51 regressions (or ids too long to record); at most 50 can be accepted at once.",
    );
    expect(acceptRefusedReply(HEAD, { kind: "no-app", login: "@eve" }, 50)).not.toMatch(
      /(^|[^>])@eve/,
    );
    expect(checksUnreadableReply(HEAD)).toContain("so none was queued. Please try again");
  });

  it("names the full head SHA where the next command must name it", () => {
    expect(forkNeedsShaReply(HEAD, "usage")).toContain(`\`/rebench ${HEAD}\` (the current head)`);
    expect(notHeadReply("c".repeat(40), HEAD)).toBe(
      `benchgate: \`${"c".repeat(12)}\` is not the head of this pull request any more; the head is now \`${HEAD}\`. Review it, then \`/rebench ${HEAD}\`.`,
    );
  });

  it("escapes the reason and the ids of an acceptance, and the login of a queued benchmark", () => {
    const accepted = acceptedCheck("alice", HEAD, "known cost <b>@bob</b>", ["parse", "<!--x"]);
    expect(accepted.title).toBe("Regression accepted by alice");
    expect(accepted.summary).toMatch(
      /^alice accepted the regressions of 2 benchmarks in a{12}: known cost /,
    );
    expect(accepted.summary).not.toMatch(/<b>|(^|[^>])@bob/);
    expect(accepted.text).toMatch(/^Accepted regressions: parse, &lt;&#33;--x\n/);
    expect(queuedCheck("<b>", HEAD, BASE)).toEqual({
      title: "Queued",
      summary: `&lt;b&gt; asked to benchmark ${"a".repeat(12)} against ${"b".repeat(12)}.`,
    });
  });
});
