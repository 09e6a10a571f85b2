// BenchHistory → the page's columnar model (page-model.ts): series aligned by commit index,
// change points detected here (once, when the site is built) rather than in every visitor's
// browser, within each segment between superseded baselines (series-segments.ts), environment
// changes listed with what changed, every string made display-safe (page-text.ts says why
// here). Pure.
import { detectChangePointsInSegments, type ChangePointOptions } from "../history/change-points.ts";
import { matchingSeries } from "../history/baseline-breaks.ts";
import { seriesCuts, type SeriesCut } from "../history/series-segments.ts";
import type { BenchHistory, Commit, Environment } from "../schemas/history.gen.ts";
import { changedCardOrder, latestStep, type CardSteps } from "./latest-change.ts";
import { displaySafe } from "./page-text.ts";
import {
  PAGE_MODEL_VERSION,
  type EnvironmentChange,
  type PageBreak,
  type PageLatest,
  type PageLatestStep,
  type PageMark,
  type PageModel,
  type PageSeries,
} from "./page-model.ts";
import { secondaryLeads } from "./series-groups.ts";

interface PageOptions {
  readonly title: string;
  readonly changePoints?: ChangePointOptions;
}

/**
 * Six significant digits are more than a chart or a tooltip can show, and make the data file
 * about half the size of full doubles; history.json keeps the exact values.
 */
function display(value: number | null): number | null {
  return value === null ? null : Number(value.toPrecision(6));
}

export function buildPageModel(history: BenchHistory, options: PageOptions): PageModel {
  const commits = history.commits;
  const series = buildSeries(history, options.changePoints ?? {});
  // The whole model, not field by field: no string can reach the page without passing the rule.
  return displaySafe<PageModel>({
    version: PAGE_MODEL_VERSION,
    title: options.title,
    updatedAt: history.updated_at ?? null,
    commits: {
      sha: commits.map((c) => c.sha),
      message: commits.map((c) => c.message.split(/\r\n|[\n\r\u2028\u2029]/u, 1)[0] ?? ""),
      author: commits.map((c) => c.author),
      date: commits.map((c) => c.date),
      url: commits.map((c) => httpsUrl(c.url)),
      verdict: commits.map((c) => c.verdict ?? null),
    },
    environmentChanges: environmentChanges(commits),
    breaks: pageMarks(history),
    series,
    latest: commits.length === 0 ? null : latestCommit(series, commits.length - 1),
  });
}

/** The latest commit and the cards that moved there, regressions first. */
function latestCommit(series: readonly PageSeries[], index: number): PageLatest {
  const cards = new Map<number, CardSteps & { secondary: PageLatestStep[] }>();
  const card = (lead: number): CardSteps & { secondary: PageLatestStep[] } => {
    let entry = cards.get(lead);
    if (entry === undefined) {
      entry = { lead, own: series[lead]?.latestStep ?? null, secondary: [] };
      cards.set(lead, entry);
    }
    return entry;
  };
  series.forEach((s, i) => {
    if (s.lead === null) card(i);
    else if (s.latestStep !== null) card(s.lead).secondary.push(s.latestStep);
  });
  return { index, changed: changedCardOrder([...cards.values()]) };
}

/**
 * Only https links reach the page (the schema says so; a hand-made history may not), in the
 * URL parser's form: ASCII only (a bidi control in the path is percent-encoded), so the
 * display-safe pass leaves the link's target as it was.
 */
export function httpsUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The marks whose commit is in the history (the others cut nothing), as marked. */
function pageMarks(history: BenchHistory): PageMark[] {
  const position = new Map(history.commits.map((c, i) => [c.sha, i]));
  return (history.breaks ?? []).flatMap((mark) => {
    const index = position.get(mark.from);
    if (index === undefined) return [];
    const series = matchingSeries(history.series, mark.benchmark).length;
    return [{ benchmark: mark.benchmark, index, reason: mark.reason, series }];
  });
}

