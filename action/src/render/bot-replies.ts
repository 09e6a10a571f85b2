// What the bot says in answer to a pull-request comment command: its reply comments and the
// outputs of the check runs it opens. Pure. Text a user chose (a login, a reason, what was wrong
// with their command) is escaped here, because it lands in Markdown the bot signs; SHAs, check
// ids and permissions come from the API or from the command grammar (40 hex digits) and are
// shown as they are. The command syntax (`usage`) is the parser's, passed in.
import type { CheckOutput, Permission } from "../ports/github.ts";
import { escapeMarkdown } from "./escape-markdown.ts";

/** GitHub logins have at most 39 characters: longer text is not a login. */
const LOGIN_CHARS = 39;
/** An acceptance reason is shown up to this length, in the record and in the check. */
const REASON_CHARS = 500;

/** Hidden in the denied reply, so the bot finds its earlier reply to the same user on a PR. */
export function deniedMarker(userId: number): string {
  return `<!-- benchgate:denied user=${userId} -->`;
}

export interface Denial {
  readonly userId: number;
  readonly login: string;
  /** Whether the repository keeps a list of allowed users at all. */
  readonly hasAllowList: boolean;
  /** Whether the user is on it (true when there is no list). */
  readonly listed: boolean;
  readonly permission: Permission | "unknown";
}

/** Why the command was refused, and who can run it instead. */
export function deniedReply(d: Denial): string {
  const needs = `write, maintain or admin permission on this repository${d.hasAllowList ? " and a place on its list of allowed users" : ""}`;
  const has = !d.listed
    ? "no place on that list"
    : d.permission === "unknown"
      ? "a permission that could not be read"
      : d.permission;
  const login = escapeMarkdown(d.login, { maxLength: LOGIN_CHARS });
  return `benchgate commands need ${needs}; \`${login}\` has ${has}. A maintainer can run \`/rebench\`.\n${deniedMarker(d.userId)}`;
}

export function invalidCommandReply(problem: string, usage: string): string {
  return `benchgate: ${escapeMarkdown(problem)}. ${usage}`;
}

/** A fork's `/rebench` must name the commit the maintainer reviewed: here is the one to name. */
export function forkNeedsShaReply(headSha: string, usage: string): string {
  return `benchgate: this pull request comes from a fork, so \`/rebench\` must name the commit you reviewed: \`/rebench ${headSha}\` (the current head). ${usage}`;
}

/** The commit named in `/rebench <sha>` is no longer the head: what was reviewed is not what runs. */
export function notHeadReply(namedSha: string, headSha: string): string {
  return `benchgate: \`${namedSha.slice(0, 12)}\` is not the head of this pull request any more; the head is now \`${headSha}\`. Review it, then \`/rebench ${headSha}\`.`;
}

export function alreadyQueuedReply(headSha: string, checkId: number): string {
  return `benchgate: a benchmark of \`${headSha.slice(0, 12)}\` is already queued or running (check run ${checkId}); this command changes nothing.`;
}

/** The reason of `/benchgate accept <reason>` as the bot shows it. */
export function acceptanceReason(reason: string): string {
  return escapeMarkdown(reason, { maxLength: REASON_CHARS });
}

/** The passing check the bot completes when a maintainer accepts the head's result. */
export function acceptedCheck(login: string, headSha: string, reason: string): CheckOutput {
  return {
    title: `Regression accepted by ${login}`,
    summary: `${login} accepted the benchmark result of ${headSha.slice(0, 12)}: ${acceptanceReason(reason)}`,
  };
}

/** The check the bot opens for a `/rebench`; the report job completes it. */
export function queuedCheck(login: string, headSha: string, baseSha: string): CheckOutput {
  return {
    title: "Queued",
    summary: `${escapeMarkdown(login, { maxLength: LOGIN_CHARS })} asked to benchmark ${headSha.slice(0, 12)} against ${baseSha.slice(0, 12)}.`,
  };
}
