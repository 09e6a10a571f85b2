// The commands the PR comment spells out (render/commands-section.ts) are the ones the bot reads:
// each is fed back through the parser, as a maintainer who copies it would comment it. A command
// the comment shows that the parser refuses would send a maintainer to a usage reply.
import { describe, expect, it } from "vitest";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { renderComment } from "../render/comment.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { parseCommand } from "./parse-command.ts";

const HEAD = "0d6ab695fde9c1b2a3f4e5d6c7b8a9f0e1d2c3b4";

/** Every inline code span of the comment that starts like a command. */
function shownCommands(markdown: string): string[] {
  return [...markdown.matchAll(/`(\/[^`]*)`/gu)].map((m) => m[1] ?? "");
}

function failing(ids: readonly string[], extra: Partial<BenchReport> = {}): BenchReport {
  const benchmarks = ids.map((id) => makeEntry({ id, change: 0.2, verdict: "regressed" }));
  return makeReport({ benchmarks, verdict: "fail", reasons: ["regressed"], ...extra });
}

describe("the comment's commands, read back by the bot's parser", () => {
  it("accept and re-run exactly the head commit the comment names", () => {
    const shown = shownCommands(
      renderComment(failing(["parse", "lex"]), { commands: { headSha: HEAD } }),
    );
    expect(shown).toEqual([`/benchgate accept ${HEAD} <reason>`, `/rebench ${HEAD}`]);
    const [accept = "", rebench = ""] = shown;
    expect(parseCommand(accept.replace("<reason>", "the new parser's known cost"))).toEqual({
      kind: "accept",
      sha: HEAD,
      reason: "the new parser's known cost",
    });
    // Copied as it stands, the placeholder is a reason too: the command still names the commit.
    expect(parseCommand(accept)).toEqual({ kind: "accept", sha: HEAD, reason: "<reason>" });
    expect(parseCommand(rebench)).toEqual({ kind: "rebench", sha: HEAD });
  });

  it("re-run an inconclusive verdict, and nothing that is not a command", () => {
    const report = makeReport({
      verdict: "inconclusive",
      reasons: ["1 benchmark inconclusive"],
      benchmarks: [makeEntry({ id: "parse", change: 0.02, verdict: "inconclusive" })],
    });
    const shown = shownCommands(renderComment(report, { commands: { headSha: HEAD } }));
    expect(shown).toEqual([`/rebench ${HEAD}`]);
    expect(shown.map(parseCommand)).toEqual([{ kind: "rebench", sha: HEAD }]);
  });

  it("never spell a command the parser would refuse or ignore", () => {
    const golden = [{ name: "cli-help", ok: false, expected: "x", actual: "y" }];
    for (const report of [failing(["parse"]), failing(["parse"], { golden })]) {
      for (const command of shownCommands(renderComment(report, { commands: { headSha: HEAD } })))
        expect(parseCommand(command).kind, command).toMatch(/^(accept|rebench)$/u);
    }
  });
});
