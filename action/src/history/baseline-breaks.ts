// Superseded baselines (docs/history.md, "Superseded baselines"): a mark in history.json that
// the benchmarks a glob matches changed their method at a commit, so their numbers before it
// and from it on are not comparable. `benchgate history supersede` writes marks here; nothing
// deletes or rewrites a record for it (series-segments.ts says how the marks cut a series).
// Pure: the caller reads and writes the history.
//
// Every input is checked before it can reach the file or the page: the glob by budgets' rules
// (parse-budget.ts, globMatch), the commit against the history's own commits, the reason as
// one line of plain text with a cap (the page shows it; the schema says the same).
import { globMatch } from "../budgets/parse-budget.ts";
import { InputError } from "../errors.ts";
import type { BenchHistory, Break, Generator, Series } from "../schemas/history.gen.ts";

/** As budgets' `benchmark:` globs (parse-budget.ts) and the schema's maxLength. */
const MAX_BREAK_GLOB = 512;
/** The schema's maxLength for `reason`, in code points. */
export const MAX_BREAK_REASON = 300;
/** An abbreviated SHA needs at least this many digits, as `git log --oneline` prints. */
const MIN_SHA_DIGITS = 7;

// C0 and C1 controls and DEL: what budgets and the schema refuse in a glob.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// For the reason also the invisible and direction-changing characters (the schema's pattern):
// a note on the page must read as what it says.
const NOT_PLAIN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** What the user asked for, checked: the glob as written, the SHA as given, the reason trimmed. */
export interface BreakRequest {
  readonly benchmark: string;
  readonly from: string;
  readonly reason: string;
}

/** Checks the three inputs on their own (the commit is resolved against a history later). */
export function checkBreakRequest(raw: {
  readonly benchmark: string | undefined;
  readonly from: string | undefined;
  readonly reason: string | undefined;
}): BreakRequest {
  const { benchmark } = raw;
  if (benchmark === undefined || benchmark.trim() === "")
    throw new InputError('ID-GLOB is required: a benchmark id or glob (`*`, `?`), e.g. "parse/*"');
  if (benchmark.length > MAX_BREAK_GLOB)
    throw new InputError(`ID-GLOB is longer than ${MAX_BREAK_GLOB} characters`);
  if (CONTROL.test(benchmark)) throw new InputError("ID-GLOB contains a control character");
  const from = raw.from?.trim().toLowerCase();
  if (from === undefined || from === "")
    throw new InputError("--from SHA is required: the first commit measured the new way");
  if (!new RegExp(`^[0-9a-f]{${MIN_SHA_DIGITS},40}$`).test(from))
    throw new InputError(
      `--from ${JSON.stringify(raw.from?.slice(0, 60))} is not a commit SHA (${MIN_SHA_DIGITS} to 40 hex digits)`,
    );
  const reason = raw.reason?.trim() ?? "";
  if (reason === "")
    throw new InputError(
      '--reason TEXT is required: say why the old numbers no longer compare (e.g. "switched to instruction counts")',
    );
  if (!reason.isWellFormed() || NOT_PLAIN.test(reason))
    throw new InputError(
      "--reason must be plain text on one line: no control, invisible or direction-changing characters",
    );
  const length = Array.from(reason).length;
  if (length > MAX_BREAK_REASON)
    throw new InputError(`--reason has ${length} characters; at most ${MAX_BREAK_REASON}`);
  return { benchmark, from, reason };
}

/** The series whose id the glob matches, by catalogue index. */
export function matchingSeries(series: readonly Series[], glob: string): number[] {
  const out: number[] = [];
  series.forEach((s, i) => {
    if (globMatch(glob, s.id)) out.push(i);
  });
  return out;
}

/** "1a2b3c4 (#12 "fix the parser")": how errors name a commit of the history. */
function describeCommit(history: BenchHistory, index: number): string {
  const commit = history.commits[index];
  if (commit === undefined) return "";
  const subject = Array.from(commit.message);
  const text = subject.length > 40 ? `${subject.slice(0, 39).join("")}…` : commit.message;
  return `${commit.sha.slice(0, 10)} (#${index + 1} ${JSON.stringify(text)})`;
}

function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The position in `commits` of the commit `sha` names (all 40 digits, or an unambiguous prefix).
 * InputError otherwise, naming the commits nearest by SHA and the newest ones, so a typo or a
 * commit that was never recorded is easy to put right.
 */
