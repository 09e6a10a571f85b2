// The PR commands that apply to this verdict, right under the "why" (docs/action.md, "PR
// comment commands"): `/rebench <sha>` when the verdict is not a pass (the full SHA, so the
// same line works on a fork's PR and names the commit that was reviewed), `/benchgate accept
// <sha> <reason>` when only confirmed regressions fail it, or who accepted them. The SHA is
// checked here; a login and a reason come escaped from the bot's record (gate-comments.ts).

import type { BenchReport } from "../schemas/report.gen.ts";
import { acceptedLines, acceptLine, type AcceptanceShown } from "./gate-comments.ts";
import { fixed, type Section } from "./markdown-parts.ts";
import { failingItems } from "./verdict-summary.ts";

export interface CommentCommands {
  /** The PR's head commit, all 40 hex digits: the commands name it. */
  readonly headSha: string;
  /**
   * Whether `/benchgate accept` could pass this verdict. The gate knows its limits (how many
   * ids an acceptance holds); by default: a failure on confirmed regressions and nothing else.
   */
  readonly acceptable?: boolean;
  /** A maintainer's acceptance of this commit's regressions: shown instead of the command. */
  readonly accepted?: AcceptanceShown;
}

const FULL_SHA = /^[0-9a-f]{40}$/u;

/** Throws a RangeError for a SHA that is not 40 lowercase hex digits (it lands in a command). */
export function checkCommands(commands: CommentCommands | undefined): CommentCommands | undefined {
  if (commands === undefined || FULL_SHA.test(commands.headSha)) return commands;
  throw new RangeError(
    `renderComment: commands.headSha must be a full 40-hex commit SHA, got ${JSON.stringify(commands.headSha.slice(0, 80))}`,
  );
}

export function commandsSection(
  report: BenchReport,
  commands: CommentCommands | undefined,
): Section {
  if (commands === undefined) return fixed("");
  const { headSha } = commands;
  const lines: string[] = [];
  if (commands.accepted !== undefined) lines.push(acceptedLines(commands.accepted, headSha));
  else if (report.verdict === "fail") {
    const failing = failingItems(report);
    const regressions = failing.filter((f) => f.what === "").length;
    const acceptable = commands.acceptable ?? (regressions > 0 && regressions === failing.length);
    if (acceptable) lines.push(acceptLine(headSha, regressions));
  }
  if (report.verdict !== "pass" && commands.accepted === undefined)
    lines.push(
      `To measure again: \`/rebench ${headSha}\` (while it is the head of this pull request).`,
    );
  return fixed(lines.join("\n\n"));
}
