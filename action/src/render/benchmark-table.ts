// The comment's table of benchmarks, cut to a character budget. Rows arrive in priority order
// (regressed first), so cutting the tail keeps what matters. Every row that shows base, head and
// a change agrees with itself: head is base × (1 + change) (verdict-summary.ts, shownHead), and
// the column says so.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import { formatChange, formatCi, formatCount, formatPercent } from "./format.ts";
import { code, tableRow, text, valueCell, verdictCell } from "./markdown-parts.ts";
import { shownHead } from "./verdict-summary.ts";

/** The rendered table and how many rows it left out. */
interface BenchmarkTable {
  readonly markdown: string;
  readonly omitted: number;
}

/** The head column's name: what it shows, since it is not head's own median. */
const HEAD_COLUMN = "head (est.)";

function header(report: BenchReport): string {
  const confidence = formatPercent(report.settings.confidence).replace(".0 %", " %");
  return [
    tableRow(["benchmark", "base", HEAD_COLUMN, "change", `CI (${confidence})`, "verdict"]),
    tableRow([":--", "--:", "--:", "--:", ":-:", ":--"]),
  ].join("\n");
}

/** An exact count's interval is the change itself: say so instead of repeating it twice. */
function ciCell(entry: Entry): string {
  const [lo, hi] = entry.ci ?? [];
  if (entry.determinism?.status === "deterministic" && lo !== undefined && lo === hi)
    return "exact";
  return formatCi(entry.ci);
}

/** The suite beside the id, when the report has several and the id does not already say it. */
function suiteLabel(report: BenchReport, entry: Entry): string {
  if (entry.id.startsWith(entry.suite)) return "";
  const suites = new Set(report.benchmarks.map((e) => e.suite));
  return suites.size > 1 ? ` (${text(entry.suite, 60)})` : "";
}

function spreadText(x: number | null): string {
  if (x === null) return "one round";
  return x >= 1e300 ? "from 0" : formatPercent(x);
}

/**
 * The verdict, and why a count was not decided: its rounds differ (with their spread). A
 * regression a maintainer accepted for this commit no longer fails the gate, so it is not red.
 */
function verdictText(entry: Entry, accepted: boolean): string {
  const d = entry.determinism;
  const verdict =
    accepted && entry.verdict === "regressed"
      ? "☑️ regressed, accepted"
      : verdictCell(entry.verdict);
  let cell = verdict + (entry.unverified ? ", unverified" : "");
  if (d?.status === "non-deterministic")
    cell += `, **non-deterministic** (spread ${spreadText(d.spread.base)} base, ${spreadText(d.spread.head)} head)`;
  else if (d?.status === "unchecked") cell += ", determinism unchecked (one round)";
  return cell;
}

/** One escaped table row. Exported for tests. */
function benchmarkRow(report: BenchReport, entry: Entry, accepted = false): string {
  return tableRow([
    code(entry.id) + suiteLabel(report, entry),
    valueCell(entry.base?.value, entry.unit),
    valueCell(shownHead(entry), entry.unit),
    formatChange(entry.change),
    ciCell(entry),
    verdictText(entry, accepted),
  ]);
}

function cutNote(omitted: readonly Entry[]): string {
  const byVerdict = new Map<string, number>();
  for (const e of omitted) byVerdict.set(e.verdict, (byVerdict.get(e.verdict) ?? 0) + 1);
  const detail = [...byVerdict].map(([v, n]) => `${formatCount(n)} ${text(v, 20)}`).join(", ");
  return `… ${formatCount(omitted.length)} more rows not shown (${detail}); see report.json.`;
}

/**
 * The table of `entries` (already in display order) within `budget` characters, with a note
 * saying what was cut. Returns "" when there is nothing to show.
 */
export function benchmarkTable(
  report: BenchReport,
  entries: readonly Entry[],
  budget: number,
  accepted = false,
): BenchmarkTable {
  if (entries.length === 0) return { markdown: "", omitted: 0 };
  const rows = entries.map((e) => benchmarkRow(report, e, accepted));
  const head = header(report);
  const full = [head, ...rows].join("\n");
  if (full.length <= budget) return { markdown: full, omitted: 0 };
  // Room for the longest possible note, so the loop does not need to re-render it.
  const noteRoom = cutNote(entries).length + 2;
  let size = head.length;
  let shown = 0;
  for (const row of rows) {
    if (size + 1 + row.length + noteRoom > budget) break;
    size += 1 + row.length;
    shown++;
  }
  const note = cutNote(entries.slice(shown));
  const table = shown > 0 ? [head, ...rows.slice(0, shown)].join("\n") + "\n\n" : "";
  return { markdown: table + note, omitted: rows.length - shown };
}

/** Rows shown before the rest of the table folds away: the first screen stays short. */
const VISIBLE_ROWS = 10;

/**
 * The table with its first `visible` rows shown and the others folded under them, all within
 * `budget` characters (the folded rows are cut first). `accepted`: a maintainer accepted this
 * commit's regressions.
 */
export function foldedBenchmarkTable(
  report: BenchReport,
  entries: readonly Entry[],
  budget: number,
  options: { readonly visible?: number; readonly accepted?: boolean } = {},
): string {
  const visible = options.visible ?? VISIBLE_ROWS;
  const accepted = options.accepted ?? false;
  const first = benchmarkTable(report, entries.slice(0, visible), budget, accepted);
  const rest = entries.slice(visible);
  if (rest.length === 0 || first.omitted > 0) return first.markdown;
  const open = `<details><summary>${formatCount(rest.length)} more rows</summary>\n\n`;
  const close = "\n\n</details>";
  const room = budget - first.markdown.length - 2 - open.length - close.length;
  if (room < 200)
    return `${first.markdown}\n\n… ${formatCount(rest.length)} more rows not shown; see report.json.`;
  return `${first.markdown}\n\n${open}${benchmarkTable(report, rest, room, accepted).markdown}${close}`;
}
