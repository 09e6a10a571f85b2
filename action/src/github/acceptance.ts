// Accepting a known regression (docs/threat-model.md, C7): a maintainer's `/benchgate accept <reason>` is
// recorded by the bot as a comment of its own, bound to the exact head SHA. The gate honours
// only records the bot wrote (by user id) for the SHA it measured; a new push needs a new one.
import type { IssueComment } from "../ports/github.ts";

export interface Acceptance {
  readonly sha: string;
  readonly userId: number;
  readonly login: string;
  readonly reason: string;
}

const RECORD =
  /<!-- benchgate:accept sha=([0-9a-f]{40}) user=(\d+) login=([A-Za-z0-9-]{1,39}(?:\[bot\])?) -->/;

/** The hidden line that makes a bot comment an acceptance record. The reason is shown, not parsed. */
export function acceptanceMarker(a: Omit<Acceptance, "reason">): string {
  return `<!-- benchgate:accept sha=${a.sha} user=${a.userId} login=${a.login} -->`;
}

/** The reason is kept in a fenced-free, escaped form by the renderer; here it is read back raw. */
const REASON = /<!-- benchgate:reason -->\n([\s\S]*?)\n<!-- \/benchgate:reason -->/;

export function findAcceptance(
  comments: readonly IssueComment[],
  botId: number,
  sha: string,
): Acceptance | undefined {
  let found: Acceptance | undefined;
  for (const c of comments) {
    if (c.author.id !== botId) continue;
    const m = RECORD.exec(c.body);
    if (m === null || m[1] !== sha) continue;
    found = {
      sha,
      userId: Number(m[2]),
      login: m[3] ?? "",
      reason: REASON.exec(c.body)?.[1] ?? "",
    };
  }
  return found;
}

/** The bot's record: who accepted what and why, with the reason escaped by the caller. */
export function acceptanceBody(a: Acceptance, escapedReason: string): string {
  return [
    `✅ **Regression accepted** for \`${a.sha.slice(0, 12)}\` by @${a.login}:`,
    "",
    `<!-- benchgate:reason -->\n${escapedReason}\n<!-- /benchgate:reason -->`,
    "",
    "The benchgate check passes for this commit; a new push needs a new acceptance.",
    acceptanceMarker(a),
  ].join("\n");
}
