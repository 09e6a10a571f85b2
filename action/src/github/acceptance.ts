// Accepting known regressions (docs/threat-model.md, C7). Two hidden markers, both written only by
// benchgate, carry what an acceptance is about:
// - the result marker opens the output text of the `benchgate` check run the gate completes: the
//   SHA it measured, the ids of the benchmarks with a confirmed regression, and the other kinds
//   of failure (budgets, golden outputs, …). The authorizer reads it back from that check run.
// - the acceptance record is the bot's own comment for `/benchgate accept <sha> <reason>`: who
//   accepted which regressions of which SHA. The gate honours a record only when it was written
//   by the bot (by user id), for the SHA it measured, and names every regression it found.
// Benchmark ids are hostile text: in markers they are JSON in base64url (nothing in that
// alphabet can end an HTML comment or forge a field), capped in number and size; a list that does
// not fit is written as "too many", and whatever cannot be read back counts as nothing accepted.
import type { IssueComment } from "../ports/github.ts";

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
export interface GateResult {
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

const RECORD =
  /<!-- benchgate:accept sha=([0-9a-f]{40}) user=(\d{1,20}) login=([A-Za-z0-9-]{1,39}(?:\[bot\])?) ids=([A-Za-z0-9_-]{1,12000}) -->/;

/**
 * The hidden line that makes a bot comment an acceptance record; undefined when the ids cannot be
 * recorded (none, too many, too long). The reason is shown, not parsed.
 */
export function acceptanceMarker(a: Omit<Acceptance, "reason">): string | undefined {
  const encoded = a.ids.length === 0 ? undefined : encodable(a.ids);
  if (encoded === undefined) return undefined;
  return `<!-- benchgate:accept sha=${a.sha} user=${a.userId} login=${a.login} ids=${encoded} -->`;
}

/** The reason is kept in a fenced-free, escaped form by the renderer; here it is read back raw. */
const REASON = /<!-- benchgate:reason -->\n([\s\S]*?)\n<!-- \/benchgate:reason -->/;

function readRecord(body: string, sha: string): Omit<Acceptance, "reason"> | undefined {
  const m = RECORD.exec(body);
  if (m === null || m[1] !== sha) return undefined;
  const ids = decodeIds(m[4] ?? "");
  if (ids === undefined || ids.length === 0) return undefined;
  return { sha, userId: Number(m[2]), login: m[3] ?? "", ids };
}

/**
 * The newest acceptance record the bot wrote for `sha` that names every one of `regressions`;
 * undefined when there is none, or when there are no regressions to accept (an acceptance
 * covers regressions, not a pass and not any other kind of failure).
 */
export function findAcceptance(
  comments: readonly IssueComment[],
  botId: number,
  sha: string,
  regressions: readonly string[],
): Acceptance | undefined {
  if (regressions.length === 0) return undefined;
  let found: Acceptance | undefined;
  for (const c of comments) {
    if (c.author.id !== botId) continue;
    const record = readRecord(c.body, sha);
    if (record === undefined) continue;
    const accepted = new Set(record.ids);
    if (!regressions.every((id) => accepted.has(id))) continue;
    found = { ...record, reason: REASON.exec(c.body)?.[1] ?? "" };
  }
  return found;
}

/**
 * The bot's record: who accepted which regressions of which commit, and why. The reason and the
 * shown ids are escaped by the caller; undefined when the ids cannot be recorded.
 */
export function acceptanceBody(
  a: Acceptance,
  shown: { readonly reason: string; readonly ids: string },
): string | undefined {
  const marker = acceptanceMarker(a);
  if (marker === undefined) return undefined;
  return [
    `✅ **Regression accepted** for \`${a.sha.slice(0, 12)}\` by @${a.login}: ${shown.ids}`,
    "",
    `<!-- benchgate:reason -->\n${shown.reason}\n<!-- /benchgate:reason -->`,
    "",
    "The benchgate check passes for this commit while its failures are regressions of these benchmarks only; a new push, or any other failure, needs a new acceptance.",
    marker,
  ].join("\n");
}
