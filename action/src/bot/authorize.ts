// mode: authorize — a PR comment arrives. The funnel ignores quietly what is not for us (edits,
// deletions, plain issues, bots, other text), checks the commenter's permission through the API
// before any work (never author_association; any error denies), reacts 👀 and then 🚀 or 👎, and
// pins the PR's head SHA *now*, so a push after the command cannot change what is benchmarked.
import type { CommentEvent } from "../github/event.ts";
import { MAX_ACCEPTED_IDS, writeAcceptance, type Acceptance } from "../github/acceptance.ts";
import { CHECK_NAME } from "../github/check-name.ts";
import type { GitHubPort, Permission, PullRequest, Reaction } from "../ports/github.ts";
import {
  acceptanceReason,
  acceptedCheck,
  acceptedIdsList,
  acceptRefusedReply,
  alreadyQueuedReply,
  checksUnreadableReply,
  deniedMarker,
  deniedReply,
  forkNeedsShaReply,
  invalidCommandReply,
  notHeadReply,
  queuedCheck,
  type AcceptRefusal,
} from "../render/bot-replies.ts";
import { acceptableResult, isActive } from "./gate-result.ts";
import { parseCommand, USAGE, type Command } from "./parse-command.ts";

export { STALE_CHECK_MS } from "./gate-result.ts";

interface AuthorizeResult {
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
   * ids, because a login can be renamed and then taken by someone else (docs/threat-model.md,
   * C3).
   */
  readonly allowedUserIds?: ReadonlySet<number>;
  readonly now?: () => Date;
}

const ALLOWED: readonly Permission[] = ["write", "maintain", "admin"];

type Rebench = Extract<Command, { kind: "rebench" }>;
type Accept = Extract<Command, { kind: "accept" }>;

/** What every step of the funnel works with: the comment, the API and the options. */
interface Request {
  readonly event: CommentEvent;
  readonly github: GitHubPort;
  readonly options: AuthorizeOptions;
}

interface Access {
  readonly permission: Permission | "unknown";
  /** On the list of allowed user ids (always, when there is no list). */
  readonly listed: boolean;
}

function no(why: string): AuthorizeResult {
  return { run: false, why };
}

/** Reactions are a courtesy: one that fails is logged and never stops the command. */
async function react(r: Request, reaction: Reaction): Promise<void> {
  try {
    await r.github.addReaction(r.event.commentId, reaction);
  } catch (error) {
    r.options.log(`could not react with ${reaction}: ${(error as Error).message}`);
  }
}

/** Comments that are not for us are ignored quietly: no reaction, no reply. */
function notForUs(event: CommentEvent, botUserId: number): string | undefined {
  if (event.action !== "created") return `comment ${event.action}: only new comments are commands`;
  if (!event.isPullRequest) return "a comment on an issue, not a pull request";
  const author = event.author;
  if (author.id === botUserId || author.type === "Bot" || author.login.endsWith("[bot]"))
    return "a comment by a bot";
  return undefined;
}

/** The commenter's permission as the API reports it now (any error leaves it unknown: denied). */
async function readAccess(r: Request): Promise<Access> {
  const { author } = r.event;
  const { allowedUserIds, log } = r.options;
  let permission: Permission | "unknown" = "unknown";
  try {
    permission = (await r.github.permission(author.login)).permission;
  } catch (error) {
    log(`permission check failed, denying: ${(error as Error).message}`);
  }
  const listed = allowedUserIds === undefined || allowedUserIds.has(author.id);
  if (!listed) log(`user id ${author.id} (${author.login}) is not in allowed-user-ids`);
  return { permission, listed };
}

function mayRun(access: Access): boolean {
  return access.listed && (ALLOWED as readonly string[]).includes(access.permission);
}

