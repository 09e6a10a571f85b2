// One comment per gate and pull request, found again by a hidden marker — but only among the
// bot's own comments (by numeric user id, never login or body alone): anyone can paste the
// marker into a comment of theirs, and that comment must never be edited (docs/threat-model.md, O3).
import { GitHubError, type GitHubPort, type IssueComment } from "../ports/github.ts";

export const GATE_MARKER = "<!-- benchgate:gate -->";

interface StickyResult {
  readonly action: "created" | "updated" | "unchanged";
  readonly commentId: number;
}

/** The bot's comments carrying the marker, oldest first (the oldest one is the sticky one). */
function ownMarked(
  comments: readonly IssueComment[],
  botId: number,
  marker: string,
): IssueComment[] {
  return comments
    .filter((c) => c.author.id === botId && c.body.includes(marker))
    .sort((a, b) => a.id - b.id);
}

function isAmbiguous(error: unknown): boolean {
  if (!(error instanceof GitHubError)) return true;
  return error.status === undefined || error.status >= 500;
}

/**
 * Updates the bot's marked comment or creates it. When creating fails ambiguously (a 5xx or a
 * dropped connection: the comment may exist anyway), it lists again before trying once more,
 * so a flaky API never leaves two comments.
 */
export async function upsertSticky(
  github: GitHubPort,
  issue: number,
  body: string,
  botId: number,
  marker = GATE_MARKER,
): Promise<StickyResult> {
  const find = async (): Promise<IssueComment | undefined> =>
    ownMarked(await github.listComments(issue), botId, marker)[0];
  const update = async (existing: IssueComment): Promise<StickyResult> => {
    if (existing.body === body) return { action: "unchanged", commentId: existing.id };
    await github.updateComment(existing.id, body);
    return { action: "updated", commentId: existing.id };
  };
  const existing = await find();
  if (existing !== undefined) return update(existing);
  try {
    return { action: "created", commentId: (await github.createComment(issue, body)).id };
  } catch (error) {
    if (!isAmbiguous(error)) throw error;
    const appeared = await find();
    if (appeared !== undefined) return update(appeared);
    return { action: "created", commentId: (await github.createComment(issue, body)).id };
  }
}
