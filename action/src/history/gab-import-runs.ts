// How github-action-benchmark's entries become a commit's measurements. gab appends one entry per
// suite every time a workflow runs, so a commit can have several entries in each suite; the
// history keeps every one: a commit's `results` are its latest measurement and `reruns` the
// earlier ones, oldest first (schemas/history.v1.schema.json). The rule, shared by a fresh import
// and a merge into an existing history:
//
// - Per suite, a commit's entries in time order (file order on equal dates) are its runs.
// - Suites are aligned on their latest run: the last entry of every suite together form the
//   latest measurement, the entries just before those the measurement before it, and so on.
//   Suites are separate action steps, often separate jobs, so nothing in the file says which of
//   their entries one workflow run wrote; aligning on the latest makes `results` hold every
//   suite's latest values, which is what the page and comparisons read. A suite with fewer runs
//   than another is absent from the oldest measurements.
// - A measurement's time (`recorded_at`) is its latest entry's date. Since a suite in one
//   measurement is in every later one, these times never go backwards.
// - An entry without a single value (all null) is no run: there is nothing to keep.
import { InputError } from "../errors.ts";
import type { Commit, Result, Series } from "../schemas/history.gen.ts";

/** A value as the history stores it: range and extra already clipped, null when absent. */
export interface StoredPoint {
  readonly value: number;
  readonly range: string | null;
  readonly extra: string | null;
}

/** One gab entry: one run of one suite; points by series index. */
export interface RunEntry {
  readonly suite: string;
  /** Milliseconds since the epoch. */
  readonly date: number;
  readonly points: ReadonlyMap<number, StoredPoint>;
}

interface Measurement {
  readonly recordedAt: number;
  readonly points: ReadonlyMap<number, StoredPoint>;
  /** How many different entry dates the measurement joined (1 unless suites ran apart). */
  readonly dates: number;
}

type Extra = [number, string | null, string | null];
type Rerun = NonNullable<Commit["reruns"]>[number];

/** The schema's limit on `reruns`. */
const MAX_RERUNS = 1000;

/** A commit's entries as measurements, oldest first (see the file comment). */
export function alignRuns(entries: readonly RunEntry[]): Measurement[] {
  const bySuite = new Map<string, RunEntry[]>();
  for (const entry of entries) {
    if (entry.points.size === 0) continue;
    const list = bySuite.get(entry.suite) ?? [];
    list.push(entry);
    bySuite.set(entry.suite, list);
  }
  let depth = 0;
  for (const list of bySuite.values()) {
    list.sort((a, b) => a.date - b.date);
    depth = Math.max(depth, list.length);
  }
  const slots = Array.from({ length: depth }, () => ({
    points: new Map<number, StoredPoint>(),
    dates: new Set<number>(),
  }));
  for (const list of bySuite.values())
    list.forEach((entry, k) => {
      const slot = slots[depth - list.length + k];
      if (slot === undefined) return;
      slot.dates.add(entry.date);
      // Series indexes include the suite, so two suites' points never share a key.
      for (const [index, point] of entry.points) slot.points.set(index, point);
    });
  return slots.map((s) => ({
    recordedAt: [...s.dates].reduce((a, b) => Math.max(a, b), 0),
    points: s.points,
    dates: s.dates.size,
  }));
}

/** A measurement's `results` and `extras` in the history's form, by series index. */
function measurementJson(points: ReadonlyMap<number, StoredPoint>): {
  results: Result[];
  extras: Extra[];
} {
  const results: Result[] = [];
  const extras: Extra[] = [];
  for (const [index, p] of [...points].sort(([a], [b]) => a - b)) {
    results.push([index, p.value, null, null, null]);
    if (p.range !== null || p.extra !== null) extras.push([index, p.range, p.extra]);
  }
  return { results, extras };
}

function rerunOf(m: Measurement): Rerun {
  const { results, extras } = measurementJson(m.points);
  const rerun: Rerun = { recorded_at: new Date(m.recordedAt).toISOString(), results };
  if (extras.length > 0) rerun.extras = extras;
  return rerun;
}

function checkReruns(sha: string, reruns: readonly Rerun[]): void {
  if (reruns.length > MAX_RERUNS)
    throw new InputError(
      `commit ${sha} has ${reruns.length + 1} runs; the history keeps at most ${MAX_RERUNS + 1} measurements of one commit`,
    );
}

/**
 * `base` with `measurements` as its results (the latest) and reruns; the record's own results
 * and reruns are replaced. Keys in history-merge's canonical order.
 */
export function withRuns(
  base: Omit<Commit, "recorded_at" | "results">,
  measurements: readonly Measurement[],
  fallbackTime: number,
): Commit {
  const latest = measurements.at(-1);
  const { results, extras } = measurementJson(latest?.points ?? new Map());
  const reruns = measurements.slice(0, -1).map(rerunOf);
  checkReruns(base.sha, reruns);
  return {
    sha: base.sha,
    ...(base.ref === undefined ? {} : { ref: base.ref }),
    date: base.date,
    message: base.message,
    author: base.author,
    ...(base.url === undefined ? {} : { url: base.url }),
    recorded_at: new Date(latest?.recordedAt ?? fallbackTime).toISOString(),
    results,
    ...(extras.length === 0 ? {} : { extras }),
    ...(reruns.length === 0 ? {} : { reruns }),
  };
}

/** `commit` with `measurements` added to its reruns, all in time order; its results stay. */
export function withEarlierRuns(commit: Commit, measurements: readonly Measurement[]): Commit {
  const reruns = [...(commit.reruns ?? []), ...measurements.map(rerunOf)].sort(
    (a, b) => Date.parse(a.recorded_at) - Date.parse(b.recorded_at),
  );
  checkReruns(commit.sha, reruns);
  return { ...commit, reruns };
}

/** When the commit was first measured: its oldest rerun, else its results. */
export function firstRecordedAt(commit: Commit): number {
  return Math.min(
    Date.parse(commit.recorded_at),
    ...(commit.reruns ?? []).map((r) => Date.parse(r.recorded_at)),
  );
}

/** A stored record's measurements split back into one entry per suite, oldest first. */
export function commitEntries(commit: Commit, series: readonly Series[]): RunEntry[] {
  const measurements = [
    ...(commit.reruns ?? []),
    { recorded_at: commit.recorded_at, results: commit.results, extras: commit.extras },
  ];
  const entries: RunEntry[] = [];
  for (const m of measurements) {
    const extras = new Map((m.extras ?? []).map(([i, range, extra]) => [i, { range, extra }]));
    const bySuite = new Map<string, Map<number, StoredPoint>>();
    for (const [index, value] of m.results) {
      const suite = series[index]?.suite ?? "";
      const points = bySuite.get(suite) ?? new Map<number, StoredPoint>();
      bySuite.set(suite, points);
      const text = extras.get(index);
      points.set(index, { value, range: text?.range ?? null, extra: text?.extra ?? null });
    }
    const date = Date.parse(m.recorded_at);
    for (const [suite, points] of bySuite) entries.push({ suite, date, points });
  }
  return entries;
}

/** Identifies a run by what it measured, not when: the times of a stored run may be joined. */
export function entryKey(entry: RunEntry): string {
  const points = [...entry.points]
    .sort(([a], [b]) => a - b)
    .map(([i, p]) => [i, p.value, p.range, p.extra]);
  return JSON.stringify([entry.suite, points]);
}
