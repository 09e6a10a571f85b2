// benchgate's history → a github-action-benchmark `data.js`, written beside history.json on
// gh-pages so that gab's page (its default index.html) and tools that read data.js keep working
// after a project switches (docs/github-action-benchmark.md). The text is exactly what gab's own storeDataJs writes:
// `window.BENCHMARK_DATA = ` + JSON.stringify(data, null, 2), so gab's loadDataJs (slice off the
// prefix, JSON.parse) reads it back too.
//
// Per suite, one entry per measurement of a commit, the reruns as well as the results, each with
// its own recorded time as `date`, so gab's page shows every point an import kept. A suite's
// entries are in time order, as gab appends them (a stable sort: history order on equal times),
// so a commit re-run after later commits is drawn where gab drew it. Series imported from gab
// keep their tool; benchgate's own series are written with
// customSmallerIsBetter/customBiggerIsBetter by direction, so gab's alerts judge them the right
// way. A suite whose series use different tools gets one entry per tool for that measurement (gab's
// page plots each bench from the entries that contain it, so nothing is drawn twice).
// `range` is the kept original text, else the CI as "± half-width"; `extra` is the kept text,
// else (benchgate's series) the exact interval, budget and rounds.
//
// The history keeps one person per commit, its author; gab's page prints
// `committed by @<committer.username>`, so author and committer both carry that name.
import { InputError } from "../errors.ts";
import type { BenchHistory, Commit, Series } from "../schemas/history.gen.ts";
import { GAB_SCRIPT_PREFIX } from "./gab-data-js.ts";
import { customToolFor } from "./gab-tools.ts";

interface GabExportOptions {
  /** gab's `repoUrl` (https only); default: derived from the commits' URLs, else "". */
  readonly repoUrl?: string;
  /** gab's `lastUpdate` in ms; default: the history's `updated_at`, else its newest record. */
  readonly lastUpdate?: number;
}

interface GabBenchJson {
  name: string;
  value: number;
  unit: string;
  range?: string;
  extra?: string;
}

interface GabEntryJson {
  commit: {
    author: { name: string; username: string };
    committer: { name: string; username: string };
    id: string;
    message: string;
    timestamp: string;
    url?: string;
  };
  date: number;
  tool: string;
  benches: GabBenchJson[];
}

interface GabDataJson {
  lastUpdate: number;
  repoUrl: string;
  entries: Record<string, GabEntryJson[]>;
}

const REPO_URL = /^(https:\/\/[^/\s]+\/[^/\s]+\/[^/\s]+)\/(?:commit|pull)\//;

/** A short number for "± x": four significant digits, no float noise. */
function short(value: number): string {
  return String(Number(value.toPrecision(4)));
}

type Extras = NonNullable<Commit["extras"]>[number];

/** One measurement of a commit: its results, or one of its reruns. */
interface Run {
  readonly recorded_at: string;
  readonly results: Commit["results"];
  readonly extras?: Commit["extras"];
  /** The commit's rounds belong to its results, not to its reruns. */
  readonly rounds?: number | undefined;
}

function benchOf(
  series: Series,
  run: Run,
  result: Commit["results"][number],
  kept: Extras | undefined,
): GabBenchJson {
  const [, median, low, high, budget] = result;
  const bench: GabBenchJson = { name: series.id, value: median, unit: series.unit };
  const range =
    kept?.[1] ?? (low !== null && high !== null ? `± ${short((high - low) / 2)}` : null);
  if (range !== null) bench.range = range;
  let extra = kept?.[2] ?? null;
  if (extra === null && series.origin !== "github-action-benchmark") {
    const lines: string[] = [];
    if (low !== null && high !== null) lines.push(`CI: ${low} – ${high} ${series.unit}`);
    if (budget !== null) lines.push(`budget: ${budget} ${series.unit}`);
    if (run.rounds !== undefined) lines.push(`rounds: ${run.rounds}`);
    if (lines.length > 0) extra = lines.join("\n");
  }
  if (extra !== null) bench.extra = extra;
  return bench;
}

