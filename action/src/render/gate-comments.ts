// The PR comment's other variants, beside the verdict itself (comment.ts): the error comment when
// no comparison could be made, and the note under a failed verdict that a maintainer accepted.
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

/**
 * Appended to a failed verdict whose regressions a maintainer accepted for this head commit. The
 * ids come from the bot's record and are escaped here.
 */
export function acceptedNote(
  accepted: { readonly login: string; readonly reason: string; readonly ids: readonly string[] },
  headSha: string,
): string {
  return `\n\n**Accepted:** @${accepted.login} accepted this result for \`${headSha.slice(0, 12)}\`: ${accepted.reason}\nAccepted regressions: ${acceptedIdsList(accepted.ids)}\n`;
}
