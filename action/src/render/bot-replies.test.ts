// The bot's replies: text a user chose is made inert (no mention pings, no Markdown), the denied
// reply carries the marker the bot finds it by, and SHAs are shown in full where a command
// must name one.
import { describe, expect, it } from "vitest";
import {
  acceptedCheck,
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

  it("names the full head SHA where the next command must name it", () => {
    expect(forkNeedsShaReply(HEAD, "usage")).toContain(`\`/rebench ${HEAD}\` (the current head)`);
    expect(notHeadReply("c".repeat(40), HEAD)).toBe(
      `benchgate: \`${"c".repeat(12)}\` is not the head of this pull request any more; the head is now \`${HEAD}\`. Review it, then \`/rebench ${HEAD}\`.`,
    );
  });

  it("escapes the reason of an acceptance and the login of a queued benchmark", () => {
    const accepted = acceptedCheck("alice", HEAD, "known cost <b>@bob</b>");
    expect(accepted.title).toBe("Regression accepted by alice");
    expect(accepted.summary).toMatch(/^alice accepted the benchmark result of a{12}: known cost /);
    expect(accepted.summary).not.toMatch(/<b>|(^|[^>])@bob/);
    expect(queuedCheck("<b>", HEAD, BASE)).toEqual({
      title: "Queued",
      summary: `&lt;b&gt; asked to benchmark ${"a".repeat(12)} against ${"b".repeat(12)}.`,
    });
  });
});
