// The sticky comment when benchgate could not compare the commits, beside the verdict itself
// (comment.ts). Pure. The error message is fenced: it can hold file content or tool output.
import { codeBlock } from "./code-block.ts";

interface CommitPair {
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
