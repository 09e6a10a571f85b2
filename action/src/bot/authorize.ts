// mode: authorize — a PR comment arrives. The funnel ignores quietly what is not for us (edits,
// deletions, plain issues, bots, other text), checks the commenter's permission through the API
// before any work (never author_association; any error denies), reacts 👀 and then 🚀 or 👎, and
// pins the PR's head SHA *now*, so a push after the command cannot change what is benchmarked.
import type { CommentEvent } from "../github/event.ts";
import { escapeMarkdown } from "../render/escape-markdown.ts";
import { acceptanceBody, type Acceptance } from "../github/acceptance.ts";
import type { GitHubPort, Permission } from "../ports/github.ts";
import { parseCommand, USAGE } from "./parse-command.ts";

export interface AuthorizeResult {
  readonly run: boolean;
  readonly why: string;
  readonly headSha?: string;
  readonly baseSha?: string;
  readonly prNumber?: number;
  readonly commentId?: number;
  readonly rounds?: number;
  readonly filter?: string;
  /** The "benchgate" check opened (queued) for the pinned SHA; the report job completes it. */
  readonly checkId?: number;
}

export interface AuthorizeOptions {
  readonly botUserId: number;
  readonly log: (text: string) => void;
  /**
   * When given, only these GitHub user ids may run commands (on top of the permission check):
   * ids, because a login can be renamed and then taken by someone else (security.md §7 A9).
   */
  readonly allowedUserIds?: ReadonlySet<number>;
  readonly now?: () => Date;
}

/**
 * A queued or running check older than this is taken as abandoned (its run was cancelled before
 * the report job could complete it): the measure job's timeout plus a long queue.
 */
export const STALE_CHECK_MS = 6 * 60 * 60 * 1000;

const ALLOWED: readonly Permission[] = ["write", "maintain", "admin"];
export const CHECK_NAME = "benchgate";

function deniedMarker(userId: number): string {
  return `<!-- benchgate:denied user=${userId} -->`;
}

async function reactQuietly(
  github: GitHubPort,
  commentId: number,
  reaction: "eyes" | "rocket" | "-1" | "confused" | "+1",
  log: (t: string) => void,
): Promise<void> {
  try {
    await github.addReaction(commentId, reaction);
  } catch (error) {
    log(`could not react with ${reaction}: ${(error as Error).message}`);
  }
}

