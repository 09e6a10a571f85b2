// Putting imported gab records into an existing history (`history import --into`). New commits
// are merged in by when they were first measured, so an import of older runs lands before
// benchgate's own. A commit the history already has keeps its record (SHA, date, message,
// author, URL), and the file's runs of it are added:
//
// - A run the record already holds (same suite and values: the file was imported before) is
//   not added twice. Runs are matched by what they measured, not when, as a count: two runs
//   with the same values both count.
// - A record benchgate measured itself keeps its results as the commit's results, and the new
//   runs become reruns, in time order with the ones it has, even runs gab recorded after it:
//   the commit's fingerprint, environment, rounds and verdict describe benchgate's measurement,
//   and its results carry the confidence intervals a gab value lacks.
// - A record an earlier import wrote is aligned again with the new runs (gab-import-runs.ts),
//   as a fresh import of both would be: the latest run becomes the results.
import type { Commit, Series } from "../schemas/history.gen.ts";
import {
  alignRuns,
  commitEntries,
  entryKey,
  firstRecordedAt,
  withEarlierRuns,
  withRuns,
  type RunEntry,
} from "./gab-import-runs.ts";
import type { ImportTally } from "./gab-import-report.ts";
import { measuredByBenchgate } from "./history-merge.ts";

export interface ImportedRecord {
  readonly record: Commit;
  /** The file's entries for the commit, which `record` was built from. */
  readonly entries: readonly RunEntry[];
  /** First appearance in the file, to order records first measured at the same time. */
  readonly order: number;
}

const pointsIn = (entries: readonly RunEntry[]): number =>
  entries.reduce((n, e) => n + e.points.size, 0);

function mergeRecord(
  current: Commit,
  entries: readonly RunEntry[],
  series: readonly Series[],
  tally: ImportTally,
): Commit {
  const held = commitEntries(current, series);
  const unmatched = new Map<string, number>();
  for (const e of held) unmatched.set(entryKey(e), (unmatched.get(entryKey(e)) ?? 0) + 1);
  const added: RunEntry[] = [];
  for (const entry of entries) {
    const key = entryKey(entry);
    const n = unmatched.get(key) ?? 0;
    if (n > 0) {
      unmatched.set(key, n - 1);
      tally.counts.alreadyPresent += entry.points.size;
    } else if (entry.points.size > 0) added.push(entry);
  }
  if (added.length === 0) return current;
  tally.counts.points += pointsIn(added);
  const merged = measuredByBenchgate(current, series)
    ? withEarlierRuns(current, alignRuns(added))
    : withRuns(current, alignRuns([...held, ...added]), Date.parse(current.recorded_at));
  tally.counts.reruns += (merged.reruns?.length ?? 0) - (current.reruns?.length ?? 0);
  return merged;
}

/** `existing` with `imported` merged in (see the file comment); neither is modified. */
export function mergeImported(
  existing: readonly Commit[],
  imported: readonly ImportedRecord[],
  series: readonly Series[],
  tally: ImportTally,
): Commit[] {
  const position = new Map(existing.map((c, i) => [c.sha, i]));
  const kept = [...existing];
  const fresh: ImportedRecord[] = [];
  for (const item of imported) {
    const at = position.get(item.record.sha);
    const current = at === undefined ? undefined : kept[at];
    if (at === undefined || current === undefined) {
      fresh.push(item);
      tally.counts.points += pointsIn(item.entries);
      tally.counts.reruns += item.record.reruns?.length ?? 0;
      continue;
    }
    tally.counts.mergedCommits++;
    kept[at] = mergeRecord(current, item.entries, series, tally);
  }
  fresh.sort((a, b) => firstRecordedAt(a.record) - firstRecordedAt(b.record) || a.order - b.order);
  tally.counts.newCommits = fresh.length;
  const out: Commit[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length || j < fresh.length) {
    const a = kept[i];
    const b = fresh[j]?.record;
    if (b !== undefined && (a === undefined || firstRecordedAt(b) < firstRecordedAt(a))) {
      out.push(b);
      j++;
    } else if (a !== undefined) {
      out.push(a);
      i++;
    }
  }
  return out;
}
