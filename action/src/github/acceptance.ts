// Accepting known regressions (docs/threat-model.md, C7). Three things, all written only by
// benchgate, carry what an acceptance is about:
// - the result marker opens the output text of the `benchgate` check run the gate completes: the
//   SHA it measured, the ids of the benchmarks with a confirmed regression, and the other kinds
//   of failure (budgets, golden outputs, …). The authorizer reads it back from that check run.
// - the acceptance record is the bot's own comment for `/benchgate accept <sha> <reason>`: who
//   accepted which regressions of which SHA, in a fixed layout that opens with the acceptance
//   comment marker. The gate honours only a comment by the bot (by user id) that is exactly that
//   layout, for the SHA it measured, naming every regression it found.
// - the accepted marker opens the text of the `success` check run the bot completes when it
//   accepts: the record comment's id and the same ids. A record without that check run of
//   benchgate's own app accepts nothing, so text that another workflow posts as the same account
//   (a shared GITHUB_TOKEN's github-actions[bot]) is not enough to pass a regression.
// Benchmark ids are hostile text: in markers they are JSON in base64url (nothing in that
// alphabet can end an HTML comment or forge a field), capped in number and size; a list that does
// not fit is written as "too many", and whatever cannot be read back counts as nothing accepted.
import type { CheckRun, IssueComment } from "../ports/github.ts";

export interface Acceptance {
  readonly sha: string;
  readonly userId: number;
  readonly login: string;
  /** The benchmark ids whose regressions were accepted: never empty. */
  readonly ids: readonly string[];
  readonly reason: string;
}

/** At most this many regressions are accepted in one go; more are refused. */
export const MAX_ACCEPTED_IDS = 50;
/** A schema limit of a benchmark id (schemas/report.v1.schema.json). */
const MAX_ID_CHARS = 1024;
/** The encoded list stays far below GitHub's 65,535-character check text and comment body. */
const MAX_ENCODED_CHARS = 12_000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function encodeIds(ids: readonly string[]): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(JSON.stringify(ids)))
    binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The ids in `encoded`, or undefined when it is not exactly what encodeIds writes. */
function decodeIds(encoded: string): readonly string[] | undefined {
  if (encoded.length > MAX_ENCODED_CHARS || !BASE64URL.test(encoded)) return undefined;
  let value: unknown;
  try {
    const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_ACCEPTED_IDS) return undefined;
  const ids: string[] = [];
  for (const id of value as unknown[]) {
    if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_CHARS) return undefined;
    ids.push(id);
  }
  return new Set(ids).size === ids.length ? ids : undefined;
}

/** The ids encoded for a marker, or undefined when there are too many or they are too long. */
function encodable(ids: readonly string[]): string | undefined {
  if (ids.length > MAX_ACCEPTED_IDS) return undefined;
  if (ids.some((id) => id.length === 0 || id.length > MAX_ID_CHARS)) return undefined;
  if (new Set(ids).size !== ids.length) return undefined;
  const encoded = encodeIds(ids);
  return encoded.length <= MAX_ENCODED_CHARS ? encoded : undefined;
}

/** What the gate's completed check says about its result, as far as an acceptance cares. */
interface GateResult {
  readonly sha: string;
  /** The regressed benchmarks, or only their number when they do not fit in the marker. */
  readonly regressions:
    | { readonly kind: "listed"; readonly ids: readonly string[] }
    | { readonly kind: "too-many"; readonly count: number };
  /** The other kinds of failure (core/gate-verdict.ts, OTHER_FAILURES): never accepted. */
  readonly other: readonly string[];
}

const OTHER_WORD = /^[a-z][a-z-]{0,31}$/;
const RESULT =
  /^<!-- benchgate:result sha=([0-9a-f]{40}) regressions=(?:too-many-(\d{1,6})|([A-Za-z0-9_-]{1,12000})) other=(-|[a-z][a-z-]{0,31}(?:,[a-z][a-z-]{0,31}){0,15}) -->/;

/**
 * The marker the gate puts first in its check run's output text. `other` are words of a fixed
 * vocabulary (never user text).
 */