export async function authorize(
  event: CommentEvent,
  github: GitHubPort,
  options: AuthorizeOptions,
): Promise<AuthorizeResult> {
  const { log } = options;
  const no = (why: string): AuthorizeResult => ({ run: false, why });
  if (event.action !== "created")
    return no(`comment ${event.action}: only new comments are commands`);
  if (!event.isPullRequest) return no("a comment on an issue, not a pull request");
  const author = event.author;
  if (author.id === options.botUserId || author.type === "Bot" || author.login.endsWith("[bot]"))
    return no("a comment by a bot");
  const command = parseCommand(event.body);
  if (command.kind === "ignored") return no("not a benchgate command");

  await reactQuietly(github, event.commentId, "eyes", log);
  let permission: Permission | "unknown" = "unknown";
  try {
    permission = (await github.permission(author.login)).permission;
  } catch (error) {
    log(`permission check failed, denying: ${(error as Error).message}`);
  }
  const listed = options.allowedUserIds === undefined || options.allowedUserIds.has(author.id);
  if (!listed) log(`user id ${author.id} (${author.login}) is not in allowed-user-ids`);
  if (!listed || !(ALLOWED as readonly string[]).includes(permission)) {
    await reactQuietly(github, event.commentId, "-1", log);
    // One reply per user and PR, however often they ask: a bot must not be a spam amplifier.
    try {
      const marker = deniedMarker(author.id);
      const replied = (await github.listComments(event.issueNumber)).some(
        (c) => c.author.id === options.botUserId && c.body.includes(marker),
      );
      if (!replied)
        await github.createComment(
          event.issueNumber,
          `benchgate commands need write, maintain or admin permission on this repository${options.allowedUserIds === undefined ? "" : " and a place on its list of allowed users"}; \`${escapeMarkdown(author.login, { maxLength: 39 })}\` has ${!listed ? "no place on that list" : permission === "unknown" ? "a permission that could not be read" : permission}. A maintainer can run \`/rebench\`.\n${marker}`,
        );
    } catch (error) {
      log(`could not reply to the denied command: ${(error as Error).message}`);
    }
    return no(
      `${author.login} may not run commands (permission: ${permission}${listed ? "" : ", not in allowed-user-ids"})`,
    );
  }
  if (command.kind === "invalid") {
    await reactQuietly(github, event.commentId, "confused", log);
    await github.createComment(
      event.issueNumber,
      `benchgate: ${escapeMarkdown(command.problem)}. ${USAGE}`,
    );
    return no(`invalid command: ${command.problem}`);
  }

  const pull = await github.getPull(event.issueNumber);
  if (pull.state !== "open" || pull.locked) {
    await reactQuietly(github, event.commentId, "-1", log);
    return no(
      `pull request #${pull.number} is ${pull.locked ? "locked" : pull.merged ? "merged" : "closed"}`,
    );
  }
  // The head as it is at command time, and it must be one of the PR's own commits.
  const headSha = pull.headSha;
  if (!(await github.pullCommits(pull.number)).includes(headSha)) {
    await reactQuietly(github, event.commentId, "-1", log);
    return no(`the head ${headSha.slice(0, 12)} is not among the pull request's commits`);
  }

  if (command.kind === "accept") {
    const acceptance: Acceptance = {
      sha: headSha,
      userId: author.id,
      login: author.login,
      reason: command.reason,
    };
    await github.createComment(
      event.issueNumber,
      acceptanceBody(acceptance, escapeMarkdown(command.reason, { maxLength: 500 })),
    );
    const output = {
      title: `Regression accepted by ${author.login}`,
      summary: `${author.login} accepted the benchmark result of ${headSha.slice(0, 12)}: ${escapeMarkdown(command.reason, { maxLength: 500 })}`,
    };
    const checkId = await github.createCheck(headSha, CHECK_NAME, output);
    await github.completeCheck(checkId, "success", output);
    await reactQuietly(github, event.commentId, "+1", log);
    return no(`${author.login} accepted ${headSha.slice(0, 12)}`);
  }

  // A fork's code runs on the benchmark machine only as the commit the maintainer named: the
  // approval is bound to what they reviewed, not to whatever the branch holds by then.
  if (command.sha === undefined && pull.headRepo !== pull.baseRepo) {
    await reactQuietly(github, event.commentId, "confused", log);
    await github.createComment(
      event.issueNumber,
      `benchgate: this pull request comes from a fork, so \`/rebench\` must name the commit you reviewed: \`/rebench ${headSha}\` (the current head). ${USAGE}`,
    );
    return no("a fork's pull request needs /rebench <sha>");
  }
  if (command.sha !== undefined && command.sha !== headSha) {
    await reactQuietly(github, event.commentId, "-1", log);
    await github.createComment(
      event.issueNumber,
      `benchgate: \`${command.sha.slice(0, 12)}\` is not the head of this pull request any more; the head is now \`${headSha}\`. Review it, then \`/rebench ${headSha}\`.`,
    );
    return no(`${command.sha.slice(0, 12)} is not the head (${headSha.slice(0, 12)})`);
  }
  // One benchmark per commit at a time (security.md §7 A14): a queued or running one answers.
  const now = (options.now ?? (() => new Date()))().getTime();
  let active: number | undefined;
  try {
    active = (await github.listChecks(headSha, CHECK_NAME)).find(
      (c) =>
        c.status !== "completed" &&
        (c.startedAt === null || now - Date.parse(c.startedAt) < STALE_CHECK_MS),
    )?.id;
  } catch (error) {
    log(`could not list the checks of ${headSha.slice(0, 12)}: ${(error as Error).message}`);
  }
  if (active !== undefined) {
    await github.createComment(
      event.issueNumber,
      `benchgate: a benchmark of \`${headSha.slice(0, 12)}\` is already queued or running (check run ${active}); this command changes nothing.`,
    );
    return no(`a benchmark of ${headSha.slice(0, 12)} is already queued (check run ${active})`);
  }
  const checkId = await github.createCheck(headSha, CHECK_NAME, {
    title: "Queued",
    summary: `${escapeMarkdown(author.login, { maxLength: 39 })} asked to benchmark ${headSha.slice(0, 12)} against ${pull.baseSha.slice(0, 12)}.`,
  });

  await reactQuietly(github, event.commentId, "rocket", log);
  return {
    run: true,
    checkId,
    why: `${author.login} (${permission}) asked to benchmark ${headSha.slice(0, 12)}`,
    headSha,
    baseSha: pull.baseSha,
    prNumber: pull.number,
    commentId: event.commentId,
    ...(command.rounds === undefined ? {} : { rounds: command.rounds }),
    ...(command.filter === undefined ? {} : { filter: command.filter }),
  };
}
