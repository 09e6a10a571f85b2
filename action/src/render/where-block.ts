// The comment's folded "Where" block under a confirmed regression (issue 29, docs/where.md):
// the change of the benchmark's instructions per iteration and the functions that changed most,
// from core/instruction-diff.ts. When the instructions did not change, one sentence says the
// slowdown is elsewhere. Function names come from the profiled program: every one is escaped
// (markdown-parts.ts's `code`, escapeMarkdown). Pure.
import type { FunctionChange, InstructionDiff } from "../schemas/instruction-profile.ts";
import { formatExactChange, withSign } from "../number-text.ts";
import { formatCount, formatNumber, formatPercent } from "./format.ts";
import { cappedTable, code, tableRow, text } from "./markdown-parts.ts";

interface WhereOptions {
  /** Rows per table; report.json keeps all the diff's rows. Default 5. */
  readonly maxRows?: number;
  /** The regression's id, named first in the summary when several blocks stand together. */
  readonly benchmark?: string;
  /**
   * Extra lines at the end of the block (already escaped): who profiled it, when the report job
   * carried it from the measure job, and where its files are.
   */
  readonly footer?: string;
}

/** A signed count with three significant digits below 1,000: `+458,909`, `−0.350`. */
function signedNumber(value: number): string {
  return withSign(value, formatNumber(Math.abs(value)), true);
}

function changeCell(row: { change: number; relative: number | null }): string {
  const pct = row.relative === null ? "new" : formatExactChange(row.relative);
  return `${signedNumber(row.change)} (${pct})`;
}

function rows(changes: readonly FunctionChange[], limit: number): string[] {
  return changes
    .slice(0, limit)
    .map((r) =>
      tableRow([code(r.name), formatNumber(r.base), formatNumber(r.head), changeCell(r)]),
    );
}

function table(
  title: string,
  changes: readonly FunctionChange[],
  limit: number,
  share: number,
): string {
  if (changes.length === 0)
    return `${title}: no function changed by ${formatPercent(share)} of the total or more.`;
  return cappedTable(
    [`${title}:`, ""],
    { header: ["function", "base", "head", "change"], align: [":--", "--:", "--:", "--:"] },
    rows(changes, limit),
    changes.length,
  );
}

/** Whether the two tables would show the same rows: then the second is one sentence. */
function sameRows(
  a: readonly FunctionChange[],
  b: readonly FunctionChange[],
  limit: number,
): boolean {
  const shown = (rows: readonly FunctionChange[]): string =>
    JSON.stringify(rows.slice(0, limit).map((r) => [r.name, r.object, r.base, r.head]));
  return a.length === b.length && shown(a) === shown(b);
}

/** What the figures count: per iteration and how the iterations were found, or whole runs. */
function basisLine(diff: InstructionDiff): string {
  const b = diff.basis;
  if (b.kind === "per-run")
    return `Whole runs, not per iteration (${text(b.reason, 200)}): if the two runs iterated different numbers of times, so do these counts.`;
  const counted =
    b.routine === undefined
      ? "from Criterion's warm-up (1, 2, 4, … iterations)"
      : `as the calls of ${code(b.routine)}`;
  return `Instructions per iteration under Callgrind; iterations: base ${formatCount(b.base)}, head ${formatCount(b.head)}, counted ${counted}.`;
}

function unit(diff: InstructionDiff): string {
  return diff.basis.kind === "per-iteration" ? "instructions per iteration" : "instructions";
}

/** The one-line summary: the total's change and the function that changed most. */
export function whereSummary(diff: InstructionDiff): string {
  const t = diff.total;
  if (diff.unchanged) return `Where: ${unit(diff)} unchanged (${formatExactChange(t.relative)})`;
  const first = diff.self[0];
  const most = first === undefined ? "" : `, most in ${code(first.name, 80)}`;
  return `Where: ${formatExactChange(t.relative)} ${unit(diff)} (${formatNumber(t.base)} → ${formatNumber(t.head)})${most}`;
}

/** The folded block: `<details><summary>Where: …</summary>` and its tables. Escaped. */
export function whereBlock(diff: InstructionDiff, options: WhereOptions = {}): string {
  const limit = options.maxRows ?? 5;
  const share = diff.negligible_share;
  const body = [basisLine(diff), ""];
  if (diff.unchanged)
    body.push(
      `The executed instructions did not change (by less than ${formatPercent(diff.unchanged_below)}), so the slowdown is not in them: look at memory, caches, code layout and system calls.`,
    );
  else
    body.push(
      table("By self instructions (in the function itself)", diff.self, limit, share),
      "",
      sameRows(diff.self, diff.inclusive, limit)
        ? "By inclusive instructions (with what it calls): the same functions and figures."
        : table("By inclusive instructions (with what it calls)", diff.inclusive, limit, share),
    );
  if (options.footer !== undefined) body.push("", options.footer);
  const label = options.benchmark === undefined ? "" : `${code(options.benchmark, 80)} — `;
  return `<details><summary>${label}${whereSummary(diff)}</summary>\n\n${body.join("\n")}\n\n</details>`;
}
