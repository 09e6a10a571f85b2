// github-action-benchmark's history → benchgate's (schemas/history.v1.schema.json). Every value
// gab stored becomes a point unless the history cannot hold it, and then the import says so:
//
// - series: suite = gab's entry key, id = bench name, unit as given (values are not converted,
//   so an export gives gab back its own numbers), direction per gab-tools.ts, origin
//   "github-action-benchmark" and gab's tool kept; value → median, no confidence interval
//   (gab stores one number per run), `range` and `extra` kept in `extras`.
// - commits: one record per SHA across all suites (schema rule), ordered by when gab first
//   measured it. Metadata comes from the commit's first entry in the file.
// - re-runs: gab appends an entry per suite every time a workflow runs, so one commit often has
//   several. Every one is kept: the latest run is the commit's `results`, the earlier ones its
//   `reruns` (how entries of several suites form one run: gab-import-runs.ts).
// - an existing history: gab-import-merge.ts.
import type { BenchHistory, Series } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import { GENERATOR } from "../version.ts";
import { parseGabData, type GabCommit, type GabData } from "./gab-data.ts";
import { mergeImported, type ImportedRecord } from "./gab-import-merge.ts";
import { ImportTally, clip, type GabImportCounts } from "./gab-import-report.ts";
import { alignRuns, withRuns, type RunEntry, type StoredPoint } from "./gab-import-runs.ts";
import { gabDirection } from "./gab-tools.ts";
import { seriesKey } from "./history-merge.ts";

interface GabImportOptions {
  /** The history to merge into; it is not modified. */
  readonly existing?: BenchHistory | undefined;
  /** Stamped as `updated_at` (ISO-8601); the existing value is kept when absent. */
  readonly now?: string | undefined;
}

export interface GabImportResult {
  /** Validated against history.v1 and its uniqueness rules. */
  readonly history: BenchHistory;
  readonly counts: GabImportCounts;
  /** One line per kind of thing that was not kept exactly, with counts and examples. */
  readonly warnings: readonly string[];
}

/** The history's text limits (history.v1.schema.json). */
const LIMITS = Object.freeze({ message: 1024, author: 256, url: 2048, range: 256, extra: 4096 });

interface CommitEntries {
  readonly meta: GabCommit;
  readonly order: number;
  readonly entries: RunEntry[];
}

/** Imports a checked gab history, merged into `options.existing` when given. */
function importGabData(data: GabData, options: GabImportOptions = {}): GabImportResult {
  const existing = options.existing;
  const tally = new ImportTally(data);
  const series: Series[] = existing === undefined ? [] : [...existing.series];
  const firstNewSeries = series.length;
  const seriesIndex = new Map(series.map((s, i) => [seriesKey(s), i]));
  const used = new Set<number>();
  const byCommit = new Map<string, CommitEntries>();

  for (const [suite, suiteRuns] of data.suites) {
    for (const run of suiteRuns) {
      const sha = run.commit.id;
      let commit = byCommit.get(sha);
      if (commit === undefined) {
        commit = { meta: run.commit, order: byCommit.size, entries: [] };
        byCommit.set(sha, commit);
      }
      const points = new Map<number, StoredPoint>();
      for (const bench of run.benches) {
        tally.counts.values++;
        if (bench.value === null) {
          tally.nullValue(suite, bench.name, sha);
          continue;
        }
        const { direction, note } = gabDirection(run.tool, bench.unit);
        const candidate = { suite, id: bench.name, unit: bench.unit, direction };
        let index = seriesIndex.get(seriesKey(candidate));
        if (index === undefined) {
          index = series.length;
          series.push({ ...candidate, origin: "github-action-benchmark", tool: run.tool });
          seriesIndex.set(seriesKey(candidate), index);
          if (note !== undefined) tally.direction(note, run.tool, bench.unit, direction);
        } else if (index >= firstNewSeries && series[index]?.tool !== run.tool) {
          tally.counts.toolChanges++;
        }
        if (points.has(index)) {
          tally.duplicateName(suite, bench.name, sha);
          continue;
        }
        used.add(index);
        points.set(index, {
          value: bench.value,
          range: storedText(bench.range, "range", tally),
          extra: storedText(bench.extra, "extra", tally),
        });
      }
      commit.entries.push({ suite, date: run.date, points });
    }
  }

  const imported = [...byCommit.values()].map((c) => toRecord(c, tally));
  const commits = mergeImported(existing?.commits ?? [], imported, series, tally);

  const counts = tally.counts;
  counts.suites = data.suites.size;
  counts.commits = byCommit.size;
  counts.newSeries = series.length - firstNewSeries;
  counts.series = used.size;
  const history: BenchHistory = {
    schema_version: 1,
    generator: existing?.generator ?? { ...GENERATOR },
    series,
    commits,
  };
  // The history's superseded baselines stay: an import adds records, it never joins segments.
  if (existing?.breaks !== undefined && existing.breaks.length > 0)
    history.breaks = existing.breaks;
  const updatedAt = options.now ?? existing?.updated_at;
  if (updatedAt !== undefined) history.updated_at = updatedAt;
  return {
    history: validateHistory(history, `${data.source} (as a benchgate history)`),
    counts,
    warnings: tally.warnings(),
  };
}

/** Parses a data.js (or external JSON) text and imports it: `parseGabData` + `importGabData`. */
export function importGabDataText(
  text: string,
  source: string,
  options: GabImportOptions = {},
): GabImportResult & { readonly data: GabData } {
  const data = parseGabData(text, source);
  return { ...importGabData(data, options), data };
}

function storedText(
  value: string | undefined,
  kind: "range" | "extra",
  tally: ImportTally,
): string | null {
  return value === undefined ? null : tally.clipped(kind, clip(value, LIMITS[kind]));
}

function toRecord(commit: CommitEntries, tally: ImportTally): ImportedRecord {
  const { meta, entries } = commit;
  const measurements = alignRuns(entries);
  tally.counts.collapsedDates += measurements.filter((m) => m.dates > 1).length;
  const subject = meta.message.split(/\r\n|\r|\n/, 1)[0] ?? "";
  if (subject !== meta.message) tally.counts.messageBodies++;
  let url: string | undefined;
  if (meta.url !== undefined) {
    if (meta.url.startsWith("https://") && meta.url.length <= LIMITS.url) url = meta.url;
    else tally.counts.urlsDropped++;
  }
  const base = {
    sha: meta.id,
    date: meta.timestamp,
    message: tally.clipped("message", clip(subject, LIMITS.message)),
    author: tally.clipped("author", clip(meta.author, LIMITS.author)),
    ...(url === undefined ? {} : { url }),
  };
  // A commit whose entries hold only nulls keeps its record, dated by its latest entry.
  const latestEntry = entries.reduce((t, e) => Math.max(t, e.date), 0);
  return { record: withRuns(base, measurements, latestEntry), entries, order: commit.order };
}