async function deny(r: Request, access: Access): Promise<AuthorizeResult> {
  const { event, github, options } = r;
  const { author } = event;
  await react(r, "-1");
  // One reply per user and PR, however often they ask: a bot must not be a spam amplifier.
  try {
    const marker = deniedMarker(author.id);
    const replied = (await github.listComments(event.issueNumber)).some(
      (c) => c.author.id === options.botUserId && c.body.includes(marker),
    );
    if (!replied)
      await github.createComment(
        event.issueNumber,
        deniedReply({
          userId: author.id,
          login: author.login,
          hasAllowList: options.allowedUserIds !== undefined,
          listed: access.listed,
          permission: access.permission,
        }),
      );
  } catch (error) {
    options.log(`could not reply to the denied command: ${(error as Error).message}`);
  }
  return no(
    `${author.login} may not run commands (permission: ${access.permission}${access.listed ? "" : ", not in allowed-user-ids"})`,
  );
}

async function answerInvalid(r: Request, problem: string): Promise<AuthorizeResult> {
  await react(r, "confused");
  await r.github.createComment(r.event.issueNumber, invalidCommandReply(problem, USAGE));
  return no(`invalid command: ${problem}`);
}

/**
 * The pull request as it is at command time: open, unlocked, and its head one of its own
 * commits. Its head SHA is what gets benchmarked or accepted, whatever is pushed afterwards.
 */
async function pinHead(r: Request): Promise<PullRequest | AuthorizeResult> {
  const pull = await r.github.getPull(r.event.issueNumber);
  if (pull.state !== "open" || pull.locked) {
    await react(r, "-1");
    return no(
      `pull request #${pull.number} is ${pull.locked ? "locked" : pull.merged ? "merged" : "closed"}`,
    );
  }
  if (!(await r.github.pullCommits(pull.number)).includes(pull.headSha)) {
    await react(r, "-1");
    return no(`the head ${pull.headSha.slice(0, 12)} is not among the pull request's commits`);
  }
  return pull;
}

async function refuseAccept(
  r: Request,
  sha: string,
  refusal: AcceptRefusal,
  log?: string,
): Promise<AuthorizeResult> {
  if (log !== undefined) r.options.log(log);
  await react(r, "-1");
  await r.github.createComment(
    r.event.issueNumber,
    acceptRefusedReply(sha, refusal, MAX_ACCEPTED_IDS),
  );
  return no(`acceptance of ${sha.slice(0, 12)} refused: ${refusal.kind}`);
}

/**
 * `/benchgate accept <sha> <reason>`: only for the head the maintainer named, and only the
 * regressions benchgate's failed check of it lists (bot/gate-result.ts). The record names them,
 * so the gate honours it for those regressions only; the passing check is on that very SHA and
 * names the record and the same ids, which the gate requires before it honours the record.
 */
async function accept(r: Request, command: Accept, pull: PullRequest): Promise<AuthorizeResult> {
  const { author } = r.event;
  const sha = command.sha;
  if (sha !== pull.headSha)
    return refuseAccept(r, sha, { kind: "not-head", headSha: pull.headSha });
  const now = (r.options.now ?? (() => new Date()))().getTime();
  const found = await acceptableResult(r.github, r.options.botUserId, sha, now);
  if (!found.ok) return refuseAccept(r, sha, found.refusal, found.log);
  const acceptance: Acceptance = {
    sha,
    userId: author.id,
    login: author.login,
    ids: found.ids,
    reason: command.reason,
  };
  const ids = acceptedIdsList(found.ids);
  const writing = writeAcceptance(acceptance, { reason: acceptanceReason(command.reason), ids });
  if (writing === undefined)
    return refuseAccept(r, sha, { kind: "too-many", count: found.ids.length });
  const record = await r.github.createComment(r.event.issueNumber, writing.body);
  // The passing check names the record it backs: the gate honours a record only with it (C7).
  const shown = acceptedCheck(author.login, sha, command.reason, found.ids);
  const output = { ...shown, text: `${writing.checkMarker(record.id)}\n${shown.text ?? ""}` };
  const checkId = await r.github.createCheck(sha, CHECK_NAME, output);
  await r.github.completeCheck(checkId, "success", output);
  await react(r, "+1");
  return no(
    `${author.login} accepted ${found.ids.length} regression${found.ids.length === 1 ? "" : "s"} of ${sha.slice(0, 12)} (check run ${found.checkId})`,
  );
}

