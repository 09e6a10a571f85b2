// Putting records into a history (docs/history.md, "Upsert and retention"): upsert by commit SHA, the series catalogue,
// retention, and one canonical form so the same inputs always give the same bytes. Pure.
//
// - Upsert (docs/threat-model.md, H3): a record whose SHA is already there replaces that record in place,
//   so re-running a job converges instead of duplicating a point; a new SHA is appended, since
//   `commits` is in the order the default branch was recorded.
// - Series: one per (suite, id, unit, direction). A benchmark whose unit or direction changes
//   starts a new series rather than mixing numbers on one line. An existing series keeps its
//   attributes (origin, tool) when a later record reuses it.
// - Retention (H6, `maxCommits`): the oldest records are dropped first, so the newest always
//   stays; series no longer referenced by any record are dropped and the indexes renumbered,
//   keeping the surviving series in their old order and appending new ones in record order.
// - Superseded baselines (`breaks`, baseline-breaks.ts) are kept; one whose commit retention
//   dropped is dropped too, since every record left is on its new side.
import { InputError } from "../errors.ts";
import type { BenchHistory, Commit, Generator, Result, Series } from "../schemas/history.gen.ts";
import { breaksStillCutting } from "./baseline-breaks.ts";
import type { HistoryRecord } from "./history-record.ts";

interface MergeOptions {
  /** Keep at most this many records (≥ 1); the oldest go first. Unset: keep all. */
  readonly maxCommits?: number;
  /** The document's `updated_at`. */
  readonly updatedAt?: string;
  readonly generator?: Generator;
}

export interface MergeOutcome {
  readonly history: BenchHistory;
  /** SHAs that replaced an existing record, and SHAs that were appended. */
  readonly replaced: readonly string[];
  readonly added: readonly string[];
  /** SHAs removed by retention (oldest first). */
  readonly dropped: readonly string[];
}

type Extra = [number, string | null, string | null];

/** The identity of a series: the four fields that make one line on the page. */
export function seriesKey(s: Pick<Series, "suite" | "id" | "unit" | "direction">): string {
  return JSON.stringify([s.suite, s.id, s.unit, s.direction]);
}

function emptyHistory(): BenchHistory {
  return { schema_version: 1, series: [], commits: [] };
}

/** A commit's fields in one fixed order, so key order never depends on where it came from. */
function canonicalCommit(
  c: Omit<Commit, "results" | "extras" | "reruns">,
  results: Result[],
  extras: Extra[],
  reruns: Rerun[] = [],
): Commit {
  return {
    sha: c.sha,
    ...(c.ref === undefined ? {} : { ref: c.ref }),
    date: c.date,
    message: c.message,
    author: c.author,
    ...(c.url === undefined ? {} : { url: c.url }),
    recorded_at: c.recorded_at,
    ...(c.fingerprint === undefined ? {} : { fingerprint: c.fingerprint }),
    ...(c.environment === undefined ? {} : { environment: c.environment }),
    ...(c.rounds === undefined ? {} : { rounds: c.rounds }),
    ...(c.verdict === undefined ? {} : { verdict: c.verdict }),
    results: results.sort((x, y) => x[0] - y[0]),
    ...(extras.length === 0 ? {} : { extras: extras.sort((x, y) => x[0] - y[0]) }),
    ...(reruns.length === 0 ? {} : { reruns }),
  };
}

type Rerun = NonNullable<Commit["reruns"]>[number];

/** Whether benchgate measured the record's results (not an import of github-action-benchmark's). */
export function measuredByBenchgate(commit: Commit, series: readonly Series[]): boolean {
  return (
    commit.fingerprint !== undefined ||
    commit.environment !== undefined ||
    commit.rounds !== undefined ||
    commit.verdict !== undefined ||
    commit.results.some(([i]) => series[i]?.origin !== "github-action-benchmark")
  );
}

/**
 * What a new record of the same SHA keeps of the commit it replaces: its earlier measurements,
 * and — when those latest results were imported rather than measured by benchgate — the
 * imported results too, as the newest rerun, so an import's values are never lost to a re-run.
 */
