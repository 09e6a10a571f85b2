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
/** A benchmark id is shown up to this length; the record's marker keeps it whole. */
const ID_CHARS = 100;

/** Hidden in the denied reply, so the bot finds its earlier reply to the same user on a PR. */
export function deniedMarker(userId: number): string {
  return `<!-- benchgate:denied user=${userId} -->`;
}

interface Denial {
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

/** The listing of the checks failed: nothing was queued, and the commenter should try again. */
export function checksUnreadableReply(headSha: string): string {
  return `benchgate: could not check whether a benchmark of \`${headSha.slice(0, 12)}\` is already queued or running, so none was queued. Please try again in a few minutes.`;
}

/** The reason of `/benchgate accept <sha> <reason>` as the bot shows it. */
export function acceptanceReason(reason: string): string {
  return escapeMarkdown(reason, { maxLength: REASON_CHARS });
}

/** Benchmark ids as the bot shows them: escaped, shortened for display (the marker has them all). */
export function acceptedIdsList(ids: readonly string[]): string {
  return ids.map((id) => escapeMarkdown(id, { maxLength: ID_CHARS })).join(", ");
}

/** Why a `/benchgate accept` was refused (bot/gate-result.ts); nothing was recorded. */
export type AcceptRefusal =
  | { readonly kind: "not-head"; readonly headSha: string }
  | { readonly kind: "unreadable" }
  | { readonly kind: "no-app"; readonly login: string }
  | { readonly kind: "running"; readonly checkId: number }
  | { readonly kind: "no-result" }
  | { readonly kind: "not-failed"; readonly conclusion: string }
  | { readonly kind: "unlisted"; readonly checkId: number }
  | { readonly kind: "not-regressions"; readonly other: readonly string[] }
  | { readonly kind: "other-failures"; readonly other: readonly string[] }
  | { readonly kind: "too-many"; readonly count: number };

/** The other kinds of failure (core/gate-verdict.ts, OTHER_FAILURES) in words. */
const OTHER_FAILURE_WORDS: Readonly<Record<string, string>> = {
  "suite-shift": "a suite-wide regression",
  missing: "missing benchmarks",
  inconclusive: "inconclusive benchmarks (fail-on-inconclusive)",
  budgets: "broken budgets",
  claims: "false or unmeasured claims",
  golden: "changed golden outputs",
  smells: "failing smells",
};

function otherFailures(words: readonly string[]): string {
  return words
    .map((w) => OTHER_FAILURE_WORDS[w] ?? escapeMarkdown(w, { maxLength: 32 }))
    .join(", ");
}

function refusalText(sha: string, r: AcceptRefusal, maxIds: number): string {
  const at = `\`${sha.slice(0, 12)}\``;
  switch (r.kind) {
    case "not-head":
      return `${at} is not the head of this pull request any more; the head is now \`${r.headSha}\`. Review it and its benchmark, then \`/benchgate accept ${r.headSha} <reason>\``;
    case "unreadable":
      return `could not read the benchgate checks of ${at}. Please try again in a few minutes`;
    case "no-app":
      return `the bot user (\`${escapeMarkdown(r.login, { maxLength: LOGIN_CHARS })}\`) is not a GitHub App's bot, so benchgate cannot tell its own checks from others'`;
    case "running":
      return `a benchmark of ${at} is still queued or running (check run ${r.checkId}); accept once it has failed`;
    case "no-result":
      return `${at} has no completed benchgate check: there is no result to accept yet`;
    case "not-failed":
      return `the latest benchgate check of ${at} did not fail (conclusion: ${escapeMarkdown(r.conclusion, { maxLength: 20 })}): there is nothing to accept`;
    case "unlisted":
      return `the latest benchgate check of ${at} (check run ${r.checkId}) does not list confirmed regressions (an error, or a failure of another kind): there is nothing an acceptance can cover`;
    case "not-regressions":
      return `the latest benchgate check of ${at} fails for ${otherFailures(r.other)}, not for confirmed regressions: an acceptance covers regressions only`;
    case "other-failures":
      return `the latest benchgate check of ${at} also fails for ${otherFailures(r.other)}, which an acceptance does not cover: fix that first`;
    case "too-many":
      return `the latest benchgate check of ${at} has ${r.count} regressions (or ids too long to record); at most ${maxIds} can be accepted at once`;
  }
}

/** The answer to a refused `/benchgate accept`: nothing was recorded, no check passes. */
export function acceptRefusedReply(sha: string, refusal: AcceptRefusal, maxIds: number): string {
  return `benchgate: not accepted — ${refusalText(sha, refusal, maxIds)}.`;
}

/** The passing check the bot completes on the accepted SHA, naming the accepted regressions. */
export function acceptedCheck(
  login: string,
  headSha: string,
  reason: string,
  ids: readonly string[],
): CheckOutput {
  return {
    title: `Regression accepted by ${login}`,
    summary: `${login} accepted the regressions of ${ids.length} benchmark${ids.length === 1 ? "" : "s"} in ${headSha.slice(0, 12)}: ${acceptanceReason(reason)}`,
    text: `Accepted regressions: ${acceptedIdsList(ids)}\n\nA later run of this commit passes only while every regression it confirms is one of these, and nothing else fails.`,
  };
}

/** The check the bot opens for a `/rebench`; the report job completes it. */
export function queuedCheck(login: string, headSha: string, baseSha: string): CheckOutput {
  return {
    title: "Queued",
    summary: `${escapeMarkdown(login, { maxLength: LOGIN_CHARS })} asked to benchmark ${headSha.slice(0, 12)} against ${baseSha.slice(0, 12)}.`,
  };
}