/**
 * A fork's code runs on the benchmark machine only as the commit the maintainer named: the
 * approval is bound to what they reviewed, not to whatever the branch holds by then.
 */
async function refuseSha(
  r: Request,
  command: Rebench,
  pull: PullRequest,
): Promise<AuthorizeResult | undefined> {
  const headSha = pull.headSha;
  if (command.sha === undefined && pull.headRepo !== pull.baseRepo) {
    await react(r, "confused");
    await r.github.createComment(r.event.issueNumber, forkNeedsShaReply(headSha, USAGE));
    return no("a fork's pull request needs /rebench <sha>");
  }
  if (command.sha !== undefined && command.sha !== headSha) {
    await react(r, "-1");
    await r.github.createComment(r.event.issueNumber, notHeadReply(command.sha, headSha));
    return no(`${command.sha.slice(0, 12)} is not the head (${headSha.slice(0, 12)})`);
  }
  return undefined;
}

/**
 * A benchmark of this commit that is queued or running (an old one counts as abandoned), or
 * "unreadable" when the checks cannot be listed: then nothing is queued (fail closed), or a
 * failing API would let a flood of comments queue a flood of runs.
 */
async function activeCheck(
  r: Request,
  headSha: string,
): Promise<number | "unreadable" | undefined> {
  const now = (r.options.now ?? (() => new Date()))().getTime();
  try {
    return (await r.github.listChecks(headSha, CHECK_NAME)).find((c) => isActive(c, now))?.id;
  } catch (error) {
    r.options.log(
      `could not list the checks of ${headSha.slice(0, 12)}: ${(error as Error).message}`,
    );
    return "unreadable";
  }
}

/**
 * Opens the queued check for the pinned head and hands the run on. One benchmark per commit at
 * a time: while one is queued or running, a repeated command only gets an answer, so a flood of
 * comments cannot queue a flood of runs on the benchmark machine (docs/threat-model.md, C6).
 */
async function queue(
  r: Request,
  command: Rebench,
  pull: PullRequest,
  permission: Permission | "unknown",
): Promise<AuthorizeResult> {
  const { event, github } = r;
  const { author } = event;
  const headSha = pull.headSha;
  const active = await activeCheck(r, headSha);
  if (active === "unreadable") {
    await react(r, "-1");
    await github.createComment(event.issueNumber, checksUnreadableReply(headSha));
    return no(
      `could not check for a benchmark of ${headSha.slice(0, 12)} already queued: none queued`,
    );
  }
  if (active !== undefined) {
    await github.createComment(event.issueNumber, alreadyQueuedReply(headSha, active));
    return no(`a benchmark of ${headSha.slice(0, 12)} is already queued (check run ${active})`);
  }
  const checkId = await github.createCheck(
    headSha,
    CHECK_NAME,
    queuedCheck(author.login, headSha, pull.baseSha),
  );
  await react(r, "rocket");
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

export async function authorize(
  event: CommentEvent,
  github: GitHubPort,
  options: AuthorizeOptions,
): Promise<AuthorizeResult> {
  const ignored = notForUs(event, options.botUserId);
  if (ignored !== undefined) return no(ignored);
  const command = parseCommand(event.body);
  if (command.kind === "ignored") return no("not a benchgate command");

  const r: Request = { event, github, options };
  await react(r, "eyes");
  const access = await readAccess(r);
  if (!mayRun(access)) return deny(r, access);
  if (command.kind === "invalid") return answerInvalid(r, command.problem);

  const pinned = await pinHead(r);
  if ("run" in pinned) return pinned;
  if (command.kind === "accept") return accept(r, command, pinned);
  return (await refuseSha(r, command, pinned)) ?? queue(r, command, pinned, access.permission);
}
