// The comment's deterministic counts (instructions under Valgrind), in a table of their own beside
// the timings: their change is exact, so they show the count and the change (`+1.8 %
// instructions`), not an interval, and their rule (the count threshold) is not the timings'.
// Counts whose rounds differ are shown here too, marked non-deterministic with their spread.
// Secondary counts (cache hits, allocations) fold away under the table.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import { countEntries, isCount } from "./changed-entries.ts";
import { formatChange, formatCount, formatPercent } from "./format.ts";
import {
  code,
  levels,
  tableRow,
  text,
  valueCell,
  verdictCell,
  type Section,
} from "./markdown-parts.ts";

/** What the count counts, in words: `l1_hits` → `l1 hits`. */
function metricWords(entry: Entry): string {
  return text((entry.metric ?? entry.unit).replaceAll("_", " "), 40);
}

function changeCell(entry: Entry): string {
  if (entry.change === null) return "—";
  return `${formatChange(entry.change)} ${metricWords(entry)}`;
}

function spreadText(x: number | null): string {
  if (x === null) return "one round";
  return x >= 1e300 ? "from 0" : formatPercent(x);
}

function verdictText(entry: Entry): string {
  const d = entry.determinism;
  let cell = verdictCell(entry.verdict);
  if (d?.status === "non-deterministic")
    cell += `, **non-deterministic** (spread ${spreadText(d.spread.base)} base, ${spreadText(d.spread.head)} head)`;
  else if (d?.status === "unchecked") cell += ", determinism unchecked (one round)";
  return cell;
}

function row(entry: Entry): string {
  const suite = entry.id.startsWith(entry.suite) ? "" : ` (${text(entry.suite, 60)})`;
  return tableRow([
    code(entry.id) + suite,
    valueCell(entry.base?.value, entry.unit),
    valueCell(entry.head?.value, entry.unit),
    changeCell(entry),
    verdictText(entry),
  ]);
}

function table(entries: readonly Entry[], limit: number): string {
  const lines = [
    tableRow(["benchmark", "base", "head", "change", "verdict"]),
    tableRow([":--", "--:", "--:", "--:", ":--"]),
    ...entries.slice(0, limit).map(row),
  ];
  if (entries.length > limit)
    lines.push("", `… ${formatCount(entries.length - limit)} more rows; see report.json.`);
  return lines.join("\n");
}

/** "at least +1.0 %", or "a threshold per suite" when suites set their own. */
function ruleText(report: BenchReport, primary: readonly Entry[]): string {
  const thresholds = new Set(
    primary
      .filter((e) => e.determinism?.status !== "non-deterministic")
      .map((e) => e.determinism?.threshold ?? report.settings.count_threshold ?? 0.01),
  );
  const floor = report.settings.count_noise_floor ?? 0.001;
  const rule =
    thresholds.size > 1
      ? "a threshold per suite"
      : `at least ${formatChange([...thresholds][0] ?? report.settings.count_threshold ?? 0.01)}`;
  return `regressed = ${rule}; changes under ${formatPercent(floor)} ignored`;
}

/** The counts section, or "" when the report has no counts. */
export function countsSection(report: BenchReport): Section {
  const all = report.benchmarks.filter(isCount);
  if (all.length === 0) return { priority: 6, levels: [""] };
  const primary = all.filter((e) => e.secondary !== true);
  const rows = countEntries(report);
  const secondary = countEntries(report, true);
  const quiet = primary.length - rows.length;
  const title =
    `**Instruction counts** (deterministic, under Valgrind; ${ruleText(report, primary)}): ` +
    (rows.length === 0
      ? `all ${formatCount(primary.length)} identical or within the floor`
      : `${formatCount(quiet)} of ${formatCount(primary.length)} identical or within the floor`);
  const folded = (limit: number): string =>
    secondary.length === 0
      ? ""
      : `<details><summary>Secondary counts that changed: ${formatCount(secondary.length)} (cache, cycles, allocations; they never fail the gate)</summary>\n\n${table(secondary, limit)}\n\n</details>`;
  const render = (limit: number, withSecondary: boolean): string =>
    [title, rows.length === 0 ? "" : table(rows, limit), withSecondary ? folded(limit) : ""]
      .filter((p) => p !== "")
      .join("\n\n");
  return {
    priority: 6,
    levels: levels(render(40, true), render(10, true), render(5, false), title),
  };
}
