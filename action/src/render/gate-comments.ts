// The PR comment's other variants, beside the verdict itself (comment.ts): the error comment when
// no comparison could be made, the note under a failed verdict that a maintainer accepted, and
// the hint under one a maintainer could accept.
// Pure. An error message is fenced (it can hold file content or tool output); an acceptance
// reason is shown as the bot recorded it, escaped when that record was written, and the
// accepted benchmark ids are escaped here.
import { acceptedIdsList } from "./bot-replies.ts";
import { codeBlock } from "./code-block.ts";

export interface CommitPair {
  readonly baseSha: string;
  readonly headSha: string;
}

/** The message in a fenced block. */
export function errorBlock(message: string): string {
  return codeBlock(message, { language: "text" }).markdown;
}

/** The sticky comment when benchgate could not compare the commits. */
export function errorComment(marker: string, target: CommitPair, message: string): string {
  return `${marker}\n### benchgate: error\n\nNo verdict for \`${target.headSha.slice(0, 12)}\`: benchgate could not compare it with \`${target.baseSha.slice(0, 12)}\`.\n\n${errorBlock(message)}\n`;
}

/** A maintainer's acceptance of a failed verdict's regressions, as the bot recorded it. */
export interface AcceptanceShown {
  readonly login: string;
  readonly reason: string;
  readonly ids: readonly string[];
}

/** Who accepted which regressions of this commit, and why (two lines). */
export function acceptedLines(accepted: AcceptanceShown, headSha: string): string {
  return `**Accepted:** @${accepted.login} accepted this result for \`${headSha.slice(0, 12)}\`: ${accepted.reason}\nAccepted regressions: ${acceptedIdsList(accepted.ids)}`;
}

/** The exact command that accepts the regressions of this commit (one line). */
export function acceptLine(headSha: string, regressions: number): string {
  const [what, them] =
    regressions === 1
      ? ["this regression is", "it"]
      : [`these ${regressions} regressions are`, "them"];
  return `If ${what} intended, a maintainer can accept ${them} for this commit by commenting \`/benchgate accept ${headSha} <reason>\`; a later push needs a new acceptance.`;
}

/**
 * Appended to a failed verdict whose regressions a maintainer accepted for this head commit. The
 * ids come from the bot's record and are escaped here.
 */
export function acceptedNote(accepted: AcceptanceShown, headSha: string): string {
  return `\n\n${acceptedLines(accepted, headSha)}\n`;
}

/**
 * Appended to a verdict that failed on confirmed regressions only, while nobody has accepted
 * them: the one command that would, for exactly this commit (docs/action.md, "/benchgate
 * accept"). Not shown when anything else fails: budgets, golden outputs and the rest are never
 * accepted, so the hint would only lead to a refusal.
 */
export function acceptHint(headSha: string, regressions: number): string {
  return `\n\n${acceptLine(headSha, regressions)}\n`;
}