export function resultMarker(
  sha: string,
  regressions: readonly string[],
  other: readonly string[],
): string {
  const encoded = encodable(regressions);
  const listed = encoded === undefined ? `too-many-${regressions.length}` : encoded;
  const words = other.filter((w) => OTHER_WORD.test(w)).slice(0, 16);
  return `<!-- benchgate:result sha=${sha} regressions=${listed} other=${words.length === 0 ? "-" : words.join(",")} -->`;
}

/** The result marker at the very start of a check run's text, for `sha`; undefined otherwise. */
export function readResultMarker(text: string | null, sha: string): GateResult | undefined {
  const m = RESULT.exec(text ?? "");
  if (m === null || m[1] !== sha) return undefined;
  const other = m[4] === "-" || m[4] === undefined ? [] : m[4].split(",");
  if (m[2] !== undefined)
    return { sha, regressions: { kind: "too-many", count: Number(m[2]) }, other };
  const ids = decodeIds(m[3] ?? "");
  if (ids === undefined) return undefined;
  return { sha, regressions: { kind: "listed", ids }, other };
}

/** Opens every comment the bot writes for an acceptance: a comment without it records nothing. */
export const ACCEPTANCE_COMMENT_MARKER = "<!-- benchgate:acceptance -->";
const REASON_OPEN = "<!-- benchgate:reason -->";
const REASON_CLOSE = "<!-- /benchgate:reason -->";
const NOTE =
  "The benchgate check passes for this commit while its failures are regressions of these benchmarks only; a new push, or any other failure, needs a new acceptance.";
const RECORD_LINE =
  /^<!-- benchgate:accept sha=([0-9a-f]{40}) user=(\d{1,20}) login=([A-Za-z0-9-]{1,39}(?:\[bot\])?) ids=([A-Za-z0-9_-]{1,12000}) -->$/;
/**
 * Escaped inline text (render/escape-markdown.ts): one line, no backtick or tilde (no code span,
 * no fence), no `<` but the empty split comment, not indented. What the bot shows in a record is
 * always of this form, so a record can never hold code or another hidden line.
 */
const SHOWN = /^(?:[^ \t\n\r`~<]|<!-- -->)(?:[^\n\r`~<]|<!-- -->)*$|^$/;

/** The hidden line that names who accepted which regressions of which SHA. */
function recordLine(a: Omit<Acceptance, "reason">, encoded: string): string {
  return `<!-- benchgate:accept sha=${a.sha} user=${a.userId} login=${a.login} ids=${encoded} -->`;
}

/**
 * The whole record comment, line for line. The gate rebuilds it from what it read and honours a
 * comment only when the two are identical, so the record cannot sit inside code, a quote or
 * other text: a comment that quotes it, fences it or adds a line is not a record.
 */
function recordLayout(
  a: Omit<Acceptance, "reason">,
  encoded: string,
  shown: { readonly reason: string; readonly ids: string },
): string {
  return [
    ACCEPTANCE_COMMENT_MARKER,
    `${recordHeading(a)}${shown.ids}`,
    "",
    REASON_OPEN,
    shown.reason,
    REASON_CLOSE,
    "",
    NOTE,
    recordLine(a, encoded),
  ].join("\n");
}

function recordHeading(a: { readonly sha: string; readonly login: string }): string {
  return `✅ **Regression accepted** for \`${a.sha.slice(0, 12)}\` by @${a.login}: `;
}

/** What the bot writes when it accepts: the record comment and the check run that backs it. */
interface AcceptanceWriting {
  readonly body: string;
  /**
   * The line that opens the text of the `success` check run the bot completes on the SHA: the
   * record comment it backs (by id) and the same ids. Without it the record accepts nothing.
   */
  checkMarker(recordId: number): string;
}

/**
 * The bot's record of an acceptance, and its check's marker; undefined when the ids cannot be
 * recorded (none, too many, too long) or the shown text is not escaped inline text. The reason
 * and the shown ids are escaped by the caller (render/bot-replies.ts).
 */
export function writeAcceptance(
  a: Acceptance,
  shown: { readonly reason: string; readonly ids: string },
): AcceptanceWriting | undefined {
  const encoded = a.ids.length === 0 ? undefined : encodable(a.ids);
  if (encoded === undefined || !SHOWN.test(shown.reason) || !SHOWN.test(shown.ids))
    return undefined;
  return {
    body: recordLayout(a, encoded, shown),
    checkMarker: (recordId) =>
      `<!-- benchgate:accepted sha=${a.sha} record=${recordId} ids=${encoded} -->`,
  };
}

