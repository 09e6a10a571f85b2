// The PR commands that apply to this verdict, right under the "why" (docs/action.md, "mode:
// authorize"): `/rebench <sha>` when the verdict is not a pass (the full SHA, so the
// same line works on a fork's PR and names the commit that was reviewed), `/benchgate accept
// <sha> <reason>` when only confirmed regressions fail it, or who accepted them. Each command is
// written exactly as bot/parse-command.ts reads it. The SHA is checked here; a login and a
// reason come escaped from the bot's record, and the accepted ids are escaped here.

import type { BenchReport } from "../schemas/report.gen.ts";
import { acceptedIdsList } from "./bot-replies.ts";
import { fixed, type Section } from "./markdown-parts.ts";
import { failingItems } from "./verdict-summary.ts";

/** A maintainer's acceptance of a failed verdict's regressions, as the bot recorded it. */
interface AcceptanceShown {
  readonly login: string;
  readonly reason: string;
  readonly ids: readonly string[];
}

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

/** Who accepted which regressions of this commit, and why (two lines). */
function acceptedLines(accepted: AcceptanceShown, headSha: string): string {
  return `**Accepted:** @${accepted.login} accepted this result for \`${headSha.slice(0, 12)}\`: ${accepted.reason}\nAccepted regressions: ${acceptedIdsList(accepted.ids)}`;
}

/**
 * The exact command that accepts the regressions of this commit (one line). Not offered when
 * anything else fails: budgets, golden outputs and the rest are never accepted, so it would only
 * lead to a refusal.
 */
function acceptLine(headSha: string, regressions: number): string {
  const [what, them] =
    regressions === 1
      ? ["this regression is", "it"]
      : [`these ${regressions} regressions are`, "them"];
  return `If ${what} intended, a maintainer can accept ${them} for this commit by commenting \`/benchgate accept ${headSha} <reason>\`; a later push needs a new acceptance.`;
}