function commitJson(commit: Commit): GabEntryJson["commit"] {
  const person = { name: commit.author, username: commit.author };
  const json: GabEntryJson["commit"] = {
    author: person,
    committer: { ...person },
    id: commit.sha,
    message: commit.message,
    timestamp: commit.date,
  };
  if (commit.url !== undefined) json.url = commit.url;
  return json;
}

function repoUrlOf(history: BenchHistory, given: string | undefined): string {
  if (given !== undefined) {
    if (given !== "" && !given.startsWith("https://"))
      throw new InputError(`repoUrl must be an https:// URL, got ${JSON.stringify(given)}`);
    return given;
  }
  for (const commit of history.commits) {
    const match = commit.url === undefined ? null : REPO_URL.exec(commit.url);
    if (match?.[1] !== undefined) return match[1];
  }
  return "";
}

function lastUpdateOf(history: BenchHistory): number {
  if (history.updated_at !== undefined) return Date.parse(history.updated_at);
  let last = 0;
  for (const c of history.commits)
    for (const run of runsOf(c)) last = Math.max(last, Date.parse(run.recorded_at));
  return last;
}

function runsOf(commit: Commit): Run[] {
  return [
    ...(commit.reruns ?? []),
    {
      recorded_at: commit.recorded_at,
      results: commit.results,
      extras: commit.extras,
      rounds: commit.rounds,
    },
  ];
}

/** The data.js object for a history (see the file comment). */
export function exportGabData(history: BenchHistory, options: GabExportOptions = {}): GabDataJson {
  const entries = new Map<string, GabEntryJson[]>();
  // Suites in catalogue order, so the page lists them as the history does.
  for (const s of history.series) {
    // An object literal's "__proto__" key sets the prototype when the browser runs data.js.
    if (s.suite === "__proto__")
      throw new InputError('a suite named "__proto__" cannot be written to data.js');
    if (!entries.has(s.suite)) entries.set(s.suite, []);
  }
  for (const commit of history.commits)
    for (const run of runsOf(commit)) {
      const groups = new Map<string, Map<string, GabBenchJson[]>>();
      const extras = new Map((run.extras ?? []).map((e) => [e[0], e]));
      for (const result of run.results) {
        const series = history.series[result[0]];
        if (series === undefined) throw new InputError(`series index ${result[0]} is out of range`);
        const tool = series.tool ?? customToolFor(series.direction);
        const byTool = groups.get(series.suite) ?? new Map<string, GabBenchJson[]>();
        groups.set(series.suite, byTool);
        const benches = byTool.get(tool) ?? [];
        byTool.set(tool, benches);
        benches.push(benchOf(series, run, result, extras.get(result[0])));
      }
      for (const [suite, byTool] of groups)
        for (const [tool, benches] of byTool)
          entries.get(suite)?.push({
            commit: commitJson(commit),
            date: Date.parse(run.recorded_at),
            tool,
            benches,
          });
    }
  for (const list of entries.values()) list.sort((a, b) => a.date - b.date);
  return {
    lastUpdate: options.lastUpdate ?? lastUpdateOf(history),
    repoUrl: repoUrlOf(history, options.repoUrl),
    // fromEntries defines own properties, so no suite name reaches a prototype here either.
    entries: Object.fromEntries([...entries].filter(([, list]) => list.length > 0)),
  };
}

/**
 * The text of a github-action-benchmark-compatible data.js for `history`. `<`, U+2028 and U+2029
 * are written as JSON escapes, so the file stays inert even if someone inlines it in a page.
 */
export function exportGabDataJs(history: BenchHistory, options: GabExportOptions = {}): string {
  const json = JSON.stringify(exportGabData(history, options), null, 2)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
  return GAB_SCRIPT_PREFIX + json;
}
