// The comment's check sections: budgets, golden outputs, smells and critcmp's own table.
// Failures come first, then budgets close to their limit (⚠️, within the rule's close band), then
// the ones that checked nothing (➖, never shown as met); every name, rule, message and diff comes
// from files a PR can change.

import type { BenchReport, BudgetResult, GoldenResult, Smell } from "../schemas/report.gen.ts";
import { budgetCountLine, budgetsByState, budgetState } from "./budget-state.ts";
import { codeBlock } from "./code-block.ts";
import { formatCount, tamePercents } from "./format.ts";
import {
  bulletList,
  cappedTable,
  code,
  fixed,
  levels,
  listWithMore,
  tableRow,
  text,
  valueCell,
  type Section,
} from "./markdown-parts.ts";

export function budgetsSection(report: BenchReport): Section {
  const budgets = report.budgets;
  if (budgets.length === 0) return fixed("");
  const { broken, close, unchecked } = budgetsByState(budgets);
  const count = budgetCountLine(budgets, formatCount);
  // Met budgets are one line: four columns repeating "median < 1ms … 4.91 µs < 1 ms" say no more.
  const listed = [...broken, ...close, ...unchecked];
  if (listed.length === 0) return fixed(`✅ **Budgets:** ${count}`);
  const heading = `### Budgets — ${count}`;
  const columns = {
    header: ["", "benchmark", "rule", "statistic", "limit", "actual", "note"],
    align: [":-:", ":--", ":--", ":--", "--:", "--:", ":--"],
  };
  const render = (rows: readonly BudgetResult[], total: number): string =>
    cappedTable([heading, ""], columns, rows.map(budgetRow), total);
  return {
    priority: 4,
    levels: levels(
      render(listed.slice(0, 50), listed.length),
      render([...broken, ...close].slice(0, 10), broken.length + close.length),
      broken.length === 0
        ? heading
        : `${heading}; see report.json for the ${formatCount(broken.length)} broken`,
    ),
  };
}

/** ❌ broken, ⚠️ close, ➖ not checked (./budget-state.ts), ✅ met. */
const BUDGET_MARKS = { broken: "❌", close: "⚠️", unchecked: "➖", met: "✅" } as const;

function budgetRow(b: BudgetResult): string {
  const unit = b.unit;
  return tableRow([
    BUDGET_MARKS[budgetState(b)],
    code(b.benchmark, 100),
    text(b.rule, 80),
    text(b.statistic, 32),
    valueCell(b.limit, unit),
    valueCell(b.actual, unit),
    text(b.message, 160),
  ]);
}

export function goldenSection(report: BenchReport): Section {
  const golden = report.golden;
  if (golden.length === 0) return fixed("");
  const failed = golden.filter((g) => !g.ok);
  const passed = golden.filter((g) => g.ok);
  const render = (limit: number, diffs: number): string => {
    const blocks: string[] = [];
    failed.slice(0, limit).forEach((g, i) => blocks.push(goldenFailure(g, i < diffs)));
    if (failed.length > limit)
      blocks.push(
        `… ${formatCount(failed.length - limit)} more golden outputs changed; see report.json`,
      );
    if (passed.length > 0) {
      const lead =
        failed.length === 0 ? `all ${formatCount(passed.length)} unchanged` : "unchanged";
      blocks.push(
        `✅ **Golden outputs:** ${lead} (${listWithMore(passed, Math.max(limit, 3), (g) => code(g.name, 80))})`,
      );
    }
    return blocks.join("\n\n");
  };
  return { priority: 5, levels: levels(render(20, 5), render(10, 0), render(0, 0)) };
}

function goldenFailure(g: GoldenResult, withDiff: boolean): string {
  // checkGolden's message already names the hashes and a non-zero exit code; the raw fields
  // are the fallback for results written by other tools.
  const facts: string[] = [];
  if (g.message !== undefined && g.message !== "") facts.push(text(g.message));
  else {
    if (g.exit_code !== undefined && g.exit_code !== null) facts.push(`exit code ${g.exit_code}`);
    if (g.expected !== undefined && g.actual !== undefined)
      facts.push(`sha256 ${text(g.expected.slice(0, 12))}… → ${text(g.actual.slice(0, 12))}…`);
  }
  const line = `❌ **Golden output** ${code(g.name, 100)}${facts.length > 0 ? `: ${facts.join(" · ")}` : ""}`;
  if (!withDiff || g.diff === undefined || g.diff === "") return line;
  const block = codeBlock(g.diff, { language: "diff", maxLines: 60, maxChars: 4000 });
  const more = block.omittedLines > 0 ? `\n\n… ${formatCount(block.omittedLines)} more lines` : "";
  return `${line}\n\n<details>\n<summary>diff</summary>\n\n${block.markdown}${more}\n\n</details>`;
}

/**
 * Smells that fail the gate (configured in smells.fail-on) are findings and shown in full; the
 * rest are warnings about the measurement and belong with the diagnostics.
 */
export function smellsSection(report: BenchReport, failing: boolean): Section {
  const smells = report.smells.filter((s) => (s.fails === true) === failing);
  if (smells.length === 0) return fixed("");
  const label = failing ? "Smells that fail the gate" : "Smells";
  const render = (limit: number): string =>
    `**${label}:**\n${bulletList(smells, limit, smellLine)}`;
  return {
    priority: failing ? 5 : 2,
    levels: levels(
      render(20),
      render(3),
      `**${label}:** ${formatCount(smells.length)}; see report.json`,
    ),
  };
}

function smellLine(s: Smell): string {
  // Evidence that already names the benchmarks (with their figures) needs no second list.
  const first = s.benchmarks[0];
  const names =
    first !== undefined && !s.evidence.includes(first)
      ? ` (${listWithMore(s.benchmarks, 5, (b) => code(b, 80))})`
      : "";
  const hint = s.hint !== undefined && s.hint !== "" ? ` — ${text(s.hint)}` : "";
  const suite = s.suite !== undefined && s.suite !== "" ? ` in ${code(s.suite, 64)}` : "";
  const mark = s.fails === true ? "❌" : "⚠️";
  const fails = s.fails === true ? " (configured to fail the gate)" : "";
  return `${mark} **${text(s.kind, 64)}**${suite}${fails}: ${text(tamePercents(s.evidence), 600)}${names}${hint}`;
}

/** critcmp's familiar table, folded. The text is the tool's output on PR-controlled names. */
export function critcmpSection(table: string | undefined): Section {
  if (table === undefined || table.trim() === "") return fixed("");
  const render = (maxLines: number, maxChars: number): string => {
    const block = codeBlock(table, { language: "text", maxLines, maxChars, maxLineLength: 300 });
    const more =
      block.omittedLines > 0
        ? `\n\n… ${formatCount(block.omittedLines)} more lines; see the artifacts`
        : "";
    return `<details>\n<summary>critcmp</summary>\n\n${block.markdown}${more}\n\n</details>`;
  };
  return {
    priority: 0,
    levels: levels(
      render(400, 20_000),
      render(60, 4_000),
      "<sub>critcmp's table was left out to keep this comment short; see the artifacts.</sub>",
    ),
  };
}