function carriedReruns(old: Commit, series: readonly Series[]): Rerun[] {
  const reruns = [...(old.reruns ?? [])];
  if (!measuredByBenchgate(old, series) && old.results.length > 0)
    reruns.push({
      recorded_at: old.recorded_at,
      results: old.results,
      ...(old.extras === undefined ? {} : { extras: old.extras }),
    });
  return reruns;
}

/** A rerun with its series indexes mapped into the new catalogue, fields in a fixed order. */
function remapRerun(rerun: Rerun, index: (i: number) => number): Rerun {
  const extras = (rerun.extras ?? []).map(([i, ...rest]): Extra => [index(i), ...rest]);
  return {
    recorded_at: rerun.recorded_at,
    results: rerun.results
      .map(([i, ...rest]): Result => [index(i), ...rest])
      .sort((x, y) => x[0] - y[0]),
    ...(extras.length === 0 ? {} : { extras: extras.sort((x, y) => x[0] - y[0]) }),
  };
}

function canonicalSeries(s: Series): Series {
  return {
    suite: s.suite,
    id: s.id,
    unit: s.unit,
    direction: s.direction,
    ...(s.origin === undefined ? {} : { origin: s.origin }),
    ...(s.tool === undefined ? {} : { tool: s.tool }),
  };
}

/**
 * An old commit kept as it is, or a new record — which keeps the earlier measurements (reruns,
 * e.g. imported from github-action-benchmark) of the record it replaces: a re-run of the same
 * SHA replaces that SHA's latest results only, so an import's values are never lost to it.
 */
type Slot =
  { readonly old: Commit } | { readonly record: HistoryRecord; readonly reruns: readonly Rerun[] };

/** Upserts many records at once (an import); one pass, whatever their number. */
export function upsertRecords(
  current: BenchHistory | undefined,
  records: readonly HistoryRecord[],
  options: MergeOptions = {},
): MergeOutcome {
  const { maxCommits } = options;
  if (maxCommits !== undefined && !(Number.isSafeInteger(maxCommits) && maxCommits >= 1))
    throw new InputError(`max-commits must be a whole number of at least 1, got ${maxCommits}`);
  const base = current ?? emptyHistory();
  const { slots, replaced, added } = placeRecords(base, records);
  const cut = maxCommits === undefined ? 0 : Math.max(0, slots.length - maxCommits);
  const dropped = slots.slice(0, cut).map((s) => ("old" in s ? s.old.sha : s.record.commit.sha));
  const kept = slots.slice(cut);
  const { series, indexOf } = catalogue(base.series, kept);
  const commits = kept.map((slot) => slotCommit(slot, base.series, indexOf));
  const generator = options.generator ?? base.generator;
  const updatedAt = options.updatedAt ?? base.updated_at;
  const breaks = breaksStillCutting(base.breaks, commits);
  const history: BenchHistory = {
    schema_version: 1,
    ...(generator === undefined ? {} : { generator: { ...generator } }),
    ...(updatedAt === undefined ? {} : { updated_at: updatedAt }),
    series,
    commits,
    ...(breaks.length === 0 ? {} : { breaks }),
  };
  return { history, replaced, added: [...added], dropped };
}

/** The commits in order with each record in its SHA's slot (replacing) or appended. */
function placeRecords(
  base: BenchHistory,
  records: readonly HistoryRecord[],
): { slots: Slot[]; replaced: string[]; added: Set<string> } {
  const slots: Slot[] = base.commits.map((old) => ({ old }));
  const position = new Map<string, number>(base.commits.map((c, i) => [c.sha, i]));
  const replaced: string[] = [];
  const added = new Set<string>();
  for (const record of records) {
    checkOneResultPerSeries(record);
    const at = position.get(record.commit.sha);
    if (at === undefined) {
      position.set(record.commit.sha, slots.length);
      slots.push({ record, reruns: [] });
      added.add(record.commit.sha);
    } else {
      const previous = slots[at];
      const reruns =
        previous === undefined
          ? []
          : "old" in previous
            ? carriedReruns(previous.old, base.series)
            : previous.reruns;
      slots[at] = { record, reruns };
      // A SHA added earlier in this same batch is still "added", not "replaced".
      if (!added.has(record.commit.sha)) replaced.push(record.commit.sha);
    }
  }
  return { slots, replaced, added };
}

