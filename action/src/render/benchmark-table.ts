// The comment's table of changed and inconclusive benchmarks, cut to a character budget.
// Rows arrive in priority order (regressed first), so cutting the tail keeps what matters.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import { formatChange, formatCi, formatCount, formatPercent } from "./format.ts";
import { code, tableRow, text, valueCell, verdictCell } from "./markdown-parts.ts";
import { roundsCell } from "./rounds-summary.ts";

/** The rendered table and how many rows it left out. */
export interface BenchmarkTable {
  readonly markdown: string;
  readonly omitted: number;
}

function header(report: BenchReport): string {
  const confidence = formatPercent(report.settings.confidence).replace(".0 %", " %");
  return [
    tableRow(["benchmark", "base", "head", "change", `CI (${confidence})`, "verdict", "rounds"]),
    tableRow([":--", "--:", "--:", "--:", ":-:", ":--", ":--"]),
  ].join("\n");
}

/** One escaped table row. Exported for tests. */
export function benchmarkRow(entry: Entry): string {
  const suite = entry.id.startsWith(entry.suite) ? "" : ` (${text(entry.suite, 60)})`;
  const verdict = verdictCell(entry.verdict) + (entry.unverified ? ", unverified" : "");
  return tableRow([
    code(entry.id) + suite,
    valueCell(entry.base?.value, entry.unit),
    valueCell(entry.head?.value, entry.unit),
    formatChange(entry.change),
    formatCi(entry.ci),
    verdict,
    text(roundsCell(entry), 60),
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
): BenchmarkTable {
  if (entries.length === 0) return { markdown: "", omitted: 0 };
  const rows = entries.map(benchmarkRow);
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