export function resolveCommit(history: BenchHistory, sha: string, source: string): number {
  const { commits } = history;
  const found: number[] = [];
  commits.forEach((c, i) => {
    if (c.sha.startsWith(sha)) found.push(i);
  });
  if (found.length === 1) return found[0] as number;
  if (found.length > 1)
    throw new InputError(
      `--from ${sha} is ambiguous: ${found.length} commits start with it (${found
        .slice(0, 4)
        .map((i) => describeCommit(history, i))
        .join(", ")}${found.length > 4 ? ", …" : ""}); give more digits`,
      { source },
    );
  if (commits.length === 0)
    throw new InputError(`--from ${sha}: the history has no commits yet`, { source });
  const nearest = commits
    .map((c, i) => ({ i, shared: sharedPrefix(c.sha, sha) }))
    .filter((c) => c.shared > 0)
    .sort((a, b) => b.shared - a.shared || b.i - a.i)
    .slice(0, 3)
    .map((c) => describeCommit(history, c.i));
  const newest = commits
    .map((_, i) => i)
    .slice(-3)
    .reverse()
    .map((i) => describeCommit(history, i));
  throw new InputError(
    `--from ${sha} is not a commit of the history (${commits.length} recorded; only a recorded commit can start a new baseline)` +
      (nearest.length === 0 ? "" : `; nearest by SHA: ${nearest.join(", ")}`) +
      `; newest: ${newest.join(", ")}`,
    { source },
  );
}

interface SupersedeOptions {
  /** The mark's `recorded_at` and, when the history changes, its `updated_at`. */
  readonly recordedAt: string;
  readonly generator?: Generator;
  /** How errors name the history (a file, or branch:path). */
  readonly source: string;
}

export interface SupersedeOutcome {
  /** The same object when nothing changed ("unchanged"). */
  readonly history: BenchHistory;
  /** "updated": the same glob and commit were marked before with another reason. */
  readonly status: "added" | "updated" | "unchanged";
  readonly mark: Break;
  /** Position of the mark's commit in `commits`. */
  readonly at: number;
  /** The series the glob matches. */
  readonly matched: readonly Series[];
  /** How many of them have results both before and from the commit (the ones the mark cuts). */
  readonly cut: number;
}

/**
 * Adds the mark (or finds it already there) after checking it against the history: the commit
 * must be recorded and the glob must match at least one series. Marks are keyed by glob and
 * commit: the same pair again is "unchanged", with another reason "updated" (the text is fixed).
 */
export function supersede(
  history: BenchHistory,
  request: BreakRequest,
  options: SupersedeOptions,
): SupersedeOutcome {
  const { source } = options;
  const at = resolveCommit(history, request.from, source);
  const from = (history.commits[at] as BenchHistory["commits"][number]).sha;
  const indexes = matchingSeries(history.series, request.benchmark);
  if (indexes.length === 0)
    throw new InputError(
      `${JSON.stringify(request.benchmark)} matches none of the ${history.series.length} series' ids (the glob is matched against the whole id, as in budgets; "parse/*" for a group)`,
      { source },
    );
  const matched = indexes.map((i) => history.series[i] as Series);
  const cut = countCut(history, indexes, at);
  const mark: Break = {
    benchmark: request.benchmark,
    from,
    reason: request.reason,
    recorded_at: options.recordedAt,
  };
  const breaks = history.breaks ?? [];
  const same = breaks.findIndex((b) => b.benchmark === mark.benchmark && b.from === from);
  const previous = breaks[same];
  if (previous !== undefined && previous.reason === mark.reason)
    return { history, status: "unchanged", mark: previous, at, matched, cut };
  const next =
    previous === undefined ? [...breaks, mark] : breaks.map((b, i) => (i === same ? mark : b));
  const generator = options.generator ?? history.generator;
  return {
    history: {
      schema_version: 1,
      ...(generator === undefined ? {} : { generator: { ...generator } }),
      updated_at: options.recordedAt,
      series: history.series,
      commits: history.commits,
      breaks: next,
    },
    status: previous === undefined ? "added" : "updated",
    mark,
    at,
    matched,
    cut,
  };
}

/** How many of the series have a result before commit `at` and one at or after it. */
function countCut(history: BenchHistory, indexes: readonly number[], at: number): number {
  const before = new Set<number>();
  const after = new Set<number>();
  history.commits.forEach((c, i) => {
    for (const [s] of c.results) (i < at ? before : after).add(s);
  });
  return indexes.filter((i) => before.has(i) && after.has(i)).length;
}

/**
 * The marks that still separate something after `commits` changed (retention, an import): a
 * mark whose commit is gone no longer splits any kept record — retention drops the oldest, so
 * every record left is on its new side — and is dropped with it.
 */
export function breaksStillCutting(
  breaks: readonly Break[] | undefined,
  commits: readonly { readonly sha: string }[],
): Break[] {
  if (breaks === undefined || breaks.length === 0) return [];
  const shas = new Set(commits.map((c) => c.sha));
  return breaks.filter((b) => shas.has(b.from));
}