/** The record a comment body is, exactly as the bot writes it for `sha`; undefined otherwise. */
function readRecord(body: string, sha: string): Acceptance | undefined {
  const lines = body.split("\n");
  const m = RECORD_LINE.exec(lines.at(-1) ?? "");
  if (lines.length !== 9 || m === null || m[1] !== sha) return undefined;
  const ids = decodeIds(m[4] ?? "");
  if (ids === undefined || ids.length === 0) return undefined;
  const record = { sha, userId: Number(m[2]), login: m[3] ?? "", ids };
  const heading = recordHeading(record);
  const [, first = "", , , reason = ""] = lines;
  if (!first.startsWith(heading)) return undefined;
  const shown = { reason, ids: first.slice(heading.length) };
  if (!SHOWN.test(shown.reason) || !SHOWN.test(shown.ids)) return undefined;
  return recordLayout(record, m[4] ?? "", shown) === body ? { ...record, reason } : undefined;
}

const CHECK_MARKER =
  /^<!-- benchgate:accepted sha=([0-9a-f]{40}) record=(\d{1,20}) ids=([A-Za-z0-9_-]{1,12000}) -->(?:\n|$)/;

/**
 * Whether `checks` hold the passing check the bot completed for this record: benchgate's app's,
 * on the SHA, `success`, its text opening with the marker for this very comment and the same ids.
 */
function backed(
  record: Acceptance,
  recordId: number,
  checks: readonly CheckRun[],
  app: string,
): boolean {
  const ids = new Set(record.ids);
  return checks.some((c) => {
    if (c.app !== app || c.headSha !== record.sha) return false;
    if (c.status !== "completed" || c.conclusion !== "success") return false;
    const m = CHECK_MARKER.exec(c.text ?? "");
    if (m === null || m[1] !== record.sha || Number(m[2]) !== recordId) return false;
    const listed = decodeIds(m[3] ?? "");
    return listed !== undefined && listed.length === ids.size && listed.every((id) => ids.has(id));
  });
}

/** Where the gate looks for an acceptance of a SHA. */
interface AcceptanceSources {
  readonly comments: readonly IssueComment[];
  /** The `benchgate` check runs of the SHA (any app's: only `app`'s count). */
  readonly checks: readonly CheckRun[];
  /** The bot's user id: only its comments can be records. */
  readonly botId: number;
  /** The slug of the bot's app: only its check runs back a record. */
  readonly app: string;
}

/** The bot's records for `sha` that name every one of `regressions`, oldest first, with their comment ids. */
export function acceptanceRecords(
  comments: readonly IssueComment[],
  botId: number,
  sha: string,
  regressions: readonly string[],
): { readonly commentId: number; readonly acceptance: Acceptance }[] {
  if (regressions.length === 0) return [];
  const found: { commentId: number; acceptance: Acceptance }[] = [];
  for (const c of comments) {
    if (c.author.id !== botId) continue;
    const acceptance = readRecord(c.body, sha);
    if (acceptance === undefined) continue;
    const accepted = new Set(acceptance.ids);
    if (regressions.every((id) => accepted.has(id))) found.push({ commentId: c.id, acceptance });
  }
  return found;
}

/**
 * The newest acceptance of `sha` that names every one of `regressions`: a record comment the bot
 * wrote in exactly its layout, backed by the passing check the bot completed for it with the same
 * ids. Undefined when there is none, or when there are no regressions to accept (an acceptance
 * covers regressions, not a pass and not any other kind of failure).
 */
export function findAcceptance(
  sources: AcceptanceSources,
  sha: string,
  regressions: readonly string[],
): Acceptance | undefined {
  return acceptanceRecords(sources.comments, sources.botId, sha, regressions)
    .filter((r) => backed(r.acceptance, r.commentId, sources.checks, sources.app))
    .at(-1)?.acceptance;
}

/** The app slug of a GitHub App's bot login (`<slug>[bot]`); undefined for any other login. */
export function appOfBot(login: string): string | undefined {
  return /^([a-z0-9][a-z0-9-]{0,99})\[bot\]$/i.exec(login)?.[1];
}
