// Small building blocks shared by the comment's sections.

import type { BenchReport, Entry } from "../schemas/report.gen.ts";
import { escapeMarkdown } from "./escape-markdown.ts";
import { formatChange, formatCount, formatNumber, formatTime, NO_VALUE } from "./format.ts";

/**
 * One part of the comment at decreasing levels of detail: `levels[0]` is the full rendering,
 * the last level the smallest (possibly ""). When the body is too long, the sections with the
 * lowest `priority` are shortened first.
 */
export interface Section {
  readonly priority: number;
  readonly levels: readonly string[];
}

/** A section that is never shortened. */
export function fixed(markdown: string): Section {
  return { priority: Infinity, levels: [markdown] };
}

const VERDICT_HEADLINE: Readonly<Partial<Record<string, string>>> = {
  pass: "✅",
  fail: "❌",
  inconclusive: "⚠️",
  error: "💥",
};

const ENTRY_VERDICT: Readonly<Partial<Record<string, string>>> = {
  regressed: "🔴 regressed",
  improved: "🟢 improved",
  inconclusive: "🟡 inconclusive",
  unchanged: "⚪ unchanged",
  new: "🆕 new",
  missing: "❔ missing",
};

/** The verdict column. The report is schema-checked, but the renderer does not rely on it. */
export function verdictCell(verdict: Entry["verdict"]): string {
  return ENTRY_VERDICT[verdict] ?? text(verdict, 20);
}

/** `## ✅ benchgate: pass — …`: emoji, title and verdict word of the headline. */
export function headline(verdict: BenchReport["verdict"], title: string, rest: string): string {
  return `## ${VERDICT_HEADLINE[verdict] ?? "💥"} ${text(title, 100)}: ${text(verdict, 20)}${rest}`;
}

/** An untrusted name shown as code. Escaped: the `<code>` element also keeps GitHub from linking it. */
export function code(name: string, maxLength = 150): string {
  return `<code>${escapeMarkdown(name, { maxLength })}</code>`;
}

/** Untrusted inline text. */
export function text(value: string | undefined, maxLength = 200): string {
  return escapeMarkdown(value ?? "", { maxLength });
}

/** A measured value: human time for `ns`, else the number and the (escaped) unit as given. */
export function valueCell(value: number | null | undefined, unit: string | undefined): string {
  if (unit === "ns") return formatTime(value);
  // max_regression budgets are relative: shown as a percentage, as formatValue does.
  if (unit === "fraction") return formatChange(value);
  const number = formatNumber(value);
  if (number === NO_VALUE || unit === undefined || unit === "") return number;
  return `${number} ${text(unit, 32)}`;
}

/** `a, b, c and 12 more` from the first `limit` items. */
export function listWithMore<T>(
  items: readonly T[],
  limit: number,
  render: (item: T) => string,
  separator = ", ",
): string {
  const shown = items.slice(0, limit).map(render).join(separator);
  const more = items.length - Math.min(limit, items.length);
  return more > 0 ? `${shown} and ${formatCount(more)} more` : shown;
}

/** A Markdown bullet list of the first `limit` items, and a last bullet saying how many were left out. */
export function bulletList<T>(
  items: readonly T[],
  limit: number,
  render: (item: T) => string,
): string {
  const lines = items.slice(0, limit).map((item) => `- ${render(item)}`);
  const more = items.length - Math.min(limit, items.length);
  if (more > 0) lines.push(`- … ${formatCount(more)} more; see report.json`);
  return lines.join("\n");
}

/** `| a | b |` from cells that are already escaped. */
export function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/**
 * A section's table: its `lead` lines (heading, text), the header and alignment rows, the rows
 * shown, and, when `total` is more than those, a line saying how many more report.json has.
 */
export function cappedTable(
  lead: readonly string[],
  columns: { readonly header: readonly string[]; readonly align: readonly string[] },
  rows: readonly string[],
  total: number,
): string {
  const lines = [...lead, tableRow(columns.header), tableRow(columns.align), ...rows];
  if (total > rows.length)
    lines.push("", `… ${formatCount(total - rows.length)} more; see report.json`);
  return lines.join("\n");
}

/** Distinct levels only, so the shortening loop never spends a step on an identical rendering. */
export function levels(...candidates: string[]): string[] {
  const out: string[] = [];
  for (const c of candidates) if (out.at(-1) !== c) out.push(c);
  return out;
}