/** A commit holds one point per series: two would make the line ambiguous at that commit. */
function checkOneResultPerSeries(record: HistoryRecord): void {
  const seen = new Set<string>();
  for (const r of record.results) {
    const key = seriesKey(r.series);
    if (seen.has(key))
      throw new InputError(
        `record ${record.commit.sha} has two results for series ${JSON.stringify(`${r.series.suite}/${r.series.id}`)} (${r.series.unit})`,
      );
    seen.add(key);
  }
}

/**
 * The catalogue: surviving old series in their order, then new ones as records name them; a
 * series no kept commit (or rerun) refers to is dropped. `indexOf` maps a seriesKey to its index.
 */
function catalogue(
  oldSeries: readonly Series[],
  kept: readonly Slot[],
): { series: Series[]; indexOf: Map<string, number> } {
  const referenced = referencedSeries(oldSeries, kept);
  const series: Series[] = [];
  const indexOf = new Map<string, number>();
  const place = (s: Series): void => {
    const key = seriesKey(s);
    if (!referenced.has(key) || indexOf.has(key)) return;
    indexOf.set(key, series.length);
    series.push(canonicalSeries(s));
  };
  for (const s of oldSeries) place(s);
  for (const slot of kept)
    if ("record" in slot) for (const r of slot.record.results) place(r.series);
  return { series, indexOf };
}

/** The keys of every series the kept commits and their reruns refer to. */
function referencedSeries(oldSeries: readonly Series[], kept: readonly Slot[]): Set<string> {
  const referenced = new Set<string>();
  const refer = (rows: readonly (readonly [number, ...unknown[]])[]): void => {
    for (const [i] of rows) referenced.add(seriesKey(oldSeries[i] as Series));
  };
  for (const slot of kept) {
    const reruns = "old" in slot ? (slot.old.reruns ?? []) : slot.reruns;
    for (const rerun of reruns) {
      refer(rerun.results);
      refer(rerun.extras ?? []);
    }
    if ("old" in slot) {
      refer(slot.old.results);
      refer(slot.old.extras ?? []);
    } else for (const r of slot.record.results) referenced.add(seriesKey(r.series));
  }
  return referenced;
}

/** A kept slot as a canonical commit, its series indexes mapped into the new catalogue. */
function slotCommit(
  slot: Slot,
  oldSeries: readonly Series[],
  indexOf: ReadonlyMap<string, number>,
): Commit {
  const index = (s: Series): number => indexOf.get(seriesKey(s)) as number;
  const fromOld = (i: number): number => index(oldSeries[i] as Series);
  if ("old" in slot) {
    return canonicalCommit(
      slot.old,
      slot.old.results.map(([i, ...rest]): Result => [fromOld(i), ...rest]),
      (slot.old.extras ?? []).map(([i, ...rest]): Extra => [fromOld(i), ...rest]),
      (slot.old.reruns ?? []).map((rerun) => remapRerun(rerun, fromOld)),
    );
  }
  const { record } = slot;
  return canonicalCommit(
    record.commit,
    record.results.map((r): Result => [index(r.series), r.median, r.ciLow, r.ciHigh, r.budget]),
    record.results
      .filter((r) => r.extra !== undefined)
      .map((r): Extra => [index(r.series), r.extra?.range ?? null, r.extra?.extra ?? null]),
    slot.reruns.map((rerun) => remapRerun(rerun, fromOld)),
  );
}

/** Upserts one record (a default-branch run). */
export function upsertRecord(
  current: BenchHistory | undefined,
  record: HistoryRecord,
  options: MergeOptions = {},
): MergeOutcome {
  return upsertRecords(current, [record], options);
}