/** The cuts a chart draws: those with a point of the series on each side. */
function drawnBreaks(cuts: readonly SeriesCut[], first: number, end: number): PageBreak[] {
  return cuts
    .filter((cut) => cut.index > first && cut.index < end)
    .map((cut) => ({ index: cut.index, reason: cut.reasons.join(" · ") }));
}

function buildSeries(history: BenchHistory, cpOptions: ChangePointOptions): PageSeries[] {
  const n = history.commits.length;
  const cuts = seriesCuts(history);
  const leads = secondaryLeads(history.series);
  const columns = history.series.map(() => ({
    median: new Array<number | null>(n).fill(null),
    low: new Array<number | null>(n).fill(null),
    high: new Array<number | null>(n).fill(null),
    budget: new Array<number | null>(n).fill(null),
    notes: new Array<string | null>(n).fill(null),
  }));
  history.commits.forEach((commit, c) => {
    for (const [s, median, low, high, budget] of commit.results) {
      const col = columns[s];
      if (col === undefined) continue;
      col.median[c] = median;
      col.low[c] = low;
      col.high[c] = high;
      col.budget[c] = budget;
    }
    for (const [s, range, extra] of commit.extras ?? []) {
      const col = columns[s];
      const text = [range, extra].filter((t) => t !== null && t !== "").join(" · ");
      if (col !== undefined && text !== "") col.notes[c] = text;
    }
  });
  return history.series.map((meta, s): PageSeries => {
    const col = columns[s] as (typeof columns)[number];
    const first = col.median.findIndex((v) => v !== null);
    const start = first === -1 ? 0 : first;
    const end = col.median.findLastIndex((v) => v !== null) + 1;
    const ownCuts = cuts.get(s) ?? [];
    const cut = <T>(values: (T | null)[]): (T | null)[] | null =>
      values.some((v) => v !== null) ? values.slice(start, end) : null;
    const numbers = (values: (number | null)[]): (number | null)[] | null =>
      cut(values)?.map(display) ?? null;
    const median = numbers(col.median) ?? [];
    const low = numbers(col.low);
    const high = numbers(col.high);
    const step =
      first === -1
        ? null
        : latestStep(
            {
              start,
              median,
              low,
              high,
              breaks: ownCuts.map((c) => c.index),
              direction: meta.direction,
            },
            n - 1,
          );
    return {
      suite: meta.suite,
      id: meta.id,
      unit: meta.unit,
      direction: meta.direction,
      importedFrom:
        meta.origin === "github-action-benchmark" ? (meta.tool ?? "unknown tool") : null,
      start,
      median,
      low,
      high,
      budget: numbers(col.budget),
      notes: cut(col.notes),
      changes: detectChangePointsInSegments(
        col.median,
        ownCuts.map((cut) => cut.index),
        cpOptions,
      ).map((cp) => ({
        index: cp.index,
        before: display(cp.before) as number,
        after: display(cp.after) as number,
        step: cp.step,
      })),
      breaks: first === -1 ? [] : drawnBreaks(ownCuts, first, end),
      lead: leads[s] ?? null,
      latestStep: step,
    };
  });
}

/** Recorded environment fields compared across a fingerprint change (not the per-run ones). */
const SKIPPED_FIELDS = new Set(["fingerprint", "load_average"]);

function environmentChanges(commits: readonly Commit[]): EnvironmentChange[] {
  const out: EnvironmentChange[] = [];
  let previous: Commit | undefined;
  commits.forEach((commit, index) => {
    if (commit.fingerprint === undefined) return;
    if (previous !== undefined && previous.fingerprint !== commit.fingerprint) {
      out.push({ index, fields: changedFields(previous.environment, commit.environment) });
    }
    previous = commit;
  });
  return out;
}

function changedFields(
  before: Environment | undefined,
  after: Environment | undefined,
): EnvironmentChange["fields"] {
  if (before === undefined || after === undefined) return [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((name) => !SKIPPED_FIELDS.has(name))
    .sort();
  const text = (env: Environment, name: string): string => {
    const value = (env as Record<string, unknown>)[name];
    return value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);
  };
  return names
    .map((name) => ({ name, before: text(before, name), after: text(after, name) }))
    .filter((f) => f.before !== f.after);
}
