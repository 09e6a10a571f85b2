// The comment's counts read under Valgrind. Primary counts (instructions) share the one table
// with the timings (benchmark-table.ts): their change is exact, so their interval reads "exact".
// Here: the rule they are decided on, for the diagnostics, and the secondary counts (cache hits,
// cycles, memory) that changed beyond their floor, folded. Secondary counts never fail the gate,
// so they carry no verdict marker at all: no red for something that cannot fail.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import { isCount, metricWords, secondaryChanges } from "./changed-entries.ts";
import { formatChange, formatCount, formatPercent } from "./format.ts";
import { code, levels, tableRow, text, valueCell, type Section } from "./markdown-parts.ts";

function row(entry: Entry): string {
  const suite = entry.id.startsWith(entry.suite) ? "" : ` (${text(entry.suite, 60)})`;
  return tableRow([
    code(entry.id) + suite,
    valueCell(entry.base?.value, entry.unit),
    valueCell(entry.head?.value, entry.unit),
    entry.change === null ? "—" : `${formatChange(entry.change)} ${text(metricWords(entry), 40)}`,
  ]);
}

function table(entries: readonly Entry[], limit: number): string {
  const lines = [
    tableRow(["benchmark", "base", "head", "change"]),
    tableRow([":--", "--:", "--:", "--:"]),
    ...entries.slice(0, limit).map(row),
  ];
  if (entries.length > limit)
    lines.push("", `… ${formatCount(entries.length - limit)} more rows; see report.json.`);
  return lines.join("\n");
}

/**
 * "instruction counts are deterministic, read under Valgrind: regressed = at least +1.0 %;
 * changes under 0.1 % ignored", or "" when the report has no counts. Escaped.
 */
export function countsRuleLine(report: BenchReport): string {
  const primary = report.benchmarks.filter((e) => isCount(e) && e.secondary !== true);
  if (primary.length === 0) return "";
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
  return `Instruction counts (${formatCount(primary.length)}) are read under Valgrind and decided exactly: regressed = ${rule}; changes under ${formatPercent(floor)} ignored; a count that differs between rounds of the same code is reported, not decided.`;
}

/** The secondary counts that changed beyond their floor, folded; "" when none did. */
export function secondaryCountsSection(report: BenchReport): Section {
  const changed = secondaryChanges(report);
  if (changed.length === 0) return { priority: 3, levels: [""] };
  const summary = `Secondary counts that changed beyond their floor: ${formatCount(changed.length)} (cache, cycles, memory; they never fail the gate)`;
  const render = (limit: number): string =>
    `<details><summary>${summary}</summary>\n\n${table(changed, limit)}\n\n</details>`;
  return { priority: 3, levels: levels(render(40), render(10), "") };
}
